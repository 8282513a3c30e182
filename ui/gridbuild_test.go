package ui

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"cubeworkbench/core/result"
	"cubeworkbench/core/session"
)

// refreshAndWait refreshes g from sess and runs the model's hand-over on
// this goroutine (the UI thread of a test) once it is built.
func refreshAndWait(t *testing.T, g *questionGrid, sess *session.Session) {
	t.Helper()
	handed := make(chan func(), 1)
	g.sh.do = func(f func()) { handed <- f }
	g.refresh(sess)
	if sess == nil || sess.Result() == nil || g.model != nil {
		return
	}
	select {
	case f := <-handed:
		f()
	case <-time.After(time.Minute):
		t.Fatal("the grid model was never handed to the UI thread")
	}
}

// goroutineID is the id of the calling goroutine, from its stack header.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := bytes.Cut(bytes.TrimPrefix(buf, []byte("goroutine ")), []byte(" "))
	return string(id)
}

// watchGridBuilds records the goroutine each grid model is built on.
func watchGridBuilds(t *testing.T) func() []string {
	var mu sync.Mutex
	var on []string
	orig := buildGridModel
	buildGridModel = func(res *result.Outcome) *gridModel {
		mu.Lock()
		on = append(on, goroutineID())
		mu.Unlock()
		return orig(res)
	}
	t.Cleanup(func() { buildGridModel = orig })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), on...)
	}
}

// The question grid's model (26–44 ms at 10,000 questions) is built off
// the UI thread and handed to it with do (fyne.Do in the window); the
// filters, the search and the sort a user chose stay as they were, and a
// model built for an older result is dropped.
func TestGridModelBuiltOffUIThread(t *testing.T) {
	test.NewTempApp(t)
	useLanguage("zh")
	builds := watchGridBuilds(t)
	ui := goroutineID() // this test's goroutine stands for the UI thread
	loop := newUILoop()
	g := newQuestionGrid(shell{do: loop.do}, nil)
	first, second := synthResult(t, 300, 2), synthResult(t, 300, 2)

	g.showResult(first)
	if g.model != nil {
		t.Fatal("the model was there at once: it was built on the UI thread")
	}
	loop.runUntil(t, time.Minute, "the first model", func() bool { return g.model != nil })
	if g.model.res != first {
		t.Fatal("the grid shows another result's model")
	}

	// A user's filter, search and sort (descending on the second judge's
	// first dimension) …
	g.checks[0].SetChecked(true)
	g.search.SetText("q000")
	col := -1
	for c, gc := range g.model.cols {
		if gc.kind == gcScore && gc.judge == 1 {
			col = c
			break
		}
	}
	g.sortBy(col)
	g.sortBy(col)
	wantView := append([]int(nil), g.view...)

	// … survive a new result, shown only when its model is ready; one
	// asked for before it and ready later is dropped.
	g.showResult(first)
	g.showResult(second)
	if g.model != nil {
		t.Fatal("the second model was built on the UI thread")
	}
	loop.runUntil(t, time.Minute, "the second model", func() bool { return g.model != nil })
	if g.model.res != second {
		t.Fatal("an older result's model replaced the newer one")
	}
	time.Sleep(50 * time.Millisecond) // a stale hand-over, were there one, arrives now
	loop.runUntil(t, time.Minute, "the queue", func() bool { return true })
	if g.model.res != second {
		t.Fatal("an older result's model replaced the newer one")
	}
	if g.mask != 1 || g.query != "q000" || g.sortCol != col || !g.desc {
		t.Errorf("filter %b, search %q, sort %d desc %v after a new result; want 1, q000, %d, true", g.mask, g.query, g.sortCol, g.desc, col)
	}
	if len(g.view) == 0 || len(g.view) != len(wantView) {
		t.Errorf("%d rows shown after the new result, %d before (same data)", len(g.view), len(wantView))
	}
	on := builds()
	if len(on) < 2 {
		t.Fatalf("%d models built, want at least 2", len(on))
	}
	for _, id := range on {
		if id == ui {
			t.Error("a grid model was built on the UI thread")
		}
	}
}

// The window's path: an evaluation builds the model with the result index
// in the run's goroutine; the UI thread only shows it.
func TestGridModelOfAnEvaluationBuiltOffUIThread(t *testing.T) {
	builds := watchGridBuilds(t)
	ui := goroutineID()
	w, loop := newTestWindow(t, "zh", nil)
	test.Tap(w.open.openSample)
	loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil || w.loadErr != nil })
	if w.loadErr != nil {
		t.Fatal(w.loadErr)
	}
	w.eval.offline.SetChecked(true)
	test.Tap(w.eval.start)
	loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running && w.index != nil })
	loop.runUntil(t, time.Minute, "the grid", func() bool { return w.results.grid.model != nil })
	if rows, _ := w.results.grid.table.Length(); rows != len(w.result().Summary.ItemDetails) {
		t.Errorf("grid shows %d rows, want %d", rows, len(w.result().Summary.ItemDetails))
	}
	// Redrawing every tab (as a language switch does) shows the same model.
	shown := w.results.grid.model
	w.refreshAll()
	loop.runUntil(t, time.Minute, "the grid", func() bool { return w.results.grid.model != nil })
	if w.results.grid.model != shown {
		t.Error("redrawing built the grid model again")
	}
	on := builds()
	if len(on) == 0 {
		t.Fatal("no grid model built")
	}
	for _, id := range on {
		if id == ui {
			t.Error("a grid model was built on the UI thread")
		}
	}
}

// BenchmarkGridShowModel10k is what stays on the UI thread when a new
// result's model (built off it) is shown: checks, widths, the default
// order (sorted with the model), the filter and a redraw. Two results of
// 10,000 questions take turns, so every show is of another model.
func BenchmarkGridShowModel10k(b *testing.B) {
	test.NewTempApp(b)
	useLanguage("zh")
	ms := []*gridModel{newGridModel(synthResult(b, 10000, 2)), newGridModel(synthResult(b, 10001, 2))}
	g := newQuestionGrid(shell{}, nil)
	g.refreshModel(ms[1])
	b.ResetTimer()
	for i := range b.N {
		g.refreshModel(ms[i%2])
	}
}
