package cube

import (
	"fmt"
	"math"
	"math/rand/v2"

	"cubeworkbench/core/dataset"
)

// synth builds a plausible evaluation: n items (1 in 12 without gold, about
// 80 % retrieved at varying ranks), the three sets scored by every judge on
// every dimension, the rag score rising with the rank score by a
// dimension-specific amount, zero below and full above, 1 % of replies
// unscorable. Judges differ by a bias.
func synth(n int, judges, dims []string, seed uint64) ([]dataset.Item, []dataset.Judgement) {
	rng := rand.New(rand.NewPCG(seed, 99))
	items := make([]dataset.Item, n)
	rs := make([]float64, n)
	for i := range items {
		id := fmt.Sprintf("q%05d", i)
		gold := fmt.Sprintf("g%05d", i)
		if i%12 == 11 {
			gold = ""
		}
		var ret []string
		switch u := rng.Float64(); {
		case u < 0.05 && gold != "":
			ret = []string{gold}
			rs[i] = 10
		case u < 0.8 && gold != "":
			pos := rng.IntN(8)
			for p := range 8 {
				if p == pos {
					ret = append(ret, gold)
				} else {
					ret = append(ret, fmt.Sprintf("x%d", rng.IntN(n)))
				}
			}
			rs[i] = float64(10 - (pos + 1))
		default:
			for range 8 {
				ret = append(ret, fmt.Sprintf("x%d", rng.IntN(n)))
			}
		}
		items[i] = dataset.Item{ID: id, DocID: gold, Retrieved: ret}
	}
	clamp := func(v float64) float64 { return math.Max(0, math.Min(10, math.Round(v))) }
	var js []dataset.Judgement
	for jn, judge := range judges {
		bias := 0.3 * float64(jn)
		for k, dim := range dims {
			slope := []float64{0.25, 0.15, 0.08, -0.02, 0.1}[k%5]
			for i := range items {
				base := 5 + rng.NormFloat64()
				scores := [3]float64{
					clamp(base - 0.5 + bias + rng.NormFloat64()),                   // zero
					clamp(base + 0.8 + bias + slope*rs[i] + 0.8*rng.NormFloat64()), // rag
					clamp(base + 2.5 + bias + 0.8*rng.NormFloat64()),               // full
				}
				for s, set := range setNames {
					jd := dataset.Judgement{ItemID: items[i].ID, Set: set, Judge: judge, Dimension: dim, Repeat: 1, Score: scores[s], Status: dataset.StatusOK}
					if rng.IntN(100) == 0 {
						jd.Status, jd.Score, jd.Raw, jd.Reason = dataset.StatusUnscorable, 0, "n/a", "no number"
					}
					js = append(js, jd)
				}
			}
		}
	}
	return items, js
}
