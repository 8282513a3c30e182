package chart

import (
	"fmt"
	"image/color"
	"sync"

	"cubeworkbench/assets/fonts"

	"golang.org/x/image/font/opentype"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// Typeface is the name under which the embedded face is registered in
// gonum/plot's font.DefaultCache.
const Typeface font.Typeface = "NotoSansCJKSC"

// handler lays out and draws every text of this package through the default
// cache, which holds the embedded face once registerFont has run.
var handler text.Handler = text.Plain{Fonts: font.DefaultCache}

// registerFont parses the embedded font once and adds it to gonum/plot's
// default cache. Parsing is lazy in sfnt, so this is cheap even for a 15 MB file.
var registerFont = sync.OnceValue(func() error {
	f, err := opentype.Parse(fonts.Formal())
	if err != nil {
		return fmt.Errorf("chart: parse embedded font %s: %w", fonts.FormalFile, err)
	}
	font.DefaultCache.Add(font.Collection{{Font: font.Font{Typeface: Typeface}, Face: f}})
	return nil
})

// Font sizes, in points, shared by every chart so figures placed side by side
// in a report look alike.
const (
	sizeTitle  = vg.Length(13)
	sizeLabel  = vg.Length(10)
	sizeTick   = vg.Length(9)
	sizeLegend = vg.Length(9)
	sizeValue  = vg.Length(7.5)
)

// textStyle returns a style drawing with the embedded face.
func textStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{
		Color:   c,
		Font:    font.Font{Typeface: Typeface, Size: size},
		Handler: handler,
	}
}

// newPlot returns a plot whose every text style uses the embedded face. Only
// font and handler are replaced, so gonum's alignments and rotations stay. The
// title is left empty: frames draw titles and legends outside the data area.
func newPlot() *plot.Plot {
	p := plot.New()
	p.TextHandler = handler
	use := func(s *text.Style, size vg.Length) {
		s.Font = font.Font{Typeface: Typeface, Size: size}
		s.Handler = handler
	}
	use(&p.Title.TextStyle, sizeTitle)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		use(&ax.Label.TextStyle, sizeLabel)
		use(&ax.Tick.Label, sizeTick)
		ax.Tick.Length = vg.Points(4)
		ax.Padding = 0
	}
	use(&p.Legend.TextStyle, sizeLegend)
	return p
}
