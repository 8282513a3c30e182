package chart

import (
	"cubeworkbench/core/glossary"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MFSSFactors are the six MFSS factor keys in the order of formulas.md §2.
var MFSSFactors = []string{"accuracy", "factual", "conciseness", "readability", "coherence", "rouge"}

// RadarSeries is one system's value per axis, each in [0, 1]; nil where
// undefined.
type RadarSeries struct {
	Name   string
	Values []*float64
}

// Radar draws one polygon per series over axes spread clockwise from the top
// (gonum/plot has no radar plotter). An undefined value leaves a gap in its
// polygon (the neighbours are not joined across it, and the polygon is not
// filled) and the legend names the factor as n/a.
func Radar(axes []string, series []RadarSeries, o Options) (*Figure, error) {
	if err := registerFont(); err != nil {
		return nil, err
	}
	if len(axes) < 3 || len(series) == 0 {
		return nil, fmt.Errorf("chart: radar needs ≥3 axes and a series: %w", ErrNoData)
	}
	lang := o.lang()
	names := make([]string, len(axes))
	for k, a := range axes {
		names[k] = label(lang, a)
	}
	legend := make([]legendItem, len(series))
	for j, s := range series {
		if len(s.Values) != len(axes) {
			return nil, fmt.Errorf("chart: radar: series %q has %d values for %d axes", s.Name, len(s.Values), len(axes))
		}
		name := glossary.Name(glossary.SetID, s.Name, lang) // 零上下文回答（下界）, not zero
		var missing []string
		for k, v := range s.Values {
			if v == nil {
				missing = append(missing, names[k])
			}
		}
		if len(missing) > 0 {
			name += fmt.Sprintf(" (%s: %s)", na(lang), strings.Join(missing, ", "))
		}
		legend[j] = legendItem{name: name, color: colorAt(j), kind: swatchLine}
	}
	p := newPlot()
	p.HideAxes()
	p.Add(&radar{axes: names, series: series})
	return newFigure(o, &frame{title: o.title(lang, "radar.title"), legend: legend, body: p}, 480, 420), nil
}

type radar struct {
	axes   []string
	series []RadarSeries
}

func (r *radar) Plot(c draw.Canvas, _ *plot.Plot) {
	ls := textStyle(sizeLabel, color.Black)
	var lw vg.Length
	for _, a := range r.axes {
		lw = max(lw, ls.Width(a))
	}
	lh := ls.Height("国")
	ctr := c.Center()
	rad := min((c.Max.X-c.Min.X)/2-lw-8, (c.Max.Y-c.Min.Y)/2-lh-8)
	if rad <= 0 {
		return
	}
	n := len(r.axes)
	dir := func(k int) (float64, float64) {
		th := math.Pi/2 - 2*math.Pi*float64(k)/float64(n)
		return math.Cos(th), math.Sin(th)
	}
	at := func(k int, v float64) vg.Point {
		dx, dy := dir(k)
		return vg.Point{X: ctr.X + rad*vg.Length(dx*v), Y: ctr.Y + rad*vg.Length(dy*v)}
	}
	grid := draw.LineStyle{Color: gridGrey, Width: 0.75}
	for ring := 1; ring <= 5; ring++ {
		v := float64(ring) / 5
		pts := make([]vg.Point, 0, n+1)
		for k := 0; k <= n; k++ {
			pts = append(pts, at(k%n, v))
		}
		c.StrokeLines(grid, pts)
	}
	for k, a := range r.axes {
		c.StrokeLines(grid, []vg.Point{ctr, at(k, 1)})
		dx, dy := dir(k)
		sty := ls
		// Anchor the label on the side facing the centre, so it grows away
		// from the chart whatever the direction.
		// (XLeft = 0, XRight = −1; YBottom = 0, YTop = −1.)
		sty.XAlign = draw.XAlignment(-0.5 + 0.5*clampUnit(dx*2))
		sty.YAlign = draw.YAlignment(-0.5 + 0.5*clampUnit(dy*2))
		pt := at(k, 1)
		pt.X += vg.Length(dx * 6)
		pt.Y += vg.Length(dy * 6)
		c.FillText(sty, pt, a)
	}
	for j, s := range r.series {
		col := colorAt(j)
		pts := make([]vg.Point, n)
		all := true
		for k, v := range s.Values {
			if v == nil {
				all = false
				continue
			}
			pts[k] = at(k, math.Max(0, math.Min(1, *v)))
		}
		if all {
			fill := color.NRGBA{col.R, col.G, col.B, 0x30}
			c.FillPolygon(fill, pts)
		}
		line := draw.LineStyle{Color: col, Width: 1.75}
		for k := range n {
			k2 := (k + 1) % n
			if s.Values[k] != nil && s.Values[k2] != nil {
				c.StrokeLines(line, []vg.Point{pts[k], pts[k2]})
			}
		}
		for k, v := range s.Values {
			if v != nil {
				c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: 2.5, Shape: draw.CircleGlyph{}}, pts[k])
			}
		}
	}
	// Ring values last, on a light backdrop, so series lines do not hide them.
	rs := textStyle(sizeValue, naText)
	rs.XAlign, rs.YAlign = draw.XLeft, draw.YCenter
	back := color.NRGBA{0xff, 0xff, 0xff, 0xc0}
	for ring := 1; ring <= 5; ring++ {
		v := float64(ring) / 5
		txt := fmt.Sprintf("%.1f", v)
		pt := vg.Point{X: at(0, v).X + 3, Y: at(0, v).Y}
		w, h := rs.Width(txt), rs.Height(txt)
		c.FillPolygon(back, []vg.Point{{X: pt.X - 1, Y: pt.Y - h/2}, {X: pt.X + w + 1, Y: pt.Y - h/2}, {X: pt.X + w + 1, Y: pt.Y + h/2}, {X: pt.X - 1, Y: pt.Y + h/2}})
		c.FillText(rs, pt, txt)
	}
}

func clampUnit(v float64) float64 { return math.Max(-1, math.Min(1, v)) }
