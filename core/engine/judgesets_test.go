package engine

import (
	"context"
	"fmt"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
)

// A run given another system's answer set judges it under its own name —
// no judgement is written as rag, so the system under test's judgements in
// the run store stay its own — and computes no metrics it would throw away
// (CuBE, MFSS, CoFE-RAG and the baselines read rag).
func TestJudgeSetsUnderTheirOwnName(t *testing.T) {
	wb := buildWorkbook(6)
	for i := range wb.Items {
		it := &wb.Items[i]
		it.SetAnswer("v2", fmt.Sprintf("新版回答：第%d号业务带身份证。", i+1))
		delete(it.Answers, dataset.SetRAG)
	}
	wb.Systems = []string{"v2", dataset.SetZero, dataset.SetFull}
	p := testProfile(profile.Endpoint{Name: LexicalJudge, Lexical: true})
	st := openStore(t, "")
	res, err := Run(context.Background(), wb, Options{Profile: p, Store: st, Offline: true, JudgeSets: []string{"v2"}})
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string]int{}
	for j := range res.Workbook.Scores.Values() {
		sets[j.Set]++
	}
	if sets["v2"] != 6*len(fourDims) || sets[dataset.SetRAG] != 0 || sets[dataset.SetZero] == 0 {
		t.Errorf("judgements by set %v: want %d of v2, none of rag", sets, 6*len(fourDims))
	}
	s := res.Summary
	if s.Result != nil || s.MFSS != nil || s.CoFE != nil || s.Baselines != nil {
		t.Errorf("metrics computed for a judging run: cube %v, mfss %v, cofe %v, baselines %v", s.Result != nil, s.MFSS != nil, s.CoFE != nil, s.Baselines != nil)
	}
}
