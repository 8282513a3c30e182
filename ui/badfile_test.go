package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// TestBadFileKeepsWorkbook: opening a file that cannot be read leaves the
// loaded workbook and its results shown, says why, and never puts the
// file into 最近打开.
func TestBadFileKeepsWorkbook(t *testing.T) {
	w, loop := newTestWindow(t, "zh", nil)
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil })
	test.Tap(w.eval.start)
	loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running && w.index != nil })
	sess, res := w.sess, w.result()

	for _, bad := range []struct{ name, body string }{
		{"damaged.xlsx", "PK\x03\x04 not really a workbook"},
		{"missing.xlsx", ""},
	} {
		p := filepath.Join(t.TempDir(), bad.name)
		if bad.body != "" {
			if err := os.WriteFile(p, []byte(bad.body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		w.openAsync(p)
		loop.runUntil(t, time.Minute, "the bad file", func() bool {
			return strings.Contains(w.open.summary.Text, p) && strings.Contains(w.open.summary.Text, path)
		})
		if w.sess != sess || w.result() != res || w.path != path {
			t.Errorf("%s replaced the shown workbook (%s) or its result", bad.name, w.path)
		}
		if w.results.summary() == nil {
			t.Errorf("%s: the results tab lost its result", bad.name)
		}
		if slices.Contains(w.app.Preferences().StringList(prefRecent), p) {
			t.Errorf("%s is in the recent list", bad.name)
		}
		if !strings.Contains(w.open.summary.Text, path) {
			t.Errorf("the open tab does not say the previous workbook is still shown: %q", w.open.summary.Text)
		}
	}
}

// TestReopenShowsLastResult: reopening an evaluated workbook (a new window
// on the same file) shows its last result without a click, recomputed
// offline from the run store with that run's profile.
func TestReopenShowsLastResult(t *testing.T) {
	w, loop := newTestWindow(t, "zh", nil)
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil })
	test.Tap(w.eval.start)
	loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running && w.index != nil })
	want := w.results.cubeValue.Text

	w2, loop2 := newTestWindow(t, "zh", nil)
	w2.loadWorkbook(path, false)
	loop2.runUntil(t, 5*time.Minute, "the restored result", func() bool { return w2.result() != nil && !w2.eval.running && w2.index != nil })
	if got := w2.results.cubeValue.Text; got != want {
		t.Errorf("restored %q, the evaluation showed %q", got, want)
	}
	if !strings.Contains(w2.eval.status.Text, tr("eval.restored")) {
		t.Errorf("status %q does not say the result was restored", w2.eval.status.Text)
	}
	if w2.result().Summary.Run.Calls != 0 {
		t.Errorf("restoring made %d endpoint calls", w2.result().Summary.Run.Calls)
	}
}
