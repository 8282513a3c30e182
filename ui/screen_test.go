package ui

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestSmallScreens: at 1024×640 and 1366×768 the window's content fits
// (its minimum size is within the window on every tab, before and after
// an evaluation, in both languages), so nothing is clipped and the window
// never has to grow past the screen; the window's own size stays put.
func TestSmallScreens(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1024, Height: 640}, {Width: 1366, Height: 768}} {
		for _, lang := range []string{"zh", "en"} {
			t.Run(fmt.Sprintf("%vx%v/%s", size.Width, size.Height, lang), func(t *testing.T) {
				w, loop := newTestWindow(t, lang, nil)
				w.win.Resize(size)
				check := func(when string) {
					t.Helper()
					for i, item := range w.tabs.Items {
						w.tabs.SelectIndex(i)
						m := item.Content.MinSize()
						if m.Width <= size.Width && m.Height <= size.Height {
							continue
						}
						t.Errorf("%s: tab %q needs %v×%v, the window is %v×%v", when, item.Text, m.Width, m.Height, size.Width, size.Height)
					}
					if got := w.win.Canvas().Size(); got.Width > size.Width || got.Height > size.Height {
						t.Errorf("%s: the window grew to %v", when, got)
					}
				}
				check("empty")
				path, err := w.writeSample()
				if err != nil {
					t.Fatal(err)
				}
				w.loadWorkbook(path, false)
				loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil })
				check("opened")
				w.tabs.Select(w.eval.item)
				test.Tap(w.eval.start)
				loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running && w.index != nil })
				check("evaluated")
			})
		}
	}
}

// TestFitWithin: the opening size shrinks to the screen's work area in
// each direction separately, and never grows past the preferred size.
func TestFitWithin(t *testing.T) {
	cases := []struct{ room, want fyne.Size }{
		{fyne.NewSize(1024, 640-48), fyne.NewSize(1024, 592)},
		{fyne.NewSize(1366, 768-48), fyne.NewSize(1280, 720)},
		{fyne.NewSize(1920, 1080), preferredSize},
	}
	for _, c := range cases {
		if got := fitWithin(preferredSize, c.room); got != c.want {
			t.Errorf("fitWithin(%v) = %v, want %v", c.room, got, c.want)
		}
	}
}
