package stats

import (
	"math/rand/v2"
	"slices"
)

// CI is a percentile confidence interval with the number of bootstrap
// replicates in which the statistic was defined.
type CI struct {
	Lo, Hi float64
	Valid  int
	OK     bool
}

// Bootstrap is the percentile 95 % interval of one statistic over B
// resamples (with replacement) of n indices. See BootstrapMany.
func Bootstrap(n, B int, seed int64, stat func(idx []int) (float64, bool)) (lo, hi float64, ok bool) {
	ci := BootstrapMany(n, B, seed, 1, func(idx []int, out []float64, ok []bool) {
		out[0], ok[0] = stat(idx)
	})
	return ci[0].Lo, ci[0].Hi, ci[0].OK
}

// BootstrapMany computes m statistics on the same B resamples, so that
// several judges and their mean are resampled together and their intervals
// are comparable. The resampling uses math/rand/v2's PCG seeded from seed:
// the same inputs give the same interval on every run and platform.
//
// stat receives the resampled indices (a buffer reused between calls: do not
// keep it) and fills out[j], ok[j] for j < m. A replicate in which a
// statistic is undefined is dropped for that statistic; the interval is
// undefined when fewer than half of the B replicates (or fewer than two)
// are left, because the survivors would no longer be a sample of the
// statistic's distribution.
func BootstrapMany(n, B int, seed int64, m int, stat func(idx []int, out []float64, ok []bool)) []CI {
	res := make([]CI, m)
	if n < 1 || B < 1 || m < 1 {
		return res
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	idx := make([]int, n)
	out := make([]float64, m)
	ok := make([]bool, m)
	reps := make([][]float64, m)
	for j := range reps {
		reps[j] = make([]float64, 0, B)
	}
	for range B {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		clear(ok)
		stat(idx, out, ok)
		for j := range m {
			if ok[j] {
				reps[j] = append(reps[j], out[j])
			}
		}
	}
	for j, r := range reps {
		res[j].Valid = len(r)
		if len(r) < 2 || 2*len(r) < B {
			continue
		}
		slices.Sort(r)
		res[j].Lo, _ = Quantile(r, 0.025)
		res[j].Hi, _ = Quantile(r, 0.975)
		res[j].OK = true
	}
	return res
}
