package cube

import (
	"math"
	"testing"

	"cubeworkbench/core/dataset"
)

// On the identity "resample" the fast tally path must reproduce the point
// estimates computed with sorting.
func TestResamplerIdentityMatchesPoint(t *testing.T) {
	items, js := synth(300, []string{"a", "b", "c"}, DefaultDimensions, 11)
	for _, subset := range []string{SubsetRetrieved, SubsetAll} {
		cfg := DefaultConfig()
		cfg.BootstrapB = 0
		cfg.Subset = subset
		e, res, err := evaluate(items, dataset.ScoresOf(js...), nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defined := make([]bool, len(res.Judges))
		for j, jr := range res.Judges {
			defined[j] = jr.Cube != nil
		}
		r := e.newResampler(defined)
		idx := make([]int, len(items))
		for i := range idx {
			idx[i] = i
		}
		out := make([]float64, len(res.Judges)+1)
		ok := make([]bool, len(out))
		r.stat(idx, out, ok)
		for j, jr := range res.Judges {
			if !ok[j] || jr.Cube == nil || math.Abs(out[j]-*jr.Cube) > 1e-9 {
				t.Errorf("%s judge %s: tally %v (%v), point %v", subset, jr.Judge, out[j], ok[j], deref(jr.Cube))
			}
		}
		last := len(res.Judges)
		if !ok[last] || !near(res.Aggregate.Cube.Mean, out[last]) {
			t.Errorf("%s mean: tally %v, point %v", subset, out[last], deref(res.Aggregate.Cube.Mean))
		}
	}
}

func TestBootstrapIntervals(t *testing.T) {
	items, js := synth(300, []string{"a", "b"}, DefaultDimensions, 3)
	cfg := DefaultConfig()
	cfg.BootstrapB = 300
	run := func(seed int64) *Result {
		cfg.Seed = seed
		res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	r1, r2, r3 := run(7), run(7), run(8)
	for j, jr := range r1.Judges {
		ci := jr.CubeCI95
		if ci == nil || *ci != *r2.Judges[j].CubeCI95 {
			t.Fatalf("judge %s: CI %v vs %v with the same seed", jr.Judge, ci, r2.Judges[j].CubeCI95)
		}
		if !(ci[0] < *jr.Cube && *jr.Cube < ci[1]) {
			t.Errorf("judge %s: CI %v does not hold C = %v", jr.Judge, *ci, *jr.Cube)
		}
		if *ci == *r3.Judges[j].CubeCI95 {
			t.Errorf("judge %s: another seed gave the same CI", jr.Judge)
		}
	}
	ag := r1.Aggregate
	if ag.CubeCI95 == nil || !(ag.CubeCI95[0] < *ag.Cube.Mean && *ag.Cube.Mean < ag.CubeCI95[1]) {
		t.Fatalf("aggregate CI %v around %v", ag.CubeCI95, deref(ag.Cube.Mean))
	}
	// The mean of two judges resampled together varies no more than the
	// wider of the two.
	w := func(ci *[2]float64) float64 { return ci[1] - ci[0] }
	if w(ag.CubeCI95) > math.Max(w(r1.Judges[0].CubeCI95), w(r1.Judges[1].CubeCI95))+1e-9 {
		t.Errorf("mean CI %v wider than both judges' %v %v", *ag.CubeCI95, *r1.Judges[0].CubeCI95, *r1.Judges[1].CubeCI95)
	}
}
