package cube

import (
	"slices"

	"cubeworkbench/core/stats"
)

// resampler recomputes every judge's C_J on a bootstrap resample of the
// items. Scores are few distinct values (0–10 and means of repeats), so a
// resample is tallied per cell in one pass over its indices and each
// trimmed mean is read off the tallies (stats.TrimMeanCounts): O(n) per
// replicate instead of a sort per cell.
type resampler struct {
	trim      float64
	nJudges   int
	k         int
	goldKnown []bool
	retrieved []bool
	weights   [][]float64
	// bins[i*P+p] is item i's position among the sorted distinct values of
	// cell p = (judge·K + dimension)·3 + set, or −1 when the item is not in
	// that cell's analysis subset (or the dimension's weight is 0).
	bins   []int32
	p      int
	vals   [][]float64 // per cell, ascending distinct values
	counts [][]int     // per cell, reused tallies
	cube   []bool      // judges whose C_J is defined on the full sample
}

func (e *evaluation) newResampler(defined []bool) *resampler {
	n, K, J := len(e.items), len(e.dims), len(e.judges)
	r := &resampler{
		trim: e.cfg.Trim, nJudges: J, k: K, goldKnown: e.goldKnown,
		retrieved: make([]bool, n), weights: e.weights,
		p: J * K * 3, cube: defined,
	}
	for i := range n {
		r.retrieved[i] = e.rank[i] > 0
	}
	r.bins = make([]int32, n*r.p)
	for x := range r.bins {
		r.bins[x] = -1
	}
	r.vals = make([][]float64, r.p)
	r.counts = make([][]int, r.p)
	for j, c := range e.cells {
		for k := range K {
			if e.weights[j][k] == 0 {
				continue
			}
			for s := range 3 {
				p := (j*K+k)*3 + s
				var v []float64
				for _, i := range e.subset[j][k] {
					x, _ := c.score(s, k, i)
					v = append(v, x)
				}
				slices.Sort(v)
				v = slices.Compact(v)
				r.vals[p], r.counts[p] = v, make([]int, len(v))
				for _, i := range e.subset[j][k] {
					x, _ := c.score(s, k, i)
					b, _ := slices.BinarySearch(v, x)
					r.bins[i*r.p+p] = int32(b)
				}
			}
		}
	}
	return r
}

// stat fills out[j] = C_J for each judge, out[J] = the mean of the
// judges marked in r.cube and, when out has room, out[J+1+j] = judge j's
// paired gap W(full) − W(zero) on the resample (qualify.go).
func (r *resampler) stat(idx []int, out []float64, ok []bool) {
	for p := range r.counts {
		clear(r.counts[p])
	}
	known, hit := 0, 0
	for _, i := range idx {
		if r.goldKnown[i] {
			known++
			if r.retrieved[i] {
				hit++
			}
		}
		for p, b := range r.bins[i*r.p : (i+1)*r.p] {
			if b >= 0 {
				r.counts[p][b]++
			}
		}
	}
	gaps := len(out) > r.nJudges+1
	var recall float64
	if known > 0 {
		recall = float64(hit) / float64(known)
	}
	var sum float64
	all := true
	for j := range r.nJudges {
		// One pass over the tallies serves both C_J and the paired gap.
		w, defined := r.weightedTotals(j)
		if gaps {
			out[r.nJudges+1+j], ok[r.nJudges+1+j] = w[sFull]-w[sZero], defined
		}
		if known == 0 {
			continue
		}
		var c float64
		if defined {
			var n float64
			n, defined = bound(w[sRAG], w[sZero], w[sFull])
			c = n * recall
		}
		out[j], ok[j] = c, defined
		if r.cube[j] {
			sum += c
			all = all && defined
		}
	}
	if known == 0 {
		return
	}
	n := 0
	for _, d := range r.cube {
		if d {
			n++
		}
	}
	if n > 0 && all {
		out[r.nJudges], ok[r.nJudges] = sum/float64(n), true
	}
}

// weightedTotals is W_J(set) for the three sets on the current tallies.
func (r *resampler) weightedTotals(j int) ([3]float64, bool) {
	var w [3]float64
	for k, wk := range r.weights[j] {
		if wk == 0 {
			continue
		}
		for s := range 3 {
			p := (j*r.k+k)*3 + s
			t, ok := stats.TrimMeanCounts(r.vals[p], r.counts[p], r.trim)
			if !ok {
				return w, false
			}
			w[s] += wk * t
		}
	}
	return w, true
}

// booted keeps one bootstrap's replicates of every C_J, so that the
// interval of their mean is taken over the judges that qualified — known
// only after the gaps' intervals of the same resamples.
type booted struct {
	B     int
	cube  [][]float64 // [replicate][judge]
	ok    [][]bool
	gapCI []*[2]float64 // per judge; nil when undefined
}

// bootstrap adds the 95 % intervals of every C_J and returns the
// replicates and the intervals of the judges' paired gaps.
func (e *evaluation) bootstrap(res *Result) *booted {
	J := len(e.judges)
	b := &booted{B: e.cfg.BootstrapB, gapCI: make([]*[2]float64, J)}
	if e.cfg.BootstrapB == 0 || J == 0 {
		return b
	}
	defined := make([]bool, J)
	for j, jr := range res.Judges {
		defined[j] = jr.Cube != nil
	}
	r := e.newResampler(defined)
	keep := func(idx []int, out []float64, ok []bool) {
		r.stat(idx, out, ok)
		b.cube = append(b.cube, slices.Clone(out[:J]))
		b.ok = append(b.ok, slices.Clone(ok[:J]))
	}
	ci := stats.BootstrapMany(len(e.items), e.cfg.BootstrapB, e.cfg.Seed, 2*J+1, keep)
	for j := range res.Judges {
		if ci[j].OK && defined[j] {
			res.Judges[j].CubeCI95 = &[2]float64{ci[j].Lo, ci[j].Hi}
		}
		if g := ci[J+1+j]; g.OK {
			b.gapCI[j] = &[2]float64{g.Lo, g.Hi}
		}
	}
	return b
}

// meanCI sets the interval of the mean C_J across the judges that count
// (qualified, with a C_J on the full sample), from the kept replicates: a
// replicate counts when every such judge's C_J is defined in it, and the
// interval needs half of them, as stats.BootstrapMany does.
func (b *booted) meanCI(res *Result, counted []bool) {
	if b == nil || len(b.cube) == 0 {
		return
	}
	use := make([]bool, len(res.Judges))
	n := 0
	for j, jr := range res.Judges {
		use[j] = counted[j] && jr.Cube != nil
		if use[j] {
			n++
		}
	}
	if n == 0 {
		return
	}
	var reps []float64
	for x, row := range b.cube {
		var sum float64
		all := true
		for j, u := range use {
			if u {
				sum += row[j]
				all = all && b.ok[x][j]
			}
		}
		if all {
			reps = append(reps, sum/float64(n))
		}
	}
	if len(reps) < 2 || 2*len(reps) < b.B {
		return
	}
	slices.Sort(reps)
	lo, _ := stats.Quantile(reps, 0.025)
	hi, _ := stats.Quantile(reps, 0.975)
	res.Aggregate.CubeCI95 = &[2]float64{lo, hi}
}
