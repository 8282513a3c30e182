package cube

import (
	"math"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/stat"

	"cubeworkbench/core/dataset"
)

// TestAgainstIndependentRecomputation checks Evaluate's correlation weights
// and CuBE scores against a straightforward recomputation written apart from
// the package: gonum's correlation, a sort-and-slice trimmed mean, maps
// instead of flat arrays.
func TestAgainstIndependentRecomputation(t *testing.T) {
	judges := []string{"j-beta", "j-alpha"}
	items, js := synth(400, judges, DefaultDimensions, 5)
	cfg := DefaultConfig()
	cfg.BootstrapB = 0
	res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}

	type key struct{ item, set, judge, dim string }
	sum, cnt := map[key]float64{}, map[key]float64{}
	for _, j := range js {
		if j.Status == dataset.StatusOK {
			k := key{j.ItemID, j.Set, j.Judge, j.Dimension}
			sum[k] += j.Score
			cnt[k]++
		}
	}
	score := func(item, set, judge, dim string) (float64, bool) {
		k := key{item, set, judge, dim}
		return sum[k] / cnt[k], cnt[k] > 0
	}
	rankScore := map[string]float64{}
	rank := map[string]int{}
	known, hit := 0, 0
	for _, it := range items {
		if it.DocID == "" {
			continue
		}
		known++
		pos := slices.Index(it.Retrieved[:min(8, len(it.Retrieved))], it.DocID)
		rank[it.ID] = pos + 1
		if pos >= 0 {
			hit++
			rankScore[it.ID] = float64(8 + 2 - (pos + 1))
			if len(it.Retrieved) == 1 {
				rankScore[it.ID]++
			}
		} else {
			rankScore[it.ID] = 0
		}
	}
	recall := float64(hit) / float64(known)
	trim := func(v []float64) float64 {
		s := append([]float64(nil), v...)
		sort.Float64s(s)
		c := int(0.1 * float64(len(s)))
		return stat.Mean(s[c:len(s)-c], nil)
	}

	if len(res.Judges) != 2 || res.Judges[0].Judge != "j-alpha" {
		t.Fatalf("judges not sorted: %v", res.Judges)
	}
	for _, jr := range res.Judges {
		var r []float64
		for _, d := range DefaultDimensions {
			var x, y []float64
			for _, it := range items {
				if v, ok := score(it.ID, "rag", jr.Judge, d); ok && it.DocID != "" {
					x, y = append(x, rankScore[it.ID]), append(y, v)
				}
			}
			r = append(r, stat.Correlation(x, y, nil))
		}
		var pos float64
		for _, v := range r {
			pos += math.Max(v, 0)
		}
		var wz, wr, wf float64
		for k, d := range DefaultDimensions {
			w := math.Max(r[k], 0) / pos
			if math.Abs(jr.Weights[d]-w) > 1e-12 {
				t.Errorf("%s %s: weight %v, independent %v", jr.Judge, d, jr.Weights[d], w)
			}
			var z, g, f []float64
			for _, it := range items {
				zv, ok1 := score(it.ID, "zero", jr.Judge, d)
				gv, ok2 := score(it.ID, "rag", jr.Judge, d)
				fv, ok3 := score(it.ID, "full", jr.Judge, d)
				if ok1 && ok2 && ok3 && rank[it.ID] > 0 {
					z, g, f = append(z, zv), append(g, gv), append(f, fv)
				}
			}
			wz, wr, wf = wz+w*trim(z), wr+w*trim(g), wf+w*trim(f)
		}
		if r[3] > 0 {
			t.Errorf("synthetic quality correlation %v should be ≤ 0 to exercise the clamp", r[3])
		}
		c := 100 * (wr - wz) / (wf - wz) * recall
		if jr.Cube == nil || math.Abs(*jr.Cube-c) > 1e-9 {
			t.Errorf("%s: CuBE %v, independent %v", jr.Judge, deref(jr.Cube), c)
		}
	}
}
