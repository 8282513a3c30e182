package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestFileDialogPlacesInChinese: the file dialog's places (Home, Computer,
// Documents …), which Fyne names in English whatever the locale, read in
// Chinese in the Chinese window.
func TestFileDialogPlacesInChinese(t *testing.T) {
	w, _ := newTestWindow(t, "zh", nil)
	w.win.Resize(fyne.NewSize(1366, 768))
	test.Tap(w.open.openFile)
	top := w.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no file dialog")
	}
	var lists []*widget.List
	var find func(o fyne.CanvasObject)
	find = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.PopUp:
			find(v.Content)
		case *fyne.Container:
			for _, c := range v.Objects {
				find(c)
			}
		case *container.Split:
			find(v.Leading)
			find(v.Trailing)
		case *widget.List:
			lists = append(lists, v)
		}
	}
	find(top)
	shown := 0
	for _, l := range lists {
		for id := 0; id < l.Length(); id++ {
			item := l.CreateItem()
			l.UpdateItem(id, item)
			for _, s := range texts(item) {
				shown++
				if _, english := placeNames[s]; english {
					t.Errorf("the file dialog shows the place %q in the Chinese window", s)
				}
			}
		}
	}
	if shown == 0 {
		t.Fatal("found no places in the file dialog")
	}
}
