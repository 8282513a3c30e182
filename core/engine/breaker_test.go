package engine

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"cubeworkbench/core/judge"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
	"cubeworkbench/core/target"
	"cubeworkbench/internal/fakeai"
)

// A judge whose endpoint never answers stops the run after a few failures,
// instead of spending every judgement's retries on it.
func TestDeadEndpointStopsTheRun(t *testing.T) {
	srv := fakeai.New(t)
	srv.Close() // connections are refused from the start
	st, err := store.Open(filepath.Join(t.TempDir(), "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p := profile.Default()
	p.Bootstrap = 0
	p.Judges = []profile.Endpoint{{Name: "typo", BaseURL: srv.URL(), Model: "m", Concurrency: 2, MaxRetries: -1, TimeoutSec: 2}}
	_, err = Run(context.Background(), budgetWorkbook(), Options{Profile: p, Store: st})
	if !errors.Is(err, ErrEndpointDown) {
		t.Fatalf("err = %v, want ErrEndpointDown", err)
	}
	js, _ := st.Judgements(context.Background(), store.JudgementFilter{})
	if len(js) == 0 || len(js) > 2*breakerMin {
		t.Fatalf("%d judgements stored before the stop; want a handful, not all 120", len(js))
	}
}

func TestBreaker(t *testing.T) {
	endpoint := judge.Outcome{Reason: judge.ReasonEndpoint + ": connection refused"}
	parse := judge.Outcome{Reason: judge.ReasonNoScore + ": no score"}
	cases := []struct {
		name string
		seq  []judge.Outcome
		trip bool
	}{
		{"failures from the start", []judge.Outcome{endpoint, endpoint, endpoint}, true},
		{"an answer first", []judge.Outcome{{OK: true}, endpoint, endpoint, endpoint}, false},
		{"an unparsable answer is an answer", []judge.Outcome{parse, endpoint, endpoint, endpoint}, false},
		{"fewer than the limit", []judge.Outcome{endpoint, endpoint}, false},
	}
	for _, c := range cases {
		b := &breaker{limit: 3}
		tripped := false
		for _, o := range c.seq {
			if _, tr := b.record(o); tr {
				tripped = true
			}
		}
		if tripped != c.trip {
			t.Errorf("%s: tripped = %v", c.name, tripped)
		}
	}
}

type deadTarget struct{ asked *int }

func (d deadTarget) Kind() string { return "dead" }
func (d deadTarget) Ask(context.Context, string) (target.Answer, error) {
	*d.asked++
	return target.Answer{}, errors.New("connection refused")
}

// A target that never answers stops collection after a few questions.
func TestDeadTargetStopsCollection(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	wb := budgetWorkbook()
	for i := range wb.Items {
		delete(wb.Items[i].Answers, "rag")
	}
	p := profile.Default()
	p.Target = &profile.Target{Kind: "http", BaseURL: "http://127.0.0.1:9", Concurrency: 1}
	asked := 0
	_, err = Run(context.Background(), wb, Options{Profile: p, Store: st,
		NewTarget: func(profile.Target) (target.Target, error) { return deadTarget{&asked}, nil }})
	if !errors.Is(err, ErrEndpointDown) || asked != breakerMin {
		t.Fatalf("err = %v after %d questions; want ErrEndpointDown after %d", err, asked, breakerMin)
	}
}
