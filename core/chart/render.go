package chart

import (
	"errors"

	"bytes"
	"fmt"
	"gonum.org/v1/plot"
	"image"
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"cubeworkbench/core/text"
)

// DPI is the resolution PNG and Image render at unless Options.DPI says
// otherwise: 96 dots per inch, so 1 px = 0.75 pt.
const DPI = 96

// Px converts a size in pixels at DPI into a vg.Length.
func Px(n int) vg.Length { return vg.Length(n) * vg.Inch / DPI }

// Drawer is anything that draws itself onto a canvas: a *plot.Plot or one of
// this package's figures (a plot with its title and legend, a grid of plots).
type Drawer interface {
	Draw(c draw.Canvas)
}

// Options are what every chart function takes besides its data.
type Options struct {
	Lang   text.Lang // LangZH (default) or LangEN
	Title  string    // replaces the chart's default title; "-" draws none
	Width  vg.Length // 0: the chart's default
	Height vg.Length // 0: the chart's default
	DPI    int       // raster resolution; 0: DPI
}

func (o Options) title(lang text.Lang, key string) string {
	switch o.Title {
	case "":
		return label(lang, key)
	case "-":
		return ""
	}
	return o.Title
}

// lang is the language drawn in: Chinese unless Options.Lang says
// otherwise.
func (o Options) lang() text.Lang {
	if o.Lang == "" {
		return LangZH
	}
	return text.LangOf(string(o.Lang))
}

// Figure is a chart ready to render at its intended size.
type Figure struct {
	Width, Height vg.Length
	DPI           int
	body          Drawer
}

func newFigure(o Options, body Drawer, w, h vg.Length) *Figure {
	f := &Figure{Width: o.Width, Height: o.Height, DPI: o.DPI, body: body}
	if f.Width <= 0 {
		f.Width = w
	}
	if f.Height <= 0 {
		f.Height = h
	}
	if f.DPI <= 0 {
		f.DPI = DPI
	}
	return f
}

// Draw draws the figure onto c (at c's size, not the figure's).
func (f *Figure) Draw(c draw.Canvas) { f.body.Draw(c) }

// PNG renders the figure at its size and resolution.
func (f *Figure) PNG() ([]byte, error) { return pngAt(f.body, f.Width, f.Height, f.DPI) }

// SVG renders the figure at its size.
func (f *Figure) SVG() ([]byte, error) { return SVG(f.body, f.Width, f.Height) }

// Image renders the figure at its size and resolution.
func (f *Figure) Image() image.Image { return imageAt(f.body, f.Width, f.Height, f.DPI) }

// PNG renders d at w × h and DPI as PNG bytes.
func PNG(d Drawer, w, h vg.Length) ([]byte, error) { return pngAt(d, w, h, DPI) }

// Image renders d at w × h and DPI on a white background.
func Image(d Drawer, w, h vg.Length) image.Image { return imageAt(d, w, h, DPI) }

// SVG renders d at w × h as SVG. Text names the font family "LXGW WenKai"
// without embedding the 15 MB face, so a viewer lacking it substitutes its
// own CJK font.
func SVG(d Drawer, w, h vg.Length) ([]byte, error) {
	if err := registerFont(); err != nil {
		return nil, err
	}
	c := vgsvg.New(w, h)
	d.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: write svg: %w", err)
	}
	return buf.Bytes(), nil
}

func canvasAt(d Drawer, w, h vg.Length, dpi int) *vgimg.Canvas {
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	d.Draw(draw.New(c))
	return c
}

func imageAt(d Drawer, w, h vg.Length, dpi int) image.Image {
	// The font is registered by every constructor; a bare *plot.Plot passed
	// in by a caller may not have gone through one.
	_ = registerFont()
	return canvasAt(d, w, h, dpi).Image()
}

func pngAt(d Drawer, w, h vg.Length, dpi int) ([]byte, error) {
	if err := registerFont(); err != nil {
		return nil, err
	}
	c := canvasAt(d, w, h, dpi)
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// ErrNoData is returned when a chart is given nothing to draw.
var ErrNoData = errors.New("no data to draw")

// plotterFunc adapts a function to plot.Plotter.
type plotterFunc func(c draw.Canvas, p *plot.Plot)

func (f plotterFunc) Plot(c draw.Canvas, p *plot.Plot) { f(c, p) }
