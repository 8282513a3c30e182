package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
	"cubeworkbench/internal/fakeai"
)

// A judge served by three replicas, one of which dies mid-run: every
// judgement completes exactly once and all are scored.
func TestJudgeAcrossReplicasOneDies(t *testing.T) {
	a, b, c := fakeai.New(t), fakeai.New(t), fakeai.New(t)
	b.DieAfter(15, fakeai.DieRefuse)
	wb := &dataset.Workbook{Guides: []dataset.Guide{{ID: "G", Title: "t", Text: "申请材料：身份证。时限：5个工作日。"}}}
	for i := 1; i <= 20; i++ {
		it := dataset.Item{ID: fmt.Sprint("q", i), Question: fmt.Sprintf("第%d问：要带什么？", i), DocID: "G", Retrieved: []string{"G"}}
		it.SetAnswer(dataset.SetRAG, fmt.Sprintf("带身份证，%d个工作日。", i))
		it.SetAnswer(dataset.SetZero, fmt.Sprintf("不清楚%d。", i))
		it.SetAnswer(dataset.SetFull, fmt.Sprintf("身份证，5个工作日（%d）。", i))
		wb.Items = append(wb.Items, it)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p := profile.Default()
	p.Bootstrap = 0
	p.Judges = []profile.Endpoint{{Name: "qwen", BaseURL: a.URL(), BaseURLs: []string{b.URL(), c.URL()}, Model: "qwen",
		Concurrency: 4, MaxRetries: 1, TimeoutSec: 5}}
	res, err := Run(context.Background(), wb, Options{Profile: p, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	const want = 20 * 3 * 4
	seen := map[string]int{}
	for j := range res.Workbook.Scores.Values() {
		seen[fmt.Sprint(j.ItemID, j.Set, j.Dimension, j.Repeat)]++
		if !j.OK() {
			t.Errorf("unscorable after failover: %+v", j)
		}
	}
	if len(seen) != want || res.Workbook.Scores.Len() != want {
		t.Fatalf("%d distinct judgements (%d rows), want %d", len(seen), res.Workbook.Scores.Len(), want)
	}
	if a.Requests() == 0 || c.Requests() == 0 || b.Requests() < 15 {
		t.Fatalf("requests a %d b %d c %d", a.Requests(), b.Requests(), c.Requests())
	}
}
