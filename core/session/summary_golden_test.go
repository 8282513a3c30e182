package session

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/profile"
)

var update = flag.Bool("update", false, "rewrite testdata/summary-sample.golden.json")

// SUMMARY.json of the bundled sample, as `cubectl demo` makes it, is the
// same bytes as the golden file, but for what differs between runs (times,
// run id, paths, tool version, blanked): the contract other programs read cannot
// change by accident, e.g. when a type that fills it moves. Run with
// -update when a change is meant, and say so in the docs.
func TestSummaryGolden(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, sample.FileName)
	if err := os.WriteFile(book, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	sess, err := Open(context.Background(), book, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := profile.Default()
	p.Language = "zh"
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}, {Name: "semantic", Semantic: true}}
	if _, err := sess.Evaluate(context.Background(), p, EvalOptions{Offline: true}); err != nil {
		t.Fatal(err)
	}
	// What differs between runs, blanked on a copy; the bytes are
	// WriteSummary's (same marshalling, same key order).
	c := *sess.Result().Summary
	c.ToolVersion = "VERSION"
	c.Run.ID, c.Run.Started, c.Run.Finished, c.Run.Workbook, c.Run.Store = 0, time.Time{}, time.Time{}, "WORKBOOK", "STORE"
	if f := c.Run.WorkbookFile; f != nil { // the sample's hash and size stay; when it was written does not
		fp := *f
		fp.Modified = time.Time{}
		c.Run.WorkbookFile = &fp
	}
	got, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "summary-sample.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
		t.Errorf("SUMMARY.json of the sample differs from %s (run with -update if the change is meant, and document it)", golden)
	}
}
