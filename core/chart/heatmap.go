package chart

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"cubeworkbench/core/text"
)

// Matrix is a table of values in [−1, 1] with named rows and columns:
// Values[i][j] is row i, column j; nil where undefined (a correlation over
// zero variance, formulas.md §1).
type Matrix struct {
	Rows   []string // judges
	Cols   []string // dimensions
	Values [][]*float64
}

func (m Matrix) check() error {
	if len(m.Rows) == 0 || len(m.Cols) == 0 {
		return fmt.Errorf("chart: heatmap: %w", ErrNoData)
	}
	if len(m.Values) != len(m.Rows) {
		return fmt.Errorf("chart: heatmap: %d value rows for %d row names", len(m.Values), len(m.Rows))
	}
	for i, r := range m.Values {
		if len(r) != len(m.Cols) {
			return fmt.Errorf("chart: heatmap: row %q has %d values for %d columns", m.Rows[i], len(r), len(m.Cols))
		}
	}
	return nil
}

// Heatmap draws the correlation of rank score and judge score per judge ×
// dimension (CuBE Figures 2–4), each cell coloured on a blue–white–red
// diverging map from −1 to 1 and annotated with its value; undefined cells
// are grey with "n/a". Use Options.Title to tell the "all cases" map from
// the "retrieved cases" one.
func Heatmap(m Matrix, o Options) (*Figure, error) {
	if err := registerFont(); err != nil {
		return nil, err
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	lang := o.lang()
	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(-1)
	cmap.SetMax(1)

	p := newPlot()
	p.Add(&cells{m: m, cmap: cmap, lang: lang})
	cols := make([]string, len(m.Cols))
	for j, c := range m.Cols {
		cols[j] = label(lang, c)
	}
	p.NominalX(cols...)
	// First row on top, as in a table.
	rows := make([]plot.Tick, len(m.Rows))
	for i, r := range m.Rows {
		rows[i] = plot.Tick{Value: float64(len(m.Rows) - 1 - i), Label: judgeName(lang, r)}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(rows)
	p.Y.Min, p.Y.Max = -0.5, float64(len(m.Rows))-0.5
	p.X.Tick.Length, p.Y.Tick.Length = 0, 0
	p.X.LineStyle.Width, p.Y.LineStyle.Width = 0, 0

	bar := newPlot()
	bar.Add(&plotter.ColorBar{ColorMap: cmap, Vertical: true})
	bar.HideX()
	bar.Y.Tick.Marker = fixedTicks(-1, 1, 0.5, 1)
	bar.Y.Tick.Length = 3

	w := vg.Length(120 + 90*len(m.Cols))
	h := vg.Length(90 + 36*len(m.Rows))
	return newFigure(o, &frame{
		title:     o.title(lang, "heat.title"),
		body:      p,
		side:      &padded{d: bar, bottom: p.X.Tick.Label.Height("国") + 6},
		sideWidth: 44,
	}, w, h), nil
}

// padded draws d with a margin below, so the colour bar lines up with the
// heatmap's cells rather than with its column labels.
type padded struct {
	d      Drawer
	bottom vg.Length
}

func (p *padded) Draw(c draw.Canvas) { drawSafe(p.d, draw.Crop(c, 0, 0, p.bottom, 0)) }

// cells is the heatmap plotter.
type cells struct {
	m    Matrix
	cmap palette.ColorMap
	lang text.Lang
}

func (h *cells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(len(h.m.Cols)) - 0.5, -0.5, float64(len(h.m.Rows)) - 0.5
}

func (h *cells) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	ts := textStyle(sizeTick, color.Black)
	ts.XAlign, ts.YAlign = draw.XCenter, draw.YCenter
	n := len(h.m.Rows)
	for i, row := range h.m.Values {
		y := float64(n - 1 - i)
		for j, v := range row {
			x := float64(j)
			rect := []vg.Point{
				{X: tx(x - 0.5), Y: ty(y - 0.5)}, {X: tx(x + 0.5), Y: ty(y - 0.5)},
				{X: tx(x + 0.5), Y: ty(y + 0.5)}, {X: tx(x - 0.5), Y: ty(y + 0.5)},
			}
			fill := color.Color(naGrey)
			txt := na(h.lang)
			ts.Color = naText
			if v != nil {
				cv := math.Max(-1, math.Min(1, *v))
				fill, _ = h.cmap.At(cv)
				txt = fmt.Sprintf("%.2f", *v)
				ts.Color = inkOn(fill)
			}
			c.FillPolygon(fill, rect)
			c.StrokeLines(draw.LineStyle{Color: color.White, Width: 1.5}, append(rect, rect[0]))
			c.FillText(ts, vg.Point{X: tx(x), Y: ty(y)}, txt)
		}
	}
}

// inkOn picks black or white text for a fill by its luminance (Rec. 709
// weights on the 8-bit channels), so values stay readable on dark cells.
func inkOn(fill color.Color) color.Color {
	r, g, b, _ := fill.RGBA()
	lum := (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
	if lum < 0.45 {
		return color.White
	}
	return color.Black
}
