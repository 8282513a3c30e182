package ui

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// TestBatchRoundTrip: the window exports the pending requests, a "cluster"
// answers them, the window imports the results, and an offline evaluation
// then finishes from the store. Bound answers exist in the sample, so one
// round covers every judgement.
func TestBatchRoundTrip(t *testing.T) {
	p := llmProfile("http://127.0.0.1:9/v1", 2) // never reached: batch and offline only
	p.CoFE.Generation = false
	w, loop := newTestWindow(t, "en", p)
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, 30*time.Second, "the sample", func() bool { return w.workbook() != nil })

	requests := filepath.Join(t.TempDir(), "requests.jsonl")
	w.eval.exportBatchTo(requests)
	loop.runUntil(t, 60*time.Second, "the batch export", func() bool { return !w.eval.batchOut.Disabled() })
	if !strings.Contains(w.eval.status.Text, requests) {
		t.Fatalf("status after export: %q", w.eval.status.Text)
	}
	in, err := os.Open(requests)
	if err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(t.TempDir(), "results.jsonl")
	out, _ := os.Create(results)
	n := 0
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var line struct {
			CustomID string `json:"custom_id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		body := map[string]any{"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": []string{"评分：6", "评分：7", "评分：8"}[n%3]}}}}
		b, _ := json.Marshal(map[string]any{"custom_id": line.CustomID, "response": map[string]any{"status_code": 200, "body": body}, "error": nil})
		out.Write(append(b, '\n'))
		n++
	}
	in.Close()
	out.Close()
	if n == 0 {
		t.Fatal("the export wrote no request")
	}

	w.eval.importBatchFrom(results)
	loop.runUntil(t, 30*time.Second, "the batch import", func() bool { return !w.eval.batchIn.Disabled() })
	if !strings.Contains(w.eval.status.Text, "imported") || !strings.Contains(w.eval.status.Text, "0 requests still pending") {
		t.Fatalf("status after import: %q", w.eval.status.Text)
	}

	w.eval.offline.SetChecked(true)
	test.Tap(w.eval.start)
	loop.runUntil(t, 60*time.Second, "the offline run", func() bool { return !w.eval.running })
	if w.result() == nil {
		t.Fatalf("offline run after import: %q", w.eval.status.Text)
	}
	if r := w.result().Summary.Run; r.Calls != 0 || r.Cached != n {
		t.Fatalf("offline run: %d calls, %d cached; %d requests were imported", r.Calls, r.Cached, n)
	}
}
