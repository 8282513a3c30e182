package chart

import (
	"image/color"
	"math"
	"strings"
	"sync/atomic"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Colours: the Okabe–Ito palette, distinguishable with the common colour
// vision deficiencies and in greyscale print.
var okabeIto = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0xF0, 0xE4, 0x42, 0xff}, // yellow
	{0x00, 0x00, 0x00, 0xff}, // black
}

func colorAt(i int) color.RGBA { return okabeIto[i%len(okabeIto)] }

// setColor keeps the three CuBE answer sets in the same colour in every
// figure: zero grey, rag blue, full green.
func setColor(set string, i int) color.RGBA {
	switch set {
	case "zero":
		return color.RGBA{0x99, 0x99, 0x99, 0xff}
	case "rag":
		return okabeIto[0]
	case "full":
		return okabeIto[2]
	}
	return colorAt(i)
}

var (
	gridGrey = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	naGrey   = color.RGBA{0xbb, 0xbb, 0xbb, 0xff}
	naText   = color.RGBA{0x55, 0x55, 0x55, 0xff}
)

// swatch is how a legend entry is drawn.
type swatch int

const (
	swatchBox swatch = iota
	swatchLine
	swatchDashed
)

type legendItem struct {
	name  string
	color color.Color
	kind  swatch
}

// frame lays out a figure: the title on top, a horizontal legend under it,
// the body below and an optional side panel (a colour bar) on the right.
// Drawing the legend outside the data area keeps it off bars and lines,
// which gonum's own legend (drawn inside the data area) does not.
type frame struct {
	title     string
	legend    []legendItem
	body      Drawer
	side      Drawer
	sideWidth vg.Length
}

const margin = vg.Length(6)

func (f *frame) Draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, margin, -margin, margin, -margin)
	if f.title != "" {
		sty, title := fitTitle(f.title, c.Max.X-c.Min.X)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y}, title)
		c.Max.Y -= sty.Height(title) + 4
	}
	if len(f.legend) > 0 && f.legendLeavesRoom(c) {
		c.Max.Y -= f.drawLegend(c) + 4
	}
	if f.side != nil {
		sc := c
		sc.Min.X = c.Max.X - f.sideWidth
		drawSafe(f.side, sc)
		c.Max.X -= f.sideWidth + 4
	}
	drawSafe(f.body, c)
}

// legendLeavesRoom says whether the body keeps legendKeepsData of plot
// height once the legend is drawn above it. A small figure (the report's
// one-page summary, in English with the judges' longer names) keeps a
// readable plot and loses the legend rather than showing "too small" or a
// strip of bars; the title and the tables beside it say what the marks
// are.
func (f *frame) legendLeavesRoom(c draw.Canvas) bool {
	p, ok := f.body.(*plot.Plot)
	if !ok {
		return true
	}
	_, _, h := f.legendRows(c.Max.X - c.Min.X)
	c.Max.Y -= h + 4
	if f.side != nil {
		c.Max.X -= f.sideWidth + 4
	}
	d := p.DataCanvas(c)
	return d.Max.Y-d.Min.Y >= legendKeepsData || !fits(p, draw.Crop(c, 0, 0, 0, h+4))
}

// legendKeepsData is the plot height, in points, a legend must leave: a
// plot squeezed under its legend to a strip a few points high cannot be
// read at all, while without the legend it can.
const legendKeepsData = vg.Length(40)

// fitTitle fits a title into width: at the title size when it fits, else
// smaller down to the label size, else broken into lines at that size (at
// a space when there is one near, else between characters) — a narrow
// figure, such as the report's one-page summary, never cuts its title.
func fitTitle(title string, width vg.Length) (text.Style, string) {
	for size := sizeTitle; size >= sizeLabel; size-- {
		if sty := textStyle(size, color.Black); sty.Width(title) <= width {
			return sty, title
		}
	}
	sty := textStyle(sizeLabel, color.Black)
	var lines []string
	line := []rune{}
	for _, r := range title {
		next := append(line, r)
		if len(line) > 0 && sty.Width(string(next)) > width {
			cut := len(line)
			for i := len(line) - 1; i > len(line)/2; i-- { // prefer a space in the second half
				if line[i] == ' ' {
					cut = i
					break
				}
			}
			lines = append(lines, strings.TrimSpace(string(line[:cut])))
			line = append([]rune{}, []rune(strings.TrimLeft(string(line[cut:]), " "))...)
			next = append(line, r)
		}
		line = next
	}
	lines = append(lines, string(line))
	return sty, strings.Join(lines, "\n")
}

// minData is the smallest data area, in points, a plot is drawn into.
// gonum/plot computes NaN coordinates when axes and labels leave less than
// nothing, and its rasterizer then never returns; a figure rendered too
// small says so instead.
const minData = vg.Length(8)

// fits reports whether p drawn on c keeps a data area of at least minData
// each way (false for NaN sizes too).
func fits(p *plot.Plot, c draw.Canvas) bool {
	d := p.DataCanvas(c)
	return d.Max.X-d.Min.X >= minData && d.Max.Y-d.Min.Y >= minData
}

func drawSafe(d Drawer, c draw.Canvas) {
	if p, ok := d.(*plot.Plot); ok && !fits(p, c) {
		tooSmall(c)
		return
	}
	d.Draw(c)
}

// tooSmallDrawn counts the figures drawn as "too small" (a test reads it).
var tooSmallDrawn atomic.Int64

// tooSmall marks a canvas too small to hold its chart.
func tooSmall(c draw.Canvas) {
	tooSmallDrawn.Add(1)
	ts := textStyle(sizeValue, naText)
	ts.XAlign, ts.YAlign = draw.XCenter, draw.YCenter
	c.FillText(ts, c.Center(), "图幅过小 too small")
}

// legendRows lays the legend's entries out in rows within avail: the
// entries of each row, each entry's width and the height of all rows.
func (f *frame) legendRows(avail vg.Length) (rows [][]int, widths []vg.Length, height vg.Length) {
	sty := textStyle(sizeLegend, color.Black)
	widths = make([]vg.Length, len(f.legend))
	for i, it := range f.legend {
		widths[i] = legendSwatch + legendGap + sty.Width(it.name)
	}
	var cur []int
	var w vg.Length
	for i := range f.legend {
		if len(cur) > 0 && w+legendSpace+widths[i] > avail {
			rows = append(rows, cur)
			cur, w = nil, 0
		}
		if len(cur) > 0 {
			w += legendSpace
		}
		cur = append(cur, i)
		w += widths[i]
	}
	rows = append(rows, cur)
	return rows, widths, legendRowHeight() * vg.Length(len(rows))
}

// The legend's swatch, the gap after it and the space between entries.
const legendSwatch, legendGap, legendSpace = vg.Length(14), vg.Length(4), vg.Length(14)

func legendRowHeight() vg.Length { return textStyle(sizeLegend, color.Black).Height("国Ag") + 3 }

// drawLegend draws the entries in centred rows under c's top edge and
// returns the height used.
func (f *frame) drawLegend(c draw.Canvas) vg.Length {
	sty := textStyle(sizeLegend, color.Black)
	sty.YAlign = draw.YCenter
	const sw, gap, space = legendSwatch, legendGap, legendSpace
	rowH := legendRowHeight()
	rows, widths, _ := f.legendRows(c.Max.X - c.Min.X)
	y := c.Max.Y - rowH/2
	for _, row := range rows {
		var rw vg.Length
		for k, i := range row {
			if k > 0 {
				rw += space
			}
			rw += widths[i]
		}
		x := c.Center().X - rw/2
		for _, i := range row {
			it := f.legend[i]
			drawSwatch(c, it, x, y, sw)
			c.FillText(sty, vg.Point{X: x + sw + gap, Y: y}, it.name)
			x += widths[i] + space
		}
		y -= rowH
	}
	return rowH * vg.Length(len(rows))
}

func drawSwatch(c draw.Canvas, it legendItem, x, y, w vg.Length) {
	switch it.kind {
	case swatchBox:
		h := vg.Length(8)
		c.FillPolygon(it.color, []vg.Point{{X: x + 2, Y: y - h/2}, {X: x + w - 2, Y: y - h/2}, {X: x + w - 2, Y: y + h/2}, {X: x + 2, Y: y + h/2}})
	default:
		ls := draw.LineStyle{Color: it.color, Width: 1.5}
		if it.kind == swatchDashed {
			ls.Dashes = []vg.Length{3, 2}
		}
		c.StrokeLine2(ls, x, y, x+w, y)
		if it.kind == swatchLine {
			c.DrawGlyph(draw.GlyphStyle{Color: it.color, Radius: 2.5, Shape: draw.CircleGlyph{}}, vg.Point{X: x + w/2, Y: y})
		}
	}
}

// grid draws plots in rows × cols tiles with a header over each column and a
// rotated header left of each row (the histogram grid: judges × dimensions).
type grid struct {
	plots    [][]*plot.Plot
	rowHeads []string
	colHeads []string
}

func (g *grid) Draw(c draw.Canvas) {
	hs := textStyle(sizeLabel, color.Black)
	hs.XAlign, hs.YAlign = draw.XCenter, draw.YTop
	top := hs.Height("国Ag") + 4
	rs := hs
	rs.Rotation = math.Pi / 2
	left := top
	body := draw.Crop(c, left, 0, 0, -top)
	rows, cols := len(g.plots), len(g.colHeads)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: 8, PadY: 8}
	if body.Max.X-body.Min.X < vg.Length(cols)*(minData+tiles.PadX) || body.Max.Y-body.Min.Y < vg.Length(rows)*(minData+tiles.PadY) {
		tooSmall(c)
		return
	}
	cans := plot.Align(g.plots, tiles, body)
	for i := range g.plots {
		for j, p := range g.plots[i] {
			if p != nil && !fits(p, cans[i][j]) {
				tooSmall(c)
				return
			}
		}
	}
	for i := range g.plots {
		for j, p := range g.plots[i] {
			if p != nil {
				p.Draw(cans[i][j])
			}
		}
	}
	for j, h := range g.colHeads {
		dc := g.plots[0][j].DataCanvas(cans[0][j])
		c.FillText(hs, vg.Point{X: dc.Center().X, Y: c.Max.Y}, h)
	}
	for i, h := range g.rowHeads {
		dc := g.plots[i][0].DataCanvas(cans[i][0])
		c.FillText(rs, vg.Point{X: c.Min.X, Y: dc.Center().Y}, h)
	}
}
