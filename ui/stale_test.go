package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"cubeworkbench/core/profile"
	"cubeworkbench/internal/testbook"
)

// evaluateAndCompare opens a copy of the sample, evaluates it offline with
// the lexical judge and compares rag with 系统B; it returns the path.
func evaluateAndCompare(t *testing.T, w *Window, loop *uiLoop) string {
	t.Helper()
	path := testbook.Sample(t, t.TempDir())
	w.openAsync(path)
	loop.runUntil(t, time.Minute, "the workbook", func() bool { return w.sess != nil && !w.eval.start.Disabled() })
	test.Tap(w.eval.start)
	loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running && w.result() != nil })
	w.tabs.Select(compareTabOf(t, w).item)
	compareTabOf(t, w).sync()
	test.Tap(compareTabOf(t, w).run)
	loop.runUntil(t, 5*time.Minute, "the comparison", func() bool { return !compareTabOf(t, w).running && compareTabOf(t, w).result != nil })
	return path
}

func lexicalProfile() *profile.Profile {
	p := profile.Default()
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}}
	return &p
}

// TestOpeningResetsEveryTab: after Evaluate and Compare on one workbook,
// opening another leaves nothing of the first on any tab; opening one with
// errors lists its problems and never says 校验通过 beside them.
func TestOpeningResetsEveryTab(t *testing.T) {
	w, loop := newTestWindow(t, "zh", lexicalProfile())
	w.eval.offline.SetChecked(true)
	first := evaluateAndCompare(t, w, loop)

	w.openAsync(testbook.Sample(t, t.TempDir()))
	loop.runUntil(t, time.Minute, "the second workbook", func() bool { return w.sess != nil && w.path != first })
	loop.runUntil(t, 5*time.Second, "settling", func() bool { return false || !w.eval.running })
	if c := compareTabOf(t, w); c.result != nil || len(c.table.Objects) > 0 || c.forest.img.Image != nil || c.headline.Text != tr("compare.none") {
		t.Errorf("Compare still shows the first workbook's comparison: %q, %d cells", c.headline.Text, len(c.table.Objects))
	}
	if s := w.eval.status.Text; s != "" {
		t.Errorf("Evaluate still shows the first workbook's run: %q", s)
	}
	if len(w.eval.bars.Objects) > 0 {
		t.Errorf("Evaluate still shows %d progress bars of the first run", len(w.eval.bars.Objects))
	}
	if w.result() != nil || w.results.sess != w.sess {
		t.Error("the results tab shows another workbook's result")
	}

	w.openAsync(writeBadFolder(t))
	loop.runUntil(t, time.Minute, "the bad workbook", func() bool { return w.report() != nil && w.report().HasErrors() || w.loadErr != nil })
	if got := w.open.problemsTitle.Text; got == tr("open.problems")+": "+tr("open.no_problems") || w.open.problemCount() == 0 {
		t.Errorf("a workbook with errors: the side pane says %q with %d problems listed", got, w.open.problemCount())
	}
}

// TestSkipBadRowsRunsNothing: ticking 跳过出错的行 reads the workbook again
// and does nothing else: no evaluation (not even a restore from the store)
// and no other tab.
func TestSkipBadRowsRunsNothing(t *testing.T) {
	w, loop := newTestWindow(t, "zh", lexicalProfile())
	w.eval.offline.SetChecked(true)
	path := testbook.Sample(t, t.TempDir())
	w.openAsync(path)
	loop.runUntil(t, time.Minute, "the workbook", func() bool { return w.sess != nil && !w.eval.start.Disabled() })
	test.Tap(w.eval.start)
	loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running && w.result() != nil })

	w.tabs.Select(w.open.item)
	before := w.sess
	ran := false
	w.eval.act.running = func(on bool) { ran = ran || on }
	test.Tap(w.open.skipBad)
	loop.runUntil(t, time.Minute, "the workbook read again", func() bool { return w.sess != before && w.sess != nil })
	deadline := time.Now().Add(3 * time.Second)
	loop.runUntil(t, time.Minute, "a while", func() bool { return time.Now().After(deadline) })
	if ran || w.eval.running {
		t.Error("ticking 跳过出错的行 started an evaluation")
	}
	if w.tabs.Selected() != w.open.item {
		t.Errorf("ticking 跳过出错的行 moved to the tab %q", w.tabs.Selected().Text)
	}
}
