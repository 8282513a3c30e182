package brief

import (
	"fmt"
	"strings"

	"cubeworkbench/core/text"
)

// The page: A4 portrait, in millimetres.
const (
	PageW, PageH = 210.0, 297.0
	marginX      = 14.0
	marginTop    = 12.0
	marginBottom = 10.0
	contentW     = PageW - 2*marginX
	minChartH    = 40.0 // below this a chart is unreadable; it is left to the workbook
	maxChartH    = 85.0
	chartGap     = 4.0
)

// Block is one measured piece of the page. Coordinates are mm from the top
// left; Size is the font size in pt.
type Block struct {
	Kind  string    `json:"kind"` // title | banner | text | notice | heading | bullet | row | head | chart | rule | footer
	X     float64   `json:"x"`
	Y     float64   `json:"y"`
	W     float64   `json:"w"`
	H     float64   `json:"h"`
	Size  float64   `json:"size,omitempty"`
	Lines []string  `json:"lines,omitempty"`
	Cells []string  `json:"cells,omitempty"`
	Cols  []float64 `json:"cols,omitempty"` // widths of Cells
	Cut   bool      `json:"cut,omitempty"`  // text was shortened with Ellipsis
	Chart int       `json:"chart"`          // index into Content.Charts for kind chart
}

// Page is the laid-out brief.
type Page struct {
	Blocks []Block `json:"blocks"`
	// Level is how far the budgets had to shrink to leave room for the
	// charts (0: not at all).
	Level int `json:"level"`
	// ChartsLeftOut says the charts did not fit even at the smallest budgets;
	// the page then says so in a line.
	ChartsLeftOut bool `json:"charts_left_out,omitempty"`
}

// budget is how much of each list the page shows.
type budget struct {
	lines   int // lines per bullet
	bullets int // bullets per list
	judges  int // rows of the judges table
}

var budgets = []budget{{2, 5, 5}, {1, 5, 5}, {1, 4, 4}, {1, 3, 3}}

// line heights per font size: 1.25 × the size in mm, rounded up a little.
func lh(size float64) float64 { return size * 0.3528 * 1.35 }

// aspect is a chart's height / width; 0 for a figure drawn at its slot.
type aspect float64

func layout(m measure, c *Content, aspects []aspect) Page {
	for lvl, b := range budgets {
		p, room := layoutAt(m, c, b)
		p.Level = lvl
		if len(c.Charts) == 0 {
			p.Blocks = append(p.Blocks, footer(m, c)...)
			return p
		}
		if room >= minChartH || lvl == len(budgets)-1 {
			y := PageH - marginBottom - footerH(m, c)
			p.Blocks = append(p.Blocks, placeCharts(m, c, aspects, room, y)...)
			if room < minChartH {
				p.ChartsLeftOut = true
				p.Blocks = append(p.Blocks, textBlock(m, "text", trCharts(c.Lang), 9, marginX, y-room-chartGap, contentW, 1))
			}
			p.Blocks = append(p.Blocks, footer(m, c)...)
			return p
		}
	}
	panic("unreachable")
}

func trCharts(lang text.Lang) string { return tr(lang, "charts.nofit") }

// layoutAt lays out everything above the charts and returns the height left
// for them.
func layoutAt(m measure, c *Content, b budget) (Page, float64) {
	lang := c.Lang
	var p Page
	y := marginTop
	add := func(bl Block) { p.Blocks = append(p.Blocks, bl); y = bl.Y + bl.H }
	gap := func(g float64) { y += g }

	add(textBlock(m, "title", tr(lang, "title"), 9, marginX, y, contentW, 1))
	gap(1.5)
	add(Block{Kind: "banner", X: marginX, Y: y, W: contentW, H: 16, Size: 20,
		Lines: []string{fit(m, tr(lang, "verdict.label")+sep(lang)+verdict(lang, c.Verdict), 20, contentW-8)}})
	gap(3)

	// The headline: the score, its interval in words, and the rule.
	score := tr(lang, "score.none")
	if c.Cube != nil {
		score = trf(lang, "score", numOr(c.Cube, 1, ""))
	}
	add(textBlock(m, "text", score, 15, marginX, y, contentW, 1))
	switch {
	case c.Cube == nil && c.Undetermined != "":
		add(textBlock(m, "text", c.Undetermined, 11, marginX, y, contentW, 3))
	case c.Cube == nil:
		add(textBlock(m, "text", tr(lang, "undetermined.why"), 11, marginX, y, contentW, 2))
	case c.Lo != nil:
		add(textBlock(m, "text", trf(lang, "interval", c.Resamples, numOr(c.Lo, 1, ""), numOr(c.Hi, 1, "")), 11, marginX, y, contentW, 1))
	default:
		add(textBlock(m, "text", tr(lang, "interval.none"), 11, marginX, y, contentW, 1))
	}
	d, n := threshold(c.Deployable), threshold(c.NeedsWork)
	add(textBlock(m, "text", trf(lang, "thresholds", d, n, d, verdict(lang, Deployable), verdict(lang, NeedsWork), verdict(lang, NotReady)), 9, marginX, y, contentW, 2))
	gap(2.5)

	var notices []string
	if c.Baseline {
		notices = append(notices, tr(lang, "notice.baseline"))
	}
	if c.Sample {
		notices = append(notices, tr(lang, "notice.sample"))
	}
	for _, s := range notices {
		bl := textBlock(m, "notice", s, 9.5, marginX+2, y+1, contentW-4, 2)
		bl.X, bl.Y, bl.W, bl.H = marginX, y, contentW, bl.H+2
		add(bl)
		gap(1.5)
	}
	gap(1)

	list := func(key string, items []string) {
		if len(items) == 0 {
			return
		}
		add(textBlock(m, "heading", tr(lang, key), 12, marginX, y, contentW, 1))
		shown := items
		if len(shown) > b.bullets {
			shown = shown[:b.bullets]
		}
		for _, s := range shown {
			// Shortened by whole sentences, never cut mid-sentence with "…".
			lines, cut := wrapWhole(m, s, 10, contentW-5, b.lines)
			add(Block{Kind: "bullet", X: marginX + 5, Y: y, W: contentW - 5, H: float64(len(lines)) * lh(10), Size: 10, Lines: lines, Cut: cut})
		}
		if rest := len(items) - len(shown); rest > 0 {
			add(textBlock(m, "text", trf(lang, "more", rest), 9, marginX+5, y, contentW-5, 1))
		}
		gap(2)
	}
	list("why", c.Why)
	list("recs", c.Recommendations)

	add(textBlock(m, "heading", tr(lang, "judges"), 12, marginX, y, contentW, 1))
	cols := []float64{70, 30, 46, 36}
	recall := tr(lang, "col.recall0")
	if c.K > 0 {
		recall = recallAt(lang, c.K)
	}
	head := []string{tr(lang, "col.judge"), tr(lang, "col.cube"), tr(lang, "col.interval"), recall}
	add(rowBlock(m, "head", head, cols, 9, y))
	shown := c.Judges
	if len(shown) > b.judges {
		shown = shown[:b.judges]
	}
	counted := 0
	var left []string
	for _, j := range c.Judges {
		if j.NotCounted == "" {
			counted++
		} else {
			left = append(left, trf(lang, "judge.notcounted", j.Name, j.NotCounted))
		}
	}
	for _, j := range shown {
		cells := []string{j.Name, numOr(j.Cube, 1, tr(lang, "na")), interval(lang, j.Lo, j.Hi), percent(lang, j.RecallAtK)}
		if j.NotCounted != "" {
			// Its number is no score: never printed beside the counted ones.
			cells[1], cells[2] = tr(lang, "notcounted"), ""
		}
		add(rowBlock(m, "row", cells, cols, 9.5, y))
	}
	var notes []string
	switch {
	case counted == 0:
		notes = append(notes, tr(lang, "judges.none"))
	case counted == 1:
		notes = append(notes, tr(lang, "judges.one"))
	case c.Spread != nil:
		notes = append(notes, trf(lang, "judges.spread", counted, numOr(c.Spread, 1, "")))
	default:
		notes = append(notes, tr(lang, "judges.nospread"))
	}
	if rest := len(c.Judges) - len(shown); rest > 0 {
		notes = append(notes, trf(lang, "judges.more", rest))
	}
	if len(notes) > 0 {
		gap(0.5)
		add(textBlock(m, "text", strings.Join(notes, " "), 9, marginX, y, contentW, 1))
	}
	if len(left) > 0 {
		gap(0.5)
		add(textBlock(m, "text", strings.Join(left, " "), 9, marginX, y, contentW, 3))
	}
	gap(chartGap)
	room := PageH - marginBottom - footerH(m, c) - chartGap - y
	return p, room
}

func sep(lang text.Lang) string { return tr(lang, "label.sep") }

func interval(lang text.Lang, lo, hi *float64) string {
	if lo == nil || hi == nil {
		return tr(lang, "na")
	}
	return trf(lang, "range", *lo, *hi)
}

func percent(lang text.Lang, v *float64) string {
	if v == nil {
		return tr(lang, "na")
	}
	return fmt.Sprintf("%.1f %%", *v*100)
}

// textBlock wraps s into at most max lines of width w.
func textBlock(m measure, kind, s string, size, x, y, w float64, max int) Block {
	lines, cut := wrap(m, s, size, w, max)
	return Block{Kind: kind, X: x, Y: y, W: w, H: float64(len(lines)) * lh(size), Size: size, Lines: lines, Cut: cut}
}

// rowBlock is one table row, each cell cut to its column.
func rowBlock(m measure, kind string, cells []string, cols []float64, size, y float64) Block {
	out := make([]string, len(cells))
	cut := false
	for i, s := range cells {
		out[i] = fit(m, s, size, cols[i]-3)
		cut = cut || out[i] != s
	}
	return Block{Kind: kind, X: marginX, Y: y, W: contentW, H: lh(size) + 1.5, Size: size, Cells: out, Cols: cols, Cut: cut}
}

// footerText is the line saying what was evaluated.
func footerText(c *Content) string {
	lang := c.Lang
	names := make([]string, 0, len(c.Judges))
	for _, j := range c.Judges {
		names = append(names, j.Name)
	}
	judges := strings.Join(names, tr(lang, "list.sep"))
	date := ""
	if !c.Date.IsZero() {
		date = c.Date.Format("2006-01-02")
	}
	return trf(lang, "evaluated", orUnknown(lang, c.Workbook), orUnknown(lang, c.System), orUnknown(lang, judges), orUnknown(lang, date), orUnknown(lang, c.ToolVersion))
}

const footerSize = 8

func footerH(m measure, c *Content) float64 {
	lines, _ := wrap(m, footerText(c), footerSize, contentW, 2)
	return float64(len(lines))*lh(footerSize) + 2
}

func footer(m measure, c *Content) []Block {
	h := footerH(m, c)
	y := PageH - marginBottom - h
	b := textBlock(m, "footer", footerText(c), footerSize, marginX, y+2, contentW, 2)
	return []Block{{Kind: "rule", X: marginX, Y: y + 0.8, W: contentW}, b}
}

// placeCharts scales the charts whole into room above bottom: side by side
// when there are two, each keeping its aspect.
func placeCharts(m measure, c *Content, aspects []aspect, room, bottom float64) []Block {
	if room < minChartH || len(aspects) == 0 {
		return nil
	}
	n := float64(len(aspects))
	slotW := (contentW - chartGap*(n-1)) / n
	top := bottom - room - chartGap
	var out []Block
	for i, a := range aspects {
		capH := 0.0
		if c.Charts[i].Caption != "" {
			capH = lh(8)
		}
		h := min(room-capH, maxChartH)
		var w float64
		if a > 0 {
			w = h / float64(a)
			if w > slotW {
				w, h = slotW, slotW*float64(a)
			}
		} else {
			// A figure drawn at its slot: not wider than twice its height
			// nor taller than 0.8 of its width, so bars keep their shape.
			w = min(slotW, 2*h)
			h = min(h, 0.8*w)
		}
		x := marginX + float64(i)*(slotW+chartGap) + (slotW-w)/2
		b := Block{Kind: "chart", X: x, Y: top, W: w, H: h, Chart: i}
		if capH > 0 {
			b.Lines = []string{fit(m, c.Charts[i].Caption, 8, slotW)}
			b.Size = 8
		}
		out = append(out, b)
	}
	return out
}
