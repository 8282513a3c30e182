package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/xuri/excelize/v2"
	"gonum.org/v1/plot/vg"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dimension"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// The Summary sheet is one A4 portrait page at 100 %: eight columns of
// pageColWidth characters fill the printable width, every row has an
// explicit height, and the sheet fits one page wide and one page tall, so
// LibreOffice and Excel print it on one page without shrinking the 9 pt
// chart ticks (TestSummaryFitsOnePage adds the heights up).
const (
	pageCols     = 8
	pageColWidth = 9.8 // 8 × 9.8 characters: 529 pt at LibreOffice's widest, 442 pt in Excel
	// chartW and chartH are the size, in points, of each of the two
	// charts placed side by side on the chart row.
	chartH    = 136.0 // at least, while advice can make room
	chartHMin = 118.0 // at least, in any case
	chartHMax = 220.0 // at most
	chartDPI  = 192   // twice the screen resolution, shown at half size: sharp in print
)

// rowHeadline is the Summary's headline sentence: title, what was
// evaluated, verdict, its rule, headline; a comparison's line goes under
// it, then the notices. The key numbers sit where the notices leave room,
// so they are found by their names; these say where their numbers are.
const rowHeadline = 5

const (
	colFigValue = 0 // columns right of a figure's name: the value (the low end of an interval)
	colFigHi    = 1 // and the high end of an interval
)

func (w *writer) summarySheet() error {
	pg := w.page()
	g := w.grid(SheetSummary)
	ws := make([]float64, pageCols)
	for i := range ws {
		ws[i] = pageColWidth
	}
	g.widths(ws...)
	if err := w.summaryTop(g, pg); err != nil {
		return err
	}
	w.summaryFigures(g, pg)
	w.summaryAdvice(g, pg)
	w.summaryJudges(g, pg)
	if err := w.summaryCharts(g, pg); err != nil {
		return err
	}
	w.summaryLastRow = g.row - 1
	g.err(w.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area", Scope: g.name,
		RefersTo: fmt.Sprintf("'%s'!$A$1:$%s$%d", g.name, colName(pageCols), w.summaryLastRow)}))
	return g.first
}

// widthAll is the Summary page's width in characters.
const widthAll = float64(pageCols) * pageColWidth

// merge merges columns from–to of row r.
func (g *grid) merge(r, from, to int) {
	g.err(g.w.f.MergeCell(g.name, fmt.Sprintf("%s%d", colName(from), r), fmt.Sprintf("%s%d", colName(to), r)))
}

// full writes text across the whole Summary page in row r.
func (g *grid) full(r int, text string, style int, height float64) {
	g.at(r, 1, styled{text, style})
	g.merge(r, 1, pageCols)
	g.height(r, height)
}

// summaryJudgeHeight is the height of a judge's row on the Summary.
func summaryJudgeHeight(j PageJudge) float64 {
	return max(16, textHeight(j.Note, 2*pageColWidth, 9), textHeight(j.Kind, pageColWidth*0.9, 11))
}

// summaryTop writes the title, what was evaluated, the verdict, its rule,
// the headline, the comparison's row and the notices.
func (w *writer) summaryTop(g *grid, pg Page) error {
	r := g.line(styled{pg.Title, w.st.pageTitle})
	g.merge(r, 1, pageCols)
	g.height(r, 28)
	r = g.row
	g.full(r, pg.About, w.st.small, textHeight(pg.About, widthAll, 9))
	g.row++
	code := pg.VerdictCode
	if _, ok := w.st.verdict[code]; !ok {
		code = result.Undetermined
	}
	r = g.row
	g.full(r, w.say(glossaryName(glossary.Verdict))+w.say(txtColon)+pg.Verdict, w.st.verdict[code], 36)
	w.summaryVerdictRow = r
	g.row++
	r = g.row
	g.full(r, pg.VerdictRule, w.st.small, textHeight(pg.VerdictRule, widthAll, 9)-2)
	g.row++
	r = g.row
	g.full(r, pg.Headline, w.st.headline, textHeight(pg.Headline, widthAll, 11))
	w.summaryHeadlineRow = r
	if r != rowHeadline {
		return fmt.Errorf("report: the Summary's headline is on row %d, not %d", r, rowHeadline)
	}
	g.row++
	// The row under the headline holds a comparison's one line when the
	// summary has one (compare.go writes it: label in A, text B:H).
	r = g.row
	g.height(r, 3)
	if c := w.s.Comparison; c != nil {
		g.height(r, max(textHeight(c.Headline.In(w.lang)+w.say(txtSheet)+SheetComparison+"”）", widthAll-pageColWidth, 11),
			textHeight(fmt.Sprintf(w.say(txtComparedWith), w.sideA(c)), pageColWidth, 11)))
	}
	g.row++
	// The notices: the sample data, the baseline judge, a missing Recall@k.
	for _, n := range pg.Notices {
		r = g.row
		g.full(r, n, w.st.notice, textHeight(n, widthAll-4, 9.5)+2)
		g.row++
	}
	g.height(g.row, 3)
	g.skip(1)
	return nil
}

// summaryFigures writes the key numbers in one row under their names (an
// interval's two ends under one name).
func (w *writer) summaryFigures(g *grid, pg Page) {
	// The key numbers in one row under their names (an interval's two
	// ends under one name): what each means is on the Method sheet, and
	// the headline and the reasons say it in sentences.
	w.summaryFigureRow = map[string]int{}
	hr, vr := g.row, g.row+1
	col, headH := 1, 16.0
	for _, fig := range pg.Figures {
		span := 1
		if fig.Hi != nil || fig.Interval {
			span = 2
		}
		var val, hi any = fig.Value, fig.Hi
		switch {
		case fig.Text != "":
			val = styled{fig.Text, w.st.na}
		case fig.Percent:
			val = pct{fig.Value}
		case fig.Int && fig.Value != nil:
			val = int(*fig.Value)
		}
		name := fig.Short
		if name == "" {
			name = fig.Label
		}
		g.at(hr, col, styled{name, w.st.headerSmall})
		if span == 2 {
			g.at(hr, col+1, styled{"", w.st.headerSmall})
			g.merge(hr, col, col+1)
		}
		g.at(vr, col, scoreLike(val, fig.Bold, w.st.score))
		if span == 2 {
			g.at(vr, col+1, hi)
		}
		headH = max(headH, textHeight(name, pageColWidth*float64(span)*0.85, 9))
		col += span
		if col > pageCols {
			break
		}
	}
	g.height(hr, headH)
	g.height(vr, 18)
	g.row = vr + 1
	g.height(g.row, 3)
	g.skip(1)
}

// summaryAdvice writes why the verdict is what it is and the advice the
// page has room for.
func (w *writer) summaryAdvice(g *grid, pg Page) {
	var r int
	// Why, and what to do.
	if len(pg.Why) > 0 {
		r = g.line(styled{w.say(summaryWhyVerdict), w.st.label})
		g.height(r, 16)
		for _, y := range pg.Why {
			r = g.row
			// The bullet leads the text across the whole width: a column of
			// its own cost a line in three reasons of five.
			g.at(r, 1, styled{"• " + y, w.st.body})
			g.merge(r, 1, pageCols)
			g.height(r, textHeight("• "+y, widthAll, 9.5))
			g.row++
		}
	}
	r = g.line(styled{w.say(summaryWhatDoNext), w.st.label})
	g.height(r, 16)
	if len(pg.Advice) == 0 {
		r = g.line(styled{w.say(summaryNoRuleFired), w.st.small})
		g.merge(r, 1, pageCols)
		g.height(r, 16)
	}
	shown := w.adviceShown(g, pg)
	w.summaryAdviceLeft = pg.Advice[shown:]
	for _, a := range pg.Advice[:shown] {
		st := map[string]int{"high": w.st.sevHigh, "medium": w.st.sevMedium}[a.Severity]
		if st == 0 {
			st = w.st.sevLow
		}
		r = g.row
		g.at(r, 1, styled{a.Priority, st}, styled{a.Text, w.st.body})
		g.merge(r, 2, pageCols)
		g.height(r, textHeight(a.Text, widthAll-pageColWidth, 9.5))
		g.row++
	}
	if n := len(w.summaryAdviceLeft); n > 0 {
		r = g.line(styled{fmt.Sprintf(w.say(summaryMoreRecommendationsMethod), n), w.st.small})
		g.merge(r, 1, pageCols)
		g.height(r, 16)
	}
	g.height(g.row, 3)
	g.skip(1)
}

// adviceShown is how much advice the page has room for, most urgent first
// (explain orders them so): what the judges table and the charts at their
// floor need is kept free; the rest is listed on the Method sheet and the
// page says how many.
func (w *writer) adviceShown(g *grid, pg Page) int {
	below := 3.0 + 3 // spacers
	if len(pg.Judges.Rows) > 0 {
		below += 18 + 3 + summaryJudgeHeight(pg.Judges.Mean)
		for _, j := range pg.Judges.Rows {
			below += summaryJudgeHeight(j)
		}
	}
	if len(pg.Charts) > 0 {
		below += chartRowHeight(chartH)
	}
	_, pageH := printable(false)
	shown := len(pg.Advice)
	for shown > 1 {
		need := 0.0
		for _, a := range pg.Advice[:shown] {
			need += textHeight(a.Text, widthAll-pageColWidth, 9.5)
		}
		if shown < len(pg.Advice) {
			need += 16 // the "more on the Method sheet" line
		}
		if g.used(g.row)+need+below <= pageH {
			break
		}
		shown--
	}
	return shown
}

// summaryJudges writes the judges' table.
func (w *writer) summaryJudges(g *grid, pg Page) {
	var r int
	// The judges.
	if len(pg.Judges.Rows) > 0 {
		h := pg.Judges.Header
		r = g.line(styled{h[0], w.st.header}, nil, styled{h[1], w.st.header}, styled{h[2], w.st.headerNum}, styled{h[3], w.st.headerNum},
			styled{h[4], w.st.headerNum}, styled{h[5], w.st.header})
		g.merge(r, 1, 2)
		g.merge(r, 7, pageCols)
		g.height(r, 18)
		for i, j := range append(append([]PageJudge{}, pg.Judges.Rows...), pg.Judges.Mean) {
			r = g.row
			name := any(j.Name)
			if i == len(pg.Judges.Rows) {
				name = styled{j.Name, w.st.label}
			}
			g.at(r, 1, name, nil, styled{j.Kind, w.st.wrap}, scoreCell(j.Cube, w.st.score), j.Lo, j.Hi, styled{j.Note, w.st.small})
			g.merge(r, 1, 2)
			g.merge(r, 7, pageCols)
			g.height(r, summaryJudgeHeight(j))
			g.row++
		}
		g.height(g.row, 3)
		g.skip(1)
	}
}

// summaryCharts writes the two charts side by side.
func (w *writer) summaryCharts(g *grid, pg Page) error {
	var r int
	// Two charts side by side on one row as tall as they are: an anchor
	// inside one row cannot cross a page break the row does not.
	if len(pg.Charts) > 0 {
		r = g.row
		// The charts take what the page has left, between a floor that
		// keeps their axes readable and a ceiling that keeps them in
		// proportion; the page test checks the floor still fits.
		_, pageH := printable(false)
		// Below chartH only when the advice is down to one and the page
		// is still full (a comparison, both banners, five reasons).
		ht := max(chartHMin, min(chartHMax, pageH-g.used(r)-8))
		g.height(r, chartRowHeight(ht))
		w.summaryChartRow = r
		// The CuBE bars take three columns, the bounds (four groups of
		// three bars, longer names) the other five, each as wide as its
		// columns are at their narrowest (Excel), so neither overlaps the
		// other in any reader.
		spans := [][2]int{{1, 3}, {4, pageCols}}
		for i, c := range pg.Charts[:min(2, len(pg.Charts))] {
			cell := fmt.Sprintf("%s%d", colName(spans[i][0]), r)
			wd := colPoints(pageColWidth)*float64(spans[i][1]-spans[i][0]+1) - 4
			if err := w.pictureAt(g.name, cell, c, wd, ht); err != nil {
				return err
			}
		}
		g.row++
	}
	return nil
}

// chartRowHeight is the height of a row that holds a picture ht points
// tall placed 3 px down. The picture has a one-cell anchor with its own
// size: a two-cell anchor is sized by its cells, which excelize computes
// with its own row and column model and each reader draws with its own
// font metrics, so a chart grew into the rows below it (issue 15).
func chartRowHeight(ht float64) float64 { return math.Ceil(ht + 6) }

// scoreLike shows the CuBE score in bold, other values as they are.
func scoreLike(v any, bold bool, style int) any {
	if p, ok := v.(*float64); ok && bold && p != nil {
		return styled{*p, style}
	}
	return v
}

// scoreCell is a CuBE score in bold with one decimal, or n/a.
func scoreCell(v *float64, style int) any {
	if v == nil {
		return v
	}
	return styled{*v, style}
}

// pictureAt renders a page chart at w × h points and places it at cell at
// that size.
func (w *writer) pictureAt(sheet, cell string, c PageChart, wd, ht float64) error {
	fig, err := c.Build(chart.Options{Lang: w.lang, Width: vg.Length(wd), Height: vg.Length(ht), DPI: chartDPI})
	if err != nil {
		return nil //nolint:nilerr // no data: nothing to draw, the tables show it
	}
	png, err := fig.PNG()
	if err != nil {
		return fmt.Errorf("report: %s: %w", c.Alt, err)
	}
	// excelize sizes a picture by its pixels at 96 per inch.
	scale := float64(chart.DPI) / chartDPI
	if err := w.f.AddPictureFromBytes(sheet, cell, &excelize.Picture{Extension: ".png", File: png,
		Format: &excelize.GraphicOptions{AltText: c.Alt, ScaleX: scale, ScaleY: scale, LockAspectRatio: true, OffsetX: 2, OffsetY: 3, Positioning: "oneCell"}}); err != nil {
		return fmt.Errorf("report: %s: %w", c.Alt, err)
	}
	return nil
}

// textHeight estimates the height in points a wrapped text of font size pt
// needs in a cell width characters (of the 11 pt default font) wide; a Han
// character counts two.
func textHeight(s string, width, pt float64) float64 {
	perLine := width * 11 / pt
	lines, units := 1, 0.0
	for _, r := range s {
		u := 0.85 // a proportional Latin letter is narrower than the digit a width counts
		switch {
		case r == '\n':
			lines++
			units = 0
			continue
		case r > 0x2E80:
			u = 2
		}
		if units+u > perLine {
			lines++
			units = 0
		}
		units += u
	}
	return float64(lines)*pt*1.3 + 5
}

// flags renders a judge's flags in the report language.
func (w *writer) flags(fl []string) string {
	out := make([]string, len(fl))
	for i, x := range fl {
		out[i] = cube.FlagText(x).In(w.lang)
	}
	return strings.Join(out, w.say(txtSemicolon))
}

// dimTitle names a built-in dimension (core/dimension) or the weighted
// total in the report language; other dimensions show as written.
func (w *writer) dimTitle(d string) string {
	if d == cube.Weighted {
		return w.say(summaryWeighted)
	}
	if x, ok := dimension.Lookup(d); ok {
		return w.say(text.New(x.TitleZH, x.TitleEN))
	}
	return d
}

func meanDefined(vals []*float64) *float64 {
	var sum float64
	n := 0
	for _, v := range vals {
		if v != nil {
			sum += *v
			n++
		}
	}
	if n == 0 {
		return nil
	}
	m := sum / float64(n)
	return &m
}

// blankNil writes an undefined number as an empty cell (chart data).
func blankNil(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func chartTitle(s string) excelize.ChartTitle {
	return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s}}}
}

func float(v float64) *float64 { return &v }
func boolp(b bool) *bool       { return &b }

// rowHeight estimates the height in points a wrapped text needs in a cell
// about width characters wide (a Han character counts two).
func rowHeight(s string, width int) float64 {
	units := 0
	lines := 1
	for _, r := range s {
		switch {
		case r == '\n':
			lines++
			units = 0
			continue
		case r > 0x2E80:
			units += 2
		default:
			units++
		}
		if units >= width {
			lines++
			units = 0
		}
	}
	return float64(min(lines, 20))*15 + 3
}

// tickFont keeps native charts' tick labels dark and 9 pt: LibreOffice's
// default light grey is near-invisible in print.
var tickFont = excelize.Font{Color: "262626", Size: 9}
