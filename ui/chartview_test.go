package ui

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2"

	"cubeworkbench/core/chart"
)

// A chart cleared while its last figure is still being drawn stays clear:
// the figure of a comparison finished before another workbook was opened
// must not appear on the new workbook's Compare tab when it lands late.
func TestChartClearedWhileDrawingStaysClear(t *testing.T) {
	queued := make(chan func(), 1)
	sh := shell{do: func(f func()) { queued <- f }}
	v := newChartView(sh, fyne.NewSize(100, 80))
	v.BaseWidget.Resize(fyne.NewSize(100, 80))
	release := make(chan struct{})
	v.set(func(o chart.Options) (*chart.Figure, error) {
		<-release
		return nil, errors.New("drawn late") // the result lands with its size
	})
	v.set(nil) // another workbook opened: nothing to draw
	close(release)
	(<-queued)() // the first drawing's result, on the UI thread
	if v.build != nil || v.img.Image != nil || v.rendered != (fyne.Size{}) {
		t.Errorf("the cleared chart took a late figure (rendered %v)", v.rendered)
	}
}
