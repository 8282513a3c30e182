package report

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"cubeworkbench/core/embed"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/store"
	"cubeworkbench/internal/fakeai"
)

// TestReopenedReportNeedsNoCalls evaluates the written report as a
// workbook: every judgement is already in its scores sheet, so the engine
// asks no endpoint anything and reaches the same CuBE score.
func TestReopenedReportNeedsNoCalls(t *testing.T) {
	path, _, in := writeFixture(t, "zh", nil)
	wb, rep, err := ingest.Open(context.Background(), path, ingest.Options{})
	if err != nil || rep.HasErrors() {
		t.Fatalf("reopen: %v %v", err, rep)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := fakeai.New(t) // every judge points at it; it must hear nothing
	p := in.Profile
	p.Bootstrap = 200
	// The fixture's scores cover the CuBE dimensions only; CoFE generation
	// judgements would be new work, not a re-read.
	p.CoFE.Generation = false
	p.Judges = slices.Clone(p.Judges)
	for i := range p.Judges {
		if !p.Judges[i].Lexical {
			p.Judges[i].BaseURL, p.Judges[i].APIKeyEnv = srv.URL(), ""
		}
	}
	res, err := engine.Run(context.Background(), wb, engine.Options{Profile: p, Store: st, Version: "test", Embedder: embed.NewHashed()})
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Requests(); n != 0 {
		t.Errorf("%d endpoint calls, want 0", n)
	}
	want, got := in.Summary.Aggregate.Cube.Mean, res.Summary.Aggregate.Cube.Mean
	if want == nil || got == nil || !near(*got, *want) {
		t.Errorf("CuBE from the reopened report %v, want %v", got, want)
	}
}
