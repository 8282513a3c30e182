package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// oldBootstrapMany is BootstrapMany as it was before issue 27 (one
// goroutine, one out buffer): the oracle of BootstrapReplicates.
func oldBootstrapMany(n, B int, seed int64, m int, stat func(idx []int, out []float64, ok []bool)) ([]CI, [][]float64) {
	res := make([]CI, m)
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	idx := make([]int, n)
	out := make([]float64, m)
	ok := make([]bool, m)
	reps := make([][]float64, m)
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
	kept := make([][]float64, m)
	for j, r := range reps {
		kept[j] = slices.Clone(r)
		res[j].Valid = len(r)
		if len(r) < 2 || 2*len(r) < B {
			continue
		}
		slices.Sort(r)
		res[j].Lo, _ = Quantile(r, 0.025)
		res[j].Hi, _ = Quantile(r, 0.975)
		res[j].OK = true
	}
	return res, kept
}

// TestBootstrapReplicatesMatchSequential: on any number of goroutines the
// replicates are the sequential ones, in order, to the bit, and so are
// the intervals; BootstrapMany is unchanged.
func TestBootstrapReplicatesMatchSequential(t *testing.T) {
	data := make([]float64, 257)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = math.Round(rng.NormFloat64()*30) / 7
	}
	// Three statistics: the mean, a trimmed mean defined on about 4 of 5
	// resamples, and a sum of squares defined on half of them or fewer.
	newStat := func() Stat {
		buf := make([]float64, len(data))
		return func(idx []int, out []float64, ok []bool) {
			var sum, sq float64
			for k, i := range idx {
				buf[k] = data[i]
				sum += data[i]
				sq += data[i] * data[i]
			}
			out[0], ok[0] = sum/float64(len(idx)), true
			if idx[0]%5 != 0 {
				out[1], ok[1] = TrimMean(buf, 0.1)
			}
			if idx[1]%2 == 0 {
				out[2], ok[2] = sq, true
			}
		}
	}
	for _, c := range []struct {
		B    int
		seed int64
	}{{1, 3}, {2, 4}, {500, 42}, {1001, -7}} {
		want, wantReps := oldBootstrapMany(len(data), c.B, c.seed, 3, newStat())
		if got := BootstrapMany(len(data), c.B, c.seed, 3, newStat()); !sameCIs(got, want) {
			t.Errorf("B %d: BootstrapMany %+v, want %+v", c.B, got, want)
		}
		for _, w := range []int{1, 2, 3, 8} {
			r := BootstrapReplicates(len(data), c.B, c.seed, 3, w, newStat)
			if got := r.CIs(); !sameCIs(got, want) {
				t.Errorf("B %d on %d goroutines: %+v, want %+v", c.B, w, got, want)
			}
			for j := range 3 {
				var reps []float64
				for b := range r.B {
					out, ok := r.Row(b)
					if ok[j] {
						reps = append(reps, out[j])
					}
				}
				if !slices.Equal(reps, wantReps[j]) {
					t.Fatalf("B %d on %d goroutines: statistic %d's replicates differ from the sequential ones", c.B, w, j)
				}
			}
		}
	}
}

func sameCIs(a, b []CI) bool {
	if len(a) != len(b) {
		return false
	}
	for j := range a {
		if a[j].OK != b[j].OK || a[j].Valid != b[j].Valid ||
			math.Float64bits(a[j].Lo) != math.Float64bits(b[j].Lo) || math.Float64bits(a[j].Hi) != math.Float64bits(b[j].Hi) {
			return false
		}
	}
	return true
}
