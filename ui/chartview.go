package ui

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/chart"
)

// chartView draws a figure at the size it is placed at: each new size
// renders it again, off the UI thread, so its text keeps its point size
// (a figure drawn once and scaled into its slot shrank the forest plot's
// numbers to 6 px on a 1024 screen).
type chartView struct {
	widget.BaseWidget
	sh    shell
	img   *canvas.Image
	min   fyne.Size
	build func(o chart.Options) (*chart.Figure, error) // nil: nothing to draw

	asked    fyne.Size // the size last asked for
	rendered fyne.Size // the size of the image shown (tests)
	gen      int
}

func newChartView(sh shell, min fyne.Size) *chartView {
	v := &chartView{sh: sh, img: canvas.NewImageFromImage(nil), min: min}
	v.img.FillMode = canvas.ImageFillContain
	v.ExtendBaseWidget(v)
	return v
}

func (v *chartView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.img) }

func (v *chartView) MinSize() fyne.Size { return v.min }

func (v *chartView) Resize(s fyne.Size) {
	v.BaseWidget.Resize(s)
	v.render(s)
}

// set shows the figure build makes (nil: none), at the current size.
func (v *chartView) set(build func(o chart.Options) (*chart.Figure, error)) {
	v.build = build
	v.gen++ // a figure still being drawn for the old build is dropped when it lands
	v.asked = fyne.Size{}
	v.img.Image = nil
	v.rendered = fyne.Size{}
	v.Refresh() // a new min size reaches the layout
	v.img.Refresh()
	v.render(v.Size())
}

func (v *chartView) render(s fyne.Size) {
	if v.build == nil || s.Width < 1 || s.Height < 1 || s == v.asked {
		return
	}
	v.asked = s
	v.gen++
	gen, build := v.gen, v.build
	w, h := int(s.Width), int(s.Height)
	go func() {
		var img image.Image
		if fig, err := build(chart.Options{Width: chart.Px(w), Height: chart.Px(h)}); err == nil {
			img = fig.Image()
		}
		v.sh.do(func() {
			if gen != v.gen {
				return
			}
			v.img.Image = img
			v.rendered = s
			v.img.Refresh()
		})
	}()
}
