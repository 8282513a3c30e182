package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"cubeworkbench/core/kb"
)

// A workbook over the streaming threshold keeps its guides in the run store:
// the window loads only the guides the questions name, says so, and an
// offline evaluation still gives the CuBE headline (without CoFE-RAG).
func TestLargeWorkbookStreamsGuides(t *testing.T) {
	old := kb.StreamThreshold
	kb.StreamThreshold = 1 // every workbook counts as large here
	defer func() { kb.StreamThreshold = old }()
	w, loop := newTestWindow(t, "en", nil)
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, 30*time.Second, "the sample", func() bool { return w.workbook() != nil })
	if w.streamed() != 60 || !strings.Contains(w.open.summary.Text, storePath(path)) {
		t.Fatalf("streamed %d; summary %q", w.streamed(), w.open.summary.Text)
	}
	named := map[string]bool{}
	for _, it := range w.workbook().Items {
		named[it.DocID] = true
		for _, r := range it.Retrieved {
			named[r] = true
		}
	}
	if len(w.workbook().Guides) != len(named) {
		t.Fatalf("%d guides loaded, %d named by the questions", len(w.workbook().Guides), len(named))
	}
	test.Tap(w.eval.start)
	loop.runUntil(t, 60*time.Second, "the run", func() bool { return !w.eval.running })
	if w.result() == nil || w.result().Summary.Result == nil {
		t.Fatalf("no CuBE result; status %q", w.eval.status.Text)
	}
	// CoFE's generation half needs no corpus; its retrieval half is skipped.
	if c := w.result().Summary.CoFE; c != nil && c.Chunks != 0 {
		t.Fatalf("CoFE retrieval ran over %d chunks of a partial corpus", c.Chunks)
	}
}
