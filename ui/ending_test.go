package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"cubeworkbench/core/store"
)

// TestFailedRunSaysWhy: a run stopped by an endpoint that never answers is
// not "cancelled" (only the user cancels): the window says it stopped and
// why, and the run store records it as failed with the same words.
func TestFailedRunSaysWhy(t *testing.T) {
	for _, lang := range []string{"zh", "en"} {
		t.Run(lang, func(t *testing.T) {
			w, loop := newTestWindow(t, lang, llmProfile("http://127.0.0.1:1/v1", 2))
			path := openSample(t, w, loop)
			test.Tap(w.eval.start)
			loop.runUntil(t, 2*time.Minute, "the run to stop", func() bool { return !w.eval.running })
			got := w.eval.status.Text
			for _, cancelled := range []string{"已取消", "ancelled", "取消"} {
				if strings.Contains(got, cancelled) {
					t.Errorf("a run the endpoint stopped reads as cancelled: %q", got)
				}
			}
			st, err := store.Open(storePath(path))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			runs, err := st.Runs(context.Background())
			if err != nil || len(runs) != 1 {
				t.Fatalf("store runs %+v, %v: want one", runs, err)
			}
			r := runs[0]
			if r.Status != store.RunFailed || r.Reason == "" {
				t.Fatalf("store run status %q reason %q: want failed with a reason", r.Status, r.Reason)
			}
			// The store keeps both languages; the window shows its own.
			words := strings.SplitN(r.Reason, " / ", 2)
			want := words[0]
			if lang == "en" {
				want = words[1]
			}
			if !strings.Contains(strings.ToLower(got), strings.ToLower(want)) {
				t.Errorf("window %q does not say what the store says, %q", got, want)
			}
		})
	}
}

// openSample writes the sample, opens it and waits until it is shown.
func openSample(t *testing.T, w *Window, loop *uiLoop) string {
	t.Helper()
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil && !w.eval.start.Disabled() })
	return path
}
