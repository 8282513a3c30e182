package engine

import (
	"context"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
)

// TestTwoOfflineJudges: the lexical and the semantic baseline judge run
// side by side with no endpoint; the plan counts no call for either, each
// is recorded under its own kind, and the headline is the mean of two
// judges' CuBE scores.
func TestTwoOfflineJudges(t *testing.T) {
	wb := buildWorkbook(8)
	p := testProfile(profile.Endpoint{Name: LexicalJudge, Lexical: true}, profile.Endpoint{Name: SemanticJudge, Semantic: true})
	p.CoFE.Generation = false
	for _, s := range Plan(wb, p).Steps {
		if s.Step == StepJudge {
			t.Errorf("plan: %s would make %d judge calls; an offline judge makes none", s.Label, s.Calls)
		}
	}
	res, err := Run(context.Background(), wb, Options{Profile: p, Store: openStore(t, ""), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, j := range res.Summary.Run.Judges {
		kinds[j.Name] = j.Kind
	}
	if kinds[LexicalJudge] != "lexical" || kinds[SemanticJudge] != "semantic" || len(kinds) != 2 {
		t.Errorf("judges recorded as %v", kinds)
	}
	scored := map[string]int{}
	for j := range res.Workbook.Scores.Values() {
		if j.Status == dataset.StatusOK {
			scored[j.Judge]++
		}
	}
	// 8 items × 3 sets × 4 dimensions each.
	if scored[LexicalJudge] != 96 || scored[SemanticJudge] != 96 {
		t.Errorf("ok judgements per judge: %v, want 96 each", scored)
	}
	if c := res.Summary.Aggregate.Cube; c.N != 2 || c.Mean == nil || c.SD == nil {
		t.Errorf("aggregate CuBE %+v, want the mean ± SD of 2 judges", c)
	}
}
