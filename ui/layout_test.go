package ui

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"cubeworkbench/core/profile"
	"cubeworkbench/internal/fakeai"
)

// onScreen fails when o, as laid out, reaches past the window's canvas:
// off to the right or below the bottom (where nothing scrolls it back).
func onScreen(t *testing.T, w *Window, o fyne.CanvasObject, what string) {
	t.Helper()
	within(t, w, o, what, true)
}

// within is onScreen, and with below false only across: a row further
// down a scrolling list may be below the fold, never off to the right.
func within(t *testing.T, w *Window, o fyne.CanvasObject, what string, below bool) {
	t.Helper()
	c := w.win.Canvas()
	c.Content().Refresh()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	size, win := o.Size(), c.Size()
	if !o.Visible() || size.Width <= 0 || size.Height <= 0 {
		t.Errorf("%s: not shown (size %v)", what, size)
		return
	}
	if pos.X < 0 || pos.Y < 0 || pos.X+size.Width > win.Width+1 || below && pos.Y+size.Height > win.Height+1 {
		t.Errorf("%s: at %v size %v, past the %v window", what, pos, size, win)
	}
}

// TestFitsSmallScreen: at 1024×640, in both languages, what an action
// shows is on screen where it was taken: after comparing, the regressions
// list and the delta table's verdict column; the Test connection result;
// every progress bar of a run with two offline judges and a paid one.
func TestFitsSmallScreen(t *testing.T) {
	size := fyne.NewSize(1024, 640)
	for _, lang := range []string{"zh", "en"} {
		t.Run(lang, func(t *testing.T) {
			w, loop := newTestWindow(t, lang, lexicalProfile())
			w.win.Resize(size)
			w.eval.offline.SetChecked(true)
			evaluateAndCompare(t, w, loop)
			ct := compareTabOf(t, w)
			w.tabs.Select(ct.item)
			if m := w.win.Content().MinSize(); m.Width > size.Width || m.Height > size.Height {
				t.Errorf("after comparing, the window needs %v, wider or taller than %v", m, size)
			}
			onScreen(t, w, ct.regList, "the regressions list")
			// The forest plot is drawn at the size it is shown at, not
			// scaled: its numbers keep their 12 px.
			loop.runUntil(t, time.Minute, "the forest plot", func() bool { return ct.forest.rendered == ct.forest.Size() })
			if b := ct.forest.img.Image.Bounds(); b.Dx() != int(ct.forest.Size().Width) || b.Dy() != int(ct.forest.Size().Height) {
				t.Errorf("forest plot image %v for a %v slot", b.Size(), ct.forest.Size())
			}
			for key, cells := range ct.cells {
				within(t, w, cells[len(cells)-1], fmt.Sprintf("the verdict of %s", key), key == "cube")
			}
		})
	}
	for _, lang := range []string{"zh", "en"} {
		t.Run(lang+"/test connection", func(t *testing.T) {
			p := profile.Default()
			p.Judges = []profile.Endpoint{{Name: "j1", BaseURL: "http://127.0.0.1:1/v1", Model: "m", Concurrency: 1}}
			w, loop := newTestWindow(t, lang, &p)
			w.win.Resize(size)
			w.tabs.Select(w.judges.item)
			w.judges.list.Select(0)
			f := w.judges.form
			test.Tap(f.test)
			loop.runUntil(t, time.Minute, "the verdict", func() bool { return !f.test.Disabled() })
			onScreen(t, w, f.reply, "the Test connection result")
		})
		t.Run(lang+"/paid judge", func(t *testing.T) {
			srv := fakeai.New(t)
			p := profile.Default()
			p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}, {Name: "semantic", Semantic: true},
				{Name: "a-paid-judge-with-a-long-name", BaseURL: srv.URL(), Model: "fake", Concurrency: 4, Repeats: 1, PriceIn: 1, PriceOut: 2}}
			w, loop := newTestWindow(t, lang, &p)
			w.win.Resize(size)
			openSample(t, w, loop)
			w.tabs.Select(w.eval.item)
			test.Tap(w.eval.start)
			loop.runUntil(t, 5*time.Minute, "the run", func() bool { return !w.eval.running })
			w.tabs.Select(w.eval.item)
			for key, row := range w.eval.rows {
				onScreen(t, w, row.bar, "the progress bar of "+key)
			}
		})
	}
}
