package chart

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"cubeworkbench/core/text"
)

// Verdicts of a ForestRow (core/compare's codes, copied so that charts do
// not depend on the comparison package).
const (
	ForestBetter    = "better"
	ForestNone      = "none"
	ForestWorse     = "worse"
	ForestUndefined = "undefined"
)

// ForestRow is one difference B − A with its 95 % interval; nil parts are
// undefined and the row shows "n/a" (never a zero).
type ForestRow struct {
	Label   string
	Diff    *float64
	Lo, Hi  *float64
	Verdict string // ForestBetter | ForestNone | ForestWorse | ForestUndefined
}

// Forest is a before/after comparison's differences, first row on top.
type Forest struct {
	Rows   []ForestRow
	XLabel string // "" is "Δ (B − A)"
}

// forestColor: better green, worse vermillion, no detectable difference
// grey (Okabe–Ito, as every chart).
func forestColor(verdict string) color.Color {
	switch verdict {
	case ForestBetter:
		return okabeIto[2]
	case ForestWorse:
		return okabeIto[5]
	}
	return color.RGBA{0x70, 0x70, 0x70, 0xff}
}

// forest plots the rows at y = n−1 … 0 (first on top): a line over the
// interval, a dot at the difference, the value printed to its right.
type forest struct {
	rows []ForestRow
	lang text.Lang
}

func (f *forest) y(i int) float64 { return float64(len(f.rows) - 1 - i) }

func (f *forest) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = 0, 0 // the zero line is always in view
	for _, r := range f.rows {
		for _, v := range []*float64{r.Diff, r.Lo, r.Hi} {
			if v != nil {
				xmin, xmax = math.Min(xmin, *v), math.Max(xmax, *v)
			}
		}
	}
	if xmin == xmax {
		xmin, xmax = -1, 1
	}
	pad := (xmax - xmin) * 0.08
	return xmin - pad, xmax + pad, -0.6, float64(len(f.rows)) - 0.4
}

func (f *forest) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	zero := draw.LineStyle{Color: color.Black, Width: 0.8, Dashes: []vg.Length{4, 3}}
	c.StrokeLines(zero, c.ClipLinesX([]vg.Point{{X: tx(0), Y: c.Min.Y}, {X: tx(0), Y: c.Max.Y}})...)
	// The numbers at the tick size (12 px at 96 dpi), above their interval,
	// centred on the point: never on the whiskers or the zero line.
	vs := textStyle(forestText, color.Black)
	vs.XAlign, vs.YAlign = draw.XLeft, draw.YBottom
	ns := textStyle(sizeTick, naText)
	ns.XAlign, ns.YAlign = draw.XCenter, draw.YCenter
	for i, r := range f.rows {
		y := ty(f.y(i))
		if r.Diff == nil {
			c.FillText(ns, vg.Point{X: tx(0) + ns.Width(na(f.lang))/2 + 4, Y: y}, na(f.lang))
			continue
		}
		col := forestColor(r.Verdict)
		cap := vg.Length(4)
		if r.Lo != nil && r.Hi != nil {
			ls := draw.LineStyle{Color: col, Width: 2}
			xl, xh := tx(*r.Lo), tx(*r.Hi)
			c.StrokeLines(ls, c.ClipLinesX(
				[]vg.Point{{X: xl, Y: y}, {X: xh, Y: y}},
				[]vg.Point{{X: xl, Y: y - cap}, {X: xl, Y: y + cap}},
				[]vg.Point{{X: xh, Y: y - cap}, {X: xh, Y: y + cap}})...)
		}
		c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: 3.5, Shape: draw.CircleGlyph{}}, vg.Point{X: tx(*r.Diff), Y: y})
		text := forestValue(r)
		w := vs.Width(text)
		x := tx(*r.Diff) - w/2
		x = max(c.Min.X, min(x, c.Max.X-w))
		c.FillText(vs, vg.Point{X: x, Y: y + cap + 1}, text)
	}
}

// forestText is the size of the forest plot's numbers: the tick size, so
// they read as well as the axis (12 px at 96 dpi, ui and chart tests).
const forestText = sizeTick

// forestValue is "+15.2 [8.4, 22.3]".
func forestValue(r ForestRow) string {
	s := fmt.Sprintf("%+.1f", *r.Diff)
	if math.Round(*r.Diff*10) == 0 {
		s = "0.0"
	}
	if r.Lo != nil && r.Hi != nil {
		s += fmt.Sprintf(" [%.1f, %.1f]", *r.Lo, *r.Hi)
	}
	return s
}

// ForestPlot draws the differences of a comparison with their paired 95 %
// intervals, one row each, against a dashed line at 0: an interval clear
// of the line is a detectable change (green better, vermillion worse),
// one across it grey.
func ForestPlot(fo Forest, o Options) (*Figure, error) {
	if err := registerFont(); err != nil {
		return nil, err
	}
	if len(fo.Rows) == 0 {
		return nil, fmt.Errorf("chart: forest: %w", ErrNoData)
	}
	lang := o.lang()
	p := newPlot()
	fp := &forest{rows: fo.Rows, lang: lang}
	p.Add(xGrid(), fp)
	labels := make([]string, len(fo.Rows))
	for i, r := range fo.Rows {
		labels[len(fo.Rows)-1-i] = label(lang, r.Label)
	}
	p.NominalY(labels...)
	p.Y.Tick.Length = 0
	p.X.Label.Text = fo.XLabel
	if p.X.Label.Text == "" {
		p.X.Label.Text = forestLabel(lang, "forest.x")
	}
	legend := []legendItem{
		{name: forestLabel(lang, "forest.better"), color: forestColor(ForestBetter), kind: swatchLine},
		{name: forestLabel(lang, "forest.none"), color: forestColor(ForestNone), kind: swatchLine},
		{name: forestLabel(lang, "forest.worse"), color: forestColor(ForestWorse), kind: swatchLine},
	}
	h := vg.Length(ForestHeight(len(fo.Rows)))
	return newFigure(o, &frame{title: forestTitle(o, lang), legend: legend, body: p}, 600, h), nil
}

// xGrid draws light vertical lines at the major x ticks.
func xGrid() plot.Plotter {
	return plotterFunc(func(c draw.Canvas, p *plot.Plot) {
		tx, _ := p.Transforms(&c)
		ls := draw.LineStyle{Color: gridGrey, Width: 0.5}
		for _, t := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
			if t.IsMinor() || t.Value < p.X.Min || t.Value > p.X.Max {
				continue
			}
			x := tx(t.Value)
			c.StrokeLine2(ls, x, c.Min.Y, x, c.Max.Y)
		}
	})
}

// forestLabels are the forest plot's captions (kept here, beside the one
// chart that uses them).
var forestLabels = map[string]text.Text{
	"forest.title":  text.New("版本对比：差异及其配对 95% 区间", "Before and after: differences with paired 95% intervals"),
	"forest.x":      text.New("差异 Δ（B − A）", "Difference Δ (B − A)"),
	"forest.better": text.New("明显更好", "clearly better"),
	"forest.none":   text.New("没有可检测的差异", "no detectable difference"),
	"forest.worse":  text.New("明显更差", "clearly worse"),
}

func forestLabel(lang text.Lang, key string) string {
	if b, ok := forestLabels[key]; ok {
		return b.In(drawn(lang))
	}
	return label(lang, key)
}

func forestTitle(o Options, lang text.Lang) string {
	switch o.Title {
	case "":
		return forestLabel(lang, "forest.title")
	case "-":
		return ""
	}
	return o.Title
}

// ForestHeight is the forest plot's natural height in points for n rows:
// the height at which each row's numbers clear the next row.
func ForestHeight(n int) float64 { return float64(90 + 32*n) }
