package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestGridFreezesIDAndQuestion: scrolled to its last column (many judges
// at 1024 px), the question grid still draws the id and question columns.
func TestGridFreezesIDAndQuestion(t *testing.T) {
	a := test.NewTempApp(t)
	useLanguage("zh")
	g := newQuestionGrid(shell{app: a}, nil)
	win := test.NewWindow(g.object())
	defer win.Close()
	win.Resize(fyne.NewSize(1024, 640))
	g.refreshModel(newGridModel(synthResult(t, 200, 6)))
	win.Canvas().Refresh(g.object())
	_, cols := g.table.Length()
	seen := map[int]bool{}
	update := g.table.UpdateCell
	g.table.UpdateCell = func(id widget.TableCellID, o fyne.CanvasObject) {
		seen[id.Col] = true
		update(id, o)
	}
	g.table.ScrollTo(widget.TableCellID{Row: 0, Col: cols - 1})
	g.table.Refresh()
	win.Canvas().Refresh(g.object())
	if !seen[cols-1] {
		t.Fatalf("the last column (%d) was not drawn after scrolling to it: %v", cols-1, seen)
	}
	for c := 0; c < 2; c++ {
		if !seen[c] {
			t.Errorf("column %d (%s) not drawn once scrolled to the last column", c, g.rawTitle(g.model.cols[c]))
		}
	}
}
