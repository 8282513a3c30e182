package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"cubeworkbench/assets/fonts"

	"cubeworkbench/core/result"
)

// cjkTheme is Fyne's default theme drawing every text style with the
// embedded CJK font (the same bytes core/chart gives gonum/plot), so Chinese
// renders on machines with no Chinese fonts installed; monospace too, since
// Fyne's has no Han glyphs. It is always the light variant: the charts and
// the Excel report are drawn on white, and they sit beside the tables.
type cjkTheme struct {
	fyne.Theme
	font fyne.Resource
}

func newTheme() fyne.Theme {
	return &cjkTheme{Theme: theme.DefaultTheme(), font: fyne.NewStaticResource(fonts.File, fonts.CJK())}
}

func (t *cjkTheme) Font(fyne.TextStyle) fyne.Resource { return t.font }

func (t *cjkTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, theme.VariantLight)
}

// Verdict colours: green deployable, amber needs work, red not ready.
var (
	colorGood    = color.NRGBA{R: 0x2e, G: 0x7d, B: 0x32, A: 0xff}
	colorWarn    = color.NRGBA{R: 0xe6, G: 0x8a, B: 0x00, A: 0xff}
	colorBad     = color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}
	colorNeutral = color.NRGBA{R: 0x60, G: 0x60, B: 0x60, A: 0xff}
)

func verdictColor(code result.VerdictCode) color.Color {
	switch code {
	case result.Deployable:
		return colorGood
	case result.NeedsWork:
		return colorWarn
	case result.NotReady:
		return colorBad
	}
	return colorNeutral
}
