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
