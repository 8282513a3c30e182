package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/internal/fakeai"
)

// The estimate is an upper bound that the run reaches exactly when no
// reply can be read (every judgement asked 1 + parseRetries times), and
// without its re-asks counts exactly the calls of a run whose replies all
// read: both read one enumeration of judging tasks (owedJudgements) and one
// list of CoFE-RAG generation dimensions. Cases: CuBE only, repeats with
// judgements already in the workbook, CoFE generation on items with
// references and keywords, and a judge that never gives a score.
func TestPlanCountsTheRunsJudgeCalls(t *testing.T) {
	cases := []struct {
		name       string
		repeats    int
		cofe       bool // references and keywords on every other item
		had        int  // judgements of the first judge already in the workbook
		unreadable bool
	}{
		{"cube", 1, false, 0, false},
		{"repeats and imported scores", 2, false, 5, false},
		{"cofe generation", 1, true, 0, false},
		{"no reply can be read", 1, false, 0, true},
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
				wb.Scores.Add(dataset.Judgement{ItemID: wb.Items[i].ID, Set: dataset.SetRAG, Judge: "a",
					Dimension: fourDims[0], Repeat: 1, Score: 5, Status: dataset.StatusOK})
			}
			respond := judgeResponder
			if tc.unreadable {
				respond = func(fakeai.ChatRequest) fakeai.Response { return fakeai.Response{Content: "I cannot decide."} }
			}
			srv := fakeai.New(t, fakeai.WithResponder(respond))
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
			if !tc.unreadable {
				want -= plan.Reasks
			}
			if got := int(calls.Load()); got != want || want == 0 || plan.Reasks == 0 {
				t.Fatalf("run made %d judge calls, the plan said %d (re-asks %d)", got, want, plan.Reasks)
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

// Money: the estimate carries each judge's currency and names a judge
// without a price as unknown, never free; the run's summary and its
// progress events say what was spent the same way.
func TestMoneyHasACurrency(t *testing.T) {
	wb := buildWorkbook(4)
	srv := fakeai.New(t, fakeai.WithResponder(judgeResponder))
	p := testProfile(
		profile.Endpoint{Name: "ds", BaseURL: srv.URL(), Model: "deepseek-chat", Concurrency: 2, PriceIn: 2, PriceOut: 8, Currency: "CNY"},
		profile.Endpoint{Name: "local", BaseURL: srv.URL(), Model: "qwen", Concurrency: 2})
	plan := Plan(wb, p)
	zh, en := plan.Estimate("zh"), plan.Estimate("en")
	for _, want := range []string{"元", "local 未填价格，费用未知", fmt.Sprintf("其中 %d 次", plan.Reasks)} {
		if !strings.Contains(zh, want) {
			t.Errorf("estimate %q lacks %q", zh, want)
		}
	}
	if !strings.Contains(en, "¥") || strings.Contains(en, "$") || !strings.Contains(en, "unknown for local") {
		t.Errorf("estimate %q", en)
	}
	var mu sync.Mutex
	money := map[string]string{}
	progress := ProgressFunc(func(e Event) {
		if e.Step == StepJudge {
			mu.Lock()
			money[e.Label] = e.Money("zh")
			mu.Unlock()
		}
	})
	res, err := Run(context.Background(), wb, Options{Profile: p, Store: openStore(t, ""), Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	run := res.Summary.Run
	if run.Costs["CNY"] <= 0 || len(run.Unpriced) != 1 || run.Unpriced[0] != "local" {
		t.Errorf("run costs %v, unpriced %v", run.Costs, run.Unpriced)
	}
	if s := run.Spent("zh"); !strings.Contains(s, "元") || !strings.Contains(s, "local 未填价格，费用未知") {
		t.Errorf("spent %q", s)
	}
	if !strings.HasSuffix(money["ds"], " 元") || money["local"] != "local 未填价格，费用未知" {
		t.Errorf("money while running %q", money)
	}
}
