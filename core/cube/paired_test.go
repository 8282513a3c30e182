package cube

import (
	"math"
	"testing"

	"cubeworkbench/core/dataset"
)

// On the identity resample a Replicator must give every figure of the
// full-sample Result — C_J, N_J and every N_Jk, including dimensions whose
// weight is 0 (which the bootstrap's own resampler leaves out) — and
// Recall@k.
func TestReplicatorIdentityMatchesResult(t *testing.T) {
	items, js := synth(300, []string{"a", "b", "c"}, DefaultDimensions, 11)
	for _, subset := range []string{SubsetRetrieved, SubsetAll} {
		cfg := DefaultConfig()
		cfg.BootstrapB = 0
		cfg.Subset = subset
		p, err := NewReplicator(items, dataset.ScoresOf(js...), cfg)
		if err != nil {
			t.Fatal(err)
		}
		res := p.Result()
		zeroWeight := false
		for _, jr := range res.Judges {
			for _, w := range jr.Weights {
				zeroWeight = zeroWeight || w == 0
			}
		}
		if !zeroWeight {
			t.Fatalf("%s: the data should give some dimension weight 0 for this test to mean something", subset)
		}
		idx := make([]int, p.Items())
		for i := range idx {
			idx[i] = i
		}
		out := p.NewReplicate()
		p.Eval(idx, out)
		if !out.RecallOK || math.Abs(out.Recall-*res.RecallAtK) > 1e-12 {
			t.Errorf("%s recall %v (%v), want %v", subset, out.Recall, out.RecallOK, *res.RecallAtK)
		}
		check := func(what string, got float64, ok bool, want *float64) {
			t.Helper()
			if want == nil {
				if ok {
					t.Errorf("%s %s: %v, want undefined", subset, what, got)
				}
				return
			}
			if !ok || math.Abs(got-*want) > 1e-9 {
				t.Errorf("%s %s: %v (%v), want %v", subset, what, got, ok, *want)
			}
		}
		for j, jr := range res.Judges {
			if p.Judges()[j] != jr.Judge {
				t.Fatalf("judge order %v", p.Judges())
			}
			check(jr.Judge+" cube", out.Cube[j], out.CubeOK[j], jr.Cube)
			check(jr.Judge+" weighted", out.Weighted[j], out.WeightedOK[j], jr.Normalized[Weighted])
			for k, d := range p.Dimensions() {
				check(jr.Judge+" "+d, out.Normalized[j][k], out.NormalizedOK[j][k], jr.Normalized[d])
			}
		}
	}
}

// ItemNormalized is the item's weighted rag score between the judge's
// full-sample weighted bounds: checked by hand on two items.
func TestReplicatorItemNormalized(t *testing.T) {
	items := []dataset.Item{
		{ID: "q1", DocID: "d1", Retrieved: []string{"d1"}},
		{ID: "q2", DocID: "d2", Retrieved: []string{"d2"}},
		{ID: "q3", DocID: "d3", Retrieved: []string{"d3"}},
	}
	var js []dataset.Judgement
	add := func(id, set, dim string, s float64) {
		js = append(js, dataset.Judgement{ItemID: id, Set: set, Judge: "j", Dimension: dim, Repeat: 1, Score: s, Status: dataset.StatusOK})
	}
	for _, id := range []string{"q1", "q2", "q3"} {
		add(id, "zero", "a", 2)
		add(id, "zero", "b", 2)
		add(id, "full", "a", 10)
		add(id, "full", "b", 10)
	}
	add("q1", "rag", "a", 6) // (6+4)/2 = 5 → 100·(5−2)/8 = 37.5
	add("q1", "rag", "b", 4)
	add("q2", "rag", "a", 10) // 10 → 100
	add("q2", "rag", "b", 10)
	add("q3", "rag", "a", 2) // b missing → undefined
	cfg := DefaultConfig()
	cfg.BootstrapB = 0
	cfg.Trim = 0
	cfg.Weights = WeightsEqual
	cfg.Dimensions = []string{"a", "b"}
	p, err := NewReplicator(items, dataset.ScoresOf(js...), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{37.5, 100, math.NaN()} {
		got, ok := p.ItemNormalized(0, i)
		if math.IsNaN(want) {
			if ok {
				t.Errorf("item %d: %v, want undefined", i, got)
			}
			continue
		}
		if !ok || math.Abs(got-want) > 1e-9 {
			t.Errorf("item %d: %v (%v), want %v", i, got, ok, want)
		}
	}
}
