package chart

import (
	"cmp"
	"cubeworkbench/core/text"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Line is one retriever's metric at each chunk size: Y[i] belongs to X[i];
// nil where undefined.
type Line struct {
	Name string
	X    []float64
	Y    []*float64
}

// Sweep is the CoFE-RAG chunk-size sweep of one metric (formulas.md §3:
// fixed-size chunks of 128, 256, 512 tokens…), one Line per retriever.
type Sweep struct {
	Metric string // accuracy@k, recall, coverage, hit or any name
	Lines  []Line
}

// ChunkSweep draws the metric against chunk size on a log₂ axis with a tick
// at every size measured; a line breaks at undefined points, which are
// marked "n/a" on the baseline.
func ChunkSweep(s Sweep, o Options) (*Figure, error) {
	if err := registerFont(); err != nil {
		return nil, err
	}
	if len(s.Lines) == 0 {
		return nil, fmt.Errorf("chart: chunk sweep: %w", ErrNoData)
	}
	var xs []float64
	for _, l := range s.Lines {
		if len(l.X) != len(l.Y) {
			return nil, fmt.Errorf("chart: chunk sweep: line %q has %d x for %d y", l.Name, len(l.X), len(l.Y))
		}
		for _, x := range l.X {
			if !(x > 0) {
				return nil, fmt.Errorf("chart: chunk sweep: line %q: chunk size %v is not positive", l.Name, x)
			}
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("chart: chunk sweep: %w", ErrNoData)
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	lang := o.lang()
	p := newPlot()
	p.Add(yGrid())
	p.Add(&sweepLines{lines: s.Lines, lang: lang})
	ticks := make([]plot.Tick, len(xs))
	for i, x := range xs {
		ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', -1, 64)}
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	// Half a step of margin on each side in log space, so end points and their
	// labels stay inside.
	lo, hi := xs[0], xs[len(xs)-1]
	pad := math.Pow(2, 0.35)
	if len(xs) > 1 {
		pad = math.Pow(hi/lo, 0.08)
	}
	p.X.Min, p.X.Max = lo/pad, hi*pad
	p.X.Label.Text = label(lang, "sweep.x")
	p.Y.Label.Text = label(lang, s.Metric)
	p.Y.Min, p.Y.Max = 0, 1.05
	p.Y.Tick.Marker = fixedTicks(0, 1, 0.2, 1)
	legend := make([]legendItem, len(s.Lines))
	for j, l := range s.Lines {
		legend[j] = legendItem{name: label(lang, l.Name), color: colorAt(j), kind: swatchLine}
	}
	title := o.title(lang, "sweep.title")
	if o.Title == "" {
		title += " · " + label(lang, s.Metric)
	}
	return newFigure(o, &frame{title: title, legend: legend, body: p}, 560, 360), nil
}

type sweepLines struct {
	lines []Line
	lang  text.Lang
}

func (s *sweepLines) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	vs := textStyle(sizeValue, color.Black)
	vs.XAlign, vs.YAlign = draw.XCenter, draw.YBottom
	ns := textStyle(sizeTick, naText)
	ns.XAlign, ns.YAlign = draw.XCenter, draw.YBottom
	for j, l := range s.lines {
		col := colorAt(j)
		ns.Color = col // whose value is missing
		type pt struct {
			x float64
			y *float64
		}
		pts := make([]pt, len(l.X))
		for i := range l.X {
			pts[i] = pt{l.X[i], l.Y[i]}
		}
		slices.SortFunc(pts, func(a, b pt) int { return cmp.Compare(a.x, b.x) })
		line := draw.LineStyle{Color: col, Width: 1.75}
		var run []vg.Point
		flush := func() {
			if len(run) > 1 {
				c.StrokeLines(line, run)
			}
			run = run[:0]
		}
		for _, q := range pts {
			if q.y == nil {
				flush()
				c.FillText(ns, vg.Point{X: tx(q.x), Y: ty(0) + 2 + vg.Length(j)*9}, na(s.lang))
				continue
			}
			run = append(run, vg.Point{X: tx(q.x), Y: ty(*q.y)})
		}
		flush()
		for _, q := range pts {
			if q.y != nil {
				at := vg.Point{X: tx(q.x), Y: ty(*q.y)}
				c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: 3, Shape: draw.CircleGlyph{}}, at)
			}
		}
	}
}
