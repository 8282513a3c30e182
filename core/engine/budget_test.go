package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
	"cubeworkbench/internal/fakeai"
)

func budgetWorkbook() *dataset.Workbook {
	wb := &dataset.Workbook{Guides: []dataset.Guide{{ID: "G", Title: "t", Text: "申请材料：身份证。"}}}
	for i := 1; i <= 10; i++ {
		it := dataset.Item{ID: fmt.Sprint("q", i), Question: fmt.Sprintf("问题%d", i), DocID: "G", Retrieved: []string{"G"}}
		it.SetAnswer(dataset.SetRAG, fmt.Sprintf("回答%d", i))
		it.SetAnswer(dataset.SetZero, fmt.Sprintf("零%d", i))
		it.SetAnswer(dataset.SetFull, fmt.Sprintf("满%d", i))
		wb.Items = append(wb.Items, it)
	}
	return wb
}

// A priced judge stops at the budget with ErrBudget and nothing recorded as
// unscorable; a rerun with a larger budget finishes and pays only for the
// rest. The summary's cost comes from the endpoint's reported usage.
func TestBudgetStopsThenResumes(t *testing.T) {
	srv := fakeai.New(t)
	st, err := store.Open(filepath.Join(t.TempDir(), "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p := profile.Default()
	p.Bootstrap = 0
	p.Judges = []profile.Endpoint{{Name: "paid", BaseURL: srv.URL(), Model: "m", Concurrency: 1,
		PriceIn: 1000, PriceOut: 1000}} // per million tokens: every call costs a little
	p.BudgetUSD = 1e-9 // less than one call
	_, err = Run(context.Background(), budgetWorkbook(), Options{Profile: p, Store: st})
	if !errors.Is(err, ErrBudget) {
		t.Fatalf("err = %v, want ErrBudget", err)
	}
	first := srv.Requests()
	if first == 0 || first >= 120 {
		t.Fatalf("first run made %d requests", first)
	}
	js, _ := st.Judgements(context.Background(), store.JudgementFilter{})
	for _, j := range js {
		if !j.OK() {
			t.Fatalf("a budget stop was recorded as a judgement: %+v", j)
		}
	}
	p.BudgetUSD = 0 // no cap
	res, err := Run(context.Background(), budgetWorkbook(), Options{Profile: p, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests(); got != 120 {
		t.Fatalf("requests over both runs = %d, want 120 (each judgement once)", got)
	}
	if res.Summary.Run.Cost <= 0 || res.Summary.Run.Cached != first {
		t.Fatalf("cost %v cached %d (first run %d)", res.Summary.Run.Cost, res.Summary.Run.Cached, first)
	}
}
