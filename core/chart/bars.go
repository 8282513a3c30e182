package chart

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"cubeworkbench/core/text"
)

// Series is one named row of values over a chart's categories; nil is
// undefined and drawn as "n/a".
type Series struct {
	Name   string
	Values []*float64
}

// Grouped is a grouped bar chart's data: Series[j].Values[i] is the bar of
// series j in category i.
type Grouped struct {
	Categories []string
	Series     []Series
}

func (g Grouped) check() error {
	if len(g.Categories) == 0 || len(g.Series) == 0 {
		return fmt.Errorf("chart: grouped bars: %w", ErrNoData)
	}
	for _, s := range g.Series {
		if len(s.Values) != len(g.Categories) {
			return fmt.Errorf("chart: grouped bars: series %q has %d values for %d categories", s.Name, len(s.Values), len(g.Categories))
		}
	}
	return nil
}

// bar is one drawn bar.
type bar struct {
	v, lo, hi *float64
	color     color.Color
}

// bars is a plot.Plotter of bars grouped by category at x = 0, 1, …; with
// error whiskers where lo/hi are set, the value printed over each bar and
// "n/a" at the baseline where the value is undefined (never a zero bar).
type bars struct {
	groups [][]bar // [category][series]
	width  float64 // share of a category's slot the group fills
	prec   int     // decimals of the printed values
	lang   text.Lang
}

func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = 0, 0
	for _, g := range b.groups {
		for _, br := range g {
			for _, v := range []*float64{br.v, br.lo, br.hi} {
				if v != nil {
					ymin, ymax = math.Min(ymin, *v), math.Max(ymax, *v)
				}
			}
		}
	}
	return -0.5, float64(len(b.groups)) - 0.5, ymin, ymax
}

func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	vs := textStyle(sizeValue, color.Black)
	vs.XAlign, vs.YAlign = draw.XCenter, draw.YBottom
	ns := textStyle(sizeTick, naText)
	ns.XAlign, ns.YAlign = draw.XLeft, draw.YCenter
	ns.Rotation = math.Pi / 2
	whisker := draw.LineStyle{Color: color.Black, Width: 1}
	base := math.Max(p.Y.Min, math.Min(0, p.Y.Max))
	for i, g := range b.groups {
		n := float64(len(g))
		w := b.width / n
		for j, br := range g {
			x0 := float64(i) - b.width/2 + float64(j)*w
			xl, xr := tx(x0+w*0.06), tx(x0+w*0.94)
			xc := (xl + xr) / 2
			if br.v == nil {
				// Across the slot when it fits, else rotated along it.
				if hs := ns; hs.Width(na(b.lang))+4 < xr-xl {
					hs.Rotation, hs.XAlign, hs.YAlign = 0, draw.XCenter, draw.YBottom
					c.FillText(hs, vg.Point{X: xc, Y: ty(base) + 2}, na(b.lang))
				} else {
					c.FillText(ns, vg.Point{X: xc, Y: ty(base) + 2}, na(b.lang))
				}
				continue
			}
			y0, y1 := ty(base), ty(*br.v)
			c.FillPolygon(br.color, c.ClipPolygonY([]vg.Point{{X: xl, Y: y0}, {X: xr, Y: y0}, {X: xr, Y: y1}, {X: xl, Y: y1}}))
			top := math.Max(*br.v, 0)
			if br.lo != nil && br.hi != nil {
				cap := (xr - xl) / 4
				ylo, yhi := ty(*br.lo), ty(*br.hi)
				c.StrokeLines(whisker, c.ClipLinesY(
					[]vg.Point{{X: xc, Y: ylo}, {X: xc, Y: yhi}},
					[]vg.Point{{X: xc - cap, Y: ylo}, {X: xc + cap, Y: ylo}},
					[]vg.Point{{X: xc - cap, Y: yhi}, {X: xc + cap, Y: yhi}})...)
				top = math.Max(top, *br.hi)
			}
			c.FillText(vs, vg.Point{X: xc, Y: ty(top) + 1.5}, fmt.Sprintf("%.*f", b.prec, *br.v))
		}
	}
}

// barPlot builds the plot of a grouped bar chart with nominal categories.
// Plotters in under are drawn behind the bars.
func barPlot(lang text.Lang, cats []string, groups [][]bar, prec int, ylabel string, under ...plot.Plotter) *plot.Plot {
	p := newPlot()
	width := 0.8
	if len(groups) > 0 && len(groups[0]) == 1 {
		width = 0.55 // a lone bar per category looks like a wall when wider
	}
	b := &bars{groups: groups, width: width, prec: prec, lang: lang}
	p.Add(yGrid())
	p.Add(under...)
	p.Add(b)
	p.NominalX(cats...)
	p.X.Tick.Length = 0
	p.Y.Label.Text = ylabel
	return p
}

// slantCrowded makes the category names legible when two neighbours
// (centred slot points apart) would touch: first by breaking names at a
// hyphen, space or underscore onto two lines, else by turning them 30°
// (which costs the plot far more height).
func slantCrowded(p *plot.Plot, cats []string, slot float64) {
	if !crowded(cats, slot) {
		return
	}
	broken := make([]string, len(cats))
	for i, c := range cats {
		broken[i] = breakName(c)
	}
	if !crowded(broken, slot) {
		p.NominalX(broken...)
		return
	}
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
}

// crowded reports whether two neighbouring names, centred slot points
// apart, would touch (each line measured on its own).
func crowded(cats []string, slot float64) bool {
	sty := textStyle(sizeTick, color.Black)
	const gap = 2.0 // points between neighbouring names
	width := func(s string) float64 {
		w := 0.0
		for _, l := range strings.Split(s, "\n") {
			w = math.Max(w, float64(sty.Width(l)))
		}
		return w
	}
	for i, c := range cats {
		w := width(c)
		if w > 2*slot {
			return true
		}
		if i+1 < len(cats) && (w+width(cats[i+1]))/2+gap > slot {
			return true
		}
	}
	return false
}

// breakName splits a name in two at the separator nearest its middle.
func breakName(s string) string {
	r := []rune(s)
	best := -1
	for i, c := range r {
		if (c == '-' || c == ' ' || c == '_') && i > 0 && i < len(r)-1 {
			if best < 0 || abs(i-len(r)/2) < abs(best-len(r)/2) {
				best = i
			}
		}
	}
	if best < 0 {
		return s
	}
	head := string(r[:best+1])
	if r[best] == ' ' {
		head = string(r[:best])
	}
	return head + "\n" + string(r[best+1:])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// yGrid draws light horizontal lines at the major y ticks.
func yGrid() plot.Plotter {
	return plotterFunc(func(c draw.Canvas, p *plot.Plot) {
		_, ty := p.Transforms(&c)
		ls := draw.LineStyle{Color: gridGrey, Width: 0.5}
		for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
			if t.IsMinor() || t.Value < p.Y.Min || t.Value > p.Y.Max {
				continue
			}
			y := ty(t.Value)
			c.StrokeLine2(ls, c.Min.X, y, c.Max.X, y)
		}
	})
}

// headroom makes room above the highest bar for its printed value.
func headroom(p *plot.Plot, frac float64) {
	p.Y.Max += (p.Y.Max - p.Y.Min) * frac
}

// fixedTicks marks the axis at step multiples only, without minor ticks.
func fixedTicks(lo, hi, step float64, prec int) plot.Ticker {
	var ts []plot.Tick
	for v := lo; v <= hi+1e-9; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("%.*f", prec, v)})
	}
	return plot.ConstantTicks(ts)
}

// GroupedBars draws any Grouped data as bars (values printed with prec
// decimals). Category and series names pass through the label table.
func GroupedBars(g Grouped, ylabel string, prec int, o Options) (*Figure, error) {
	cats := make([]string, len(g.Categories))
	for i, c := range g.Categories {
		cats[i] = label(o.lang(), c)
	}
	return groupedBars(g, cats, ylabel, prec, o)
}

// groupedBars draws g with categories already shown as cats.
func groupedBars(g Grouped, cats []string, ylabel string, prec int, o Options) (*Figure, error) {
	if err := registerFont(); err != nil {
		return nil, err
	}
	if err := g.check(); err != nil {
		return nil, err
	}
	lang := o.lang()
	groups := make([][]bar, len(g.Categories))
	for i := range g.Categories {
		for j, s := range g.Series {
			groups[i] = append(groups[i], bar{v: s.Values[i], color: setColor(s.Name, j)})
		}
	}
	f := newFigure(o, nil, 600, 360)
	// A narrow figure (the report's one-page summary) prints fewer
	// decimals over thin bars and slants category names that would run
	// into each other, rather than overprinting them.
	slot := float64(f.Width-50) / float64(len(cats)) // less the y axis and margins
	if slot*0.8/float64(len(g.Series)) < 20 {
		prec = min(prec, 1)
	}
	p := barPlot(lang, cats, groups, prec, ylabel)
	slantCrowded(p, cats, slot)
	headroom(p, 0.08)
	f.body = &frame{title: o.title(lang, ""), legend: seriesLegend(lang, g.Series), body: p}
	return f, nil
}

func seriesLegend(lang text.Lang, ss []Series) []legendItem {
	items := make([]legendItem, len(ss))
	for j, s := range ss {
		items[j] = legendItem{name: label(lang, s.Name), color: setColor(s.Name, j)}
	}
	return items
}

// Bounds are one judge's trimmed means T_J(set, k) of the three CuBE answer
// sets per dimension (formulas.md §1), each 0–10; nil where undefined.
type Bounds struct {
	Judge      string
	Dimensions []string
	Zero       []*float64
	RAG        []*float64
	Full       []*float64
}

// BoundsBars draws zero, rag and full side by side per dimension for one
// judge, so one sees where the system sits between its bounds.
func BoundsBars(b Bounds, o Options) (*Figure, error) {
	lang := o.lang()
	g := Grouped{Categories: b.Dimensions, Series: []Series{
		{Name: "zero", Values: b.Zero},
		{Name: "rag", Values: b.RAG},
		{Name: "full", Values: b.Full},
	}}
	if o.Title == "" {
		o.Title = label(lang, "bounds.title")
		if b.Judge != "" {
			o.Title += " · " + judgeName(lang, b.Judge)
		}
	}
	f, err := GroupedBars(g, label(lang, "bounds.y"), 2, o)
	if err != nil {
		return nil, fmt.Errorf("bounds of %q: %w", b.Judge, err)
	}
	fr := f.body.(*frame)
	if f.Width < narrow {
		// Half a page wide: the sets' short names keep the legend on one
		// or two rows, leaving the bars their room.
		for i, key := range []string{"zero.short", "rag.short", "full.short"} {
			fr.legend[i].name = label(lang, key)
		}
	}
	p := fr.body.(*plot.Plot)
	p.Y.Min, p.Y.Max = 0, 11
	step := 2.0
	if f.Height < 200 {
		step = 5 // a short axis: three ticks rather than six overprinted
		// and a name that fits along it (the ticks say 0–10)
		p.Y.Label.Text = label(lang, "bounds.y.short")
	}
	p.Y.Tick.Marker = fixedTicks(0, 10, step, 0)
	return f, nil
}

// narrow is the width below which a bar chart is drawn for half a page.
const narrow = 400

// Estimate is a value with an optional confidence interval; any part may be
// undefined (nil).
type Estimate struct {
	Value, Lo, Hi *float64
}

// JudgeScores are the CuBE scores C_J per judge with their bootstrap 95 %
// intervals and the cross-judge mean (formulas.md §1, "Beyond the paper").
type JudgeScores struct {
	Judges []string
	Scores []Estimate
	Mean   Estimate
}

// CuBEBars draws one bar per judge with its interval as whiskers, and the
// cross-judge mean as a dashed line over a band of its interval.
func CuBEBars(s JudgeScores, o Options) (*Figure, error) {
	if err := registerFont(); err != nil {
		return nil, err
	}
	if len(s.Judges) == 0 {
		return nil, fmt.Errorf("chart: cube bars: %w", ErrNoData)
	}
	if len(s.Scores) != len(s.Judges) {
		return nil, fmt.Errorf("chart: cube bars: %d scores for %d judges", len(s.Scores), len(s.Judges))
	}
	lang := o.lang()
	groups := make([][]bar, len(s.Judges))
	for i, e := range s.Scores {
		groups[i] = []bar{{v: e.Value, lo: e.Lo, hi: e.Hi, color: okabeIto[0]}}
	}
	names := make([]string, len(s.Judges))
	for i, j := range s.Judges {
		names[i] = judgeName(lang, j)
	}
	p := barPlot(lang, names, groups, 1, label(lang, "cube.y"), &meanBand{e: s.Mean})
	p.Add(&meanLine{e: s.Mean})
	f := newFigure(o, nil, 600, 360)
	slantCrowded(p, names, float64(f.Width-50)/float64(len(names)))
	// CuBE scores live on 0–100; keep that frame so judges compare at a glance,
	// widening only for values outside it (flagged elsewhere as a finding).
	p.Y.Min = math.Min(p.Y.Min, 0)
	p.Y.Max = math.Max(p.Y.Max, 100)
	headroom(p, 0.08)
	legend := []legendItem{{name: label(lang, "cube.y"), color: okabeIto[0]}}
	mean := label(lang, "cube.mean") + " " + num(lang, s.Mean.Value, 1)
	if s.Mean.Lo != nil && s.Mean.Hi != nil {
		mean += fmt.Sprintf(" [%.1f, %.1f]", *s.Mean.Lo, *s.Mean.Hi)
	}
	legend = append(legend, legendItem{name: mean, color: okabeIto[5], kind: swatchDashed})
	if s.Mean.Lo != nil && s.Mean.Hi != nil {
		legend = append(legend, legendItem{name: label(lang, "cube.band"), color: color.NRGBA{0xD5, 0x5E, 0x00, 0x2a}})
	}
	if f.Width < narrow {
		// Half a page wide: the axis names the bars, the table beside the
		// chart gives the interval's ends; the legend keeps one row.
		legend = legend[1:]
		legend[0].name = label(lang, "cube.mean") + " " + num(lang, s.Mean.Value, 1)
	}
	f.body = &frame{title: o.title(lang, "cube.title"), legend: legend, body: p}
	return f, nil
}

// meanBand is the interval of the cross-judge mean, drawn behind the bars.
type meanBand struct{ e Estimate }

func (m *meanBand) Plot(c draw.Canvas, p *plot.Plot) {
	if m.e.Lo == nil || m.e.Hi == nil {
		return
	}
	_, ty := p.Transforms(&c)
	band := color.NRGBA{0xD5, 0x5E, 0x00, 0x2a}
	ylo, yhi := ty(*m.e.Lo), ty(*m.e.Hi)
	c.FillPolygon(band, c.ClipPolygonY([]vg.Point{{X: c.Min.X, Y: ylo}, {X: c.Max.X, Y: ylo}, {X: c.Max.X, Y: yhi}, {X: c.Min.X, Y: yhi}}))
}

// meanLine is the cross-judge mean across the whole plot width, over the bars.
type meanLine struct{ e Estimate }

func (m *meanLine) Plot(c draw.Canvas, p *plot.Plot) {
	if m.e.Value == nil {
		return
	}
	_, ty := p.Transforms(&c)
	y := ty(*m.e.Value)
	c.StrokeLine2(draw.LineStyle{Color: okabeIto[5], Width: 1.5, Dashes: []vg.Length{5, 3}}, c.Min.X, y, c.Max.X, y)
}

func (m *meanLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for _, v := range []*float64{m.e.Value, m.e.Lo, m.e.Hi} {
		if v != nil {
			ymin, ymax = math.Min(ymin, *v), math.Max(ymax, *v)
		}
	}
	return
}

// TypeMetrics are CoFE-RAG retrieval metrics per query type (formulas.md §3):
// Types are canonical names (factual, analytical, …), each Series a metric
// (accuracy@k, recall, coverage, hit) with one share in [0, 1] per type.
type TypeMetrics struct {
	Types   []string
	Metrics []Series
}

// QueryTypeBars draws the CoFE-RAG metrics grouped by query type.
func QueryTypeBars(m TypeMetrics, o Options) (*Figure, error) {
	lang := o.lang()
	cats := make([]string, len(m.Types))
	for i, t := range m.Types {
		cats[i] = queryTypeLabel(lang, t)
	}
	if o.Title == "" {
		o.Title = label(lang, "qtype.title")
	}
	f, err := groupedBars(Grouped{Categories: m.Types, Series: m.Metrics}, cats, label(lang, "qtype.y"), 2, o)
	if err != nil {
		return nil, fmt.Errorf("query types: %w", err)
	}
	p := f.body.(*frame).body.(*plot.Plot)
	p.Y.Min, p.Y.Max = 0, 1.1
	p.Y.Tick.Marker = fixedTicks(0, 1, 0.2, 1)
	return f, nil
}
