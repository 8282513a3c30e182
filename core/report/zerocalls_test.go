package report

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"cubeworkbench/core/embed"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
)

// countingCompleter fails every request and counts it.
type countingCompleter struct{ calls *atomic.Int64 }

func (c countingCompleter) Complete(context.Context, llm.Request) (llm.Reply, error) {
	c.calls.Add(1)
	return llm.Reply{}, errors.New("no endpoint in this test")
}

func (c countingCompleter) Model() string { return "counting" }

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
	var calls atomic.Int64
	p := in.Profile
	p.Bootstrap = 200
	// The fixture's scores cover the CuBE dimensions only; CoFE generation
	// judgements would be new work, not a re-read.
	p.CoFE.Generation = false
	res, err := engine.Run(context.Background(), wb, engine.Options{Profile: p, Store: st, Version: "test", Embedder: embed.NewHashed(),
		NewCompleter: func(profile.Endpoint) (llm.Completer, error) { return countingCompleter{&calls}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d endpoint calls, want 0", n)
	}
	want, got := in.Summary.Aggregate.Cube.Mean, res.Summary.Aggregate.Cube.Mean
	if want == nil || got == nil || !near(*got, *want) {
		t.Errorf("CuBE from the reopened report %v, want %v", got, want)
	}
}
