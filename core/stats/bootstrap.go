package stats

import (
	"math/rand/v2"
	"slices"
	"sync"
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
	if n < 1 || B < 1 || m < 1 {
		return make([]CI, max(m, 0))
	}
	return BootstrapReplicates(n, B, seed, m, 1, func() Stat { return stat }).CIs()
}

// Stat computes m statistics on one resample's indices (a buffer: do not
// keep it) into out and ok, which hold m values each; see BootstrapMany.
type Stat func(idx []int, out []float64, ok []bool)

// Replicates are every statistic on every resample: replicate b's
// statistic j is Out[b*M+j], defined when OK[b*M+j].
type Replicates struct {
	B, M int
	Out  []float64
	OK   []bool
}

// Row is replicate b's statistics and whether each is defined.
func (r Replicates) Row(b int) ([]float64, []bool) {
	return r.Out[b*r.M : (b+1)*r.M : (b+1)*r.M], r.OK[b*r.M : (b+1)*r.M : (b+1)*r.M]
}

// BootstrapReplicates draws BootstrapMany's B resamples of n indices, from
// the same stream in the same order, and computes the statistics of each
// on up to workers goroutines. newStat is called once per goroutine, from
// the caller's goroutine before any resample is drawn, and returns a Stat
// with buffers of its own. Replicate b sees the indices BootstrapMany's b-th
// call sees, so the replicates and their intervals are the same to the
// bit whatever workers is. A Stat must set out[j] wherever it sets ok[j]:
// out starts at 0 on more than one goroutine, and at the last replicate's
// values on one, as BootstrapMany's buffer did.
func BootstrapReplicates(n, B int, seed int64, m, workers int, newStat func() Stat) Replicates {
	r := Replicates{B: max(B, 0), M: max(m, 0)}
	if n < 1 || B < 1 || m < 1 {
		return r
	}
	r.Out, r.OK = make([]float64, B*m), make([]bool, B*m)
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	draw := func(idx []int) {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
	}
	workers = min(workers, B)
	if workers <= 1 {
		stat := newStat()
		idx := make([]int, n)
		for b := range B {
			draw(idx)
			out, ok := r.Row(b)
			if b > 0 {
				copy(out, r.Out[(b-1)*m:b*m])
			}
			stat(idx, out, ok)
		}
		return r
	}
	// The stream is drawn here, in order; the statistics, which cost the
	// most, run beside it. Each resample's buffer comes back when done.
	type job struct {
		b   int
		idx []int
	}
	jobs := make(chan job, workers)
	free := make(chan []int, workers+2)
	for range workers + 2 {
		free <- make([]int, n)
	}
	var wg sync.WaitGroup
	for range workers {
		stat := newStat()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				out, ok := r.Row(j.b)
				stat(j.idx, out, ok)
				free <- j.idx
			}
		}()
	}
	for b := range B {
		idx := <-free
		draw(idx)
		jobs <- job{b, idx}
	}
	close(jobs)
	wg.Wait()
	return r
}

// CIs are the percentile 95 % intervals of the M statistics, as
// BootstrapMany returns them.
func (r Replicates) CIs() []CI {
	res := make([]CI, r.M)
	if r.B < 1 || len(r.Out) == 0 {
		return res
	}
	reps := make([]float64, 0, r.B)
	for j := range res {
		reps = reps[:0]
		for b := range r.B {
			if x := b*r.M + j; r.OK[x] {
				reps = append(reps, r.Out[x])
			}
		}
		res[j].Valid = len(reps)
		if len(reps) < 2 || 2*len(reps) < r.B {
			continue
		}
		slices.Sort(reps)
		res[j].Lo, _ = Quantile(reps, 0.025)
		res[j].Hi, _ = Quantile(reps, 0.975)
		res[j].OK = true
	}
	return res
}
