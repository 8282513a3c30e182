package engine

import (
	"context"
	"sync/atomic"
	"testing"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/internal/fakeai"
)

// The estimate counts exactly the judge calls the run makes: both read one
// enumeration of judging tasks (owedJudgements) and one list of CoFE-RAG
// generation dimensions. Cases: CuBE only, repeats with judgements already
// in the workbook, and CoFE generation on items with references and keywords.
func TestPlanCountsTheRunsJudgeCalls(t *testing.T) {
	cases := []struct {
		name    string
		repeats int
		cofe    bool // references and keywords on every other item
		had     int  // judgements of the first judge already in the workbook
	}{
		{"cube", 1, false, 0},
		{"repeats and imported scores", 2, false, 5},
		{"cofe generation", 1, true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wb := buildWorkbook(6)
			if tc.cofe {
				for i := range wb.Items {
					if i%2 == 0 {
						wb.Items[i].Reference = "持身份证办理。"
						wb.Items[i].Coarse = []string{"身份证"}
					}
				}
			}
			for i := range tc.had {
				wb.Scores = append(wb.Scores, dataset.Judgement{ItemID: wb.Items[i].ID, Set: dataset.SetRAG, Judge: "a",
					Dimension: fourDims[0], Repeat: 1, Score: 5, Status: dataset.StatusOK})
			}
			srv := fakeai.New(t, fakeai.WithResponder(judgeResponder))
			p := testProfile(
				profile.Endpoint{Name: "a", BaseURL: srv.URL(), Model: "qwen-a", Concurrency: 4, Repeats: tc.repeats},
				profile.Endpoint{Name: "b", BaseURL: srv.URL(), Model: "qwen-b", Concurrency: 4})
			p.CoFE.Generation = tc.cofe
			plan := Plan(wb, p)
			want := 0
			for _, s := range plan.Steps {
				if s.Step == StepJudge {
					want += s.Calls
				}
			}
			var calls atomic.Int64
			if _, err := Run(context.Background(), wb, Options{Profile: p, Store: openStore(t, ""),
				NewCompleter: fastCompleter(0, 0, nil, &calls)}); err != nil {
				t.Fatal(err)
			}
			if got := int(calls.Load()); got != want || want == 0 {
				t.Fatalf("run made %d judge calls, the plan said %d", got, want)
			}
		})
	}
}

// The profile's qualification defaults are cube's: one set of numbers,
// whichever door an evaluation comes in by.
func TestQualifyDefaultsAgree(t *testing.T) {
	cfg, err := cubeConfig(profile.Default(), &dataset.Workbook{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Qualify != cube.DefaultQualify() {
		t.Errorf("profile %+v, cube %+v", cfg.Qualify, cube.DefaultQualify())
	}
	p, err := profile.Parse([]byte("[qualify]\nmin_readable = 0.95\nbounds_tolerance = 10\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _ = cubeConfig(p, &dataset.Workbook{}); cfg.Qualify.MinReadable != 0.95 || cfg.Qualify.BoundsTolerance != 10 || cfg.Qualify.MinUnits != 20 {
		t.Errorf("from the profile: %+v", cfg.Qualify)
	}
}
