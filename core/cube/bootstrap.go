package cube

import (
	"runtime"
	"slices"

	"cubeworkbench/core/stats"
)

// resampler recomputes every judge's C_J on a bootstrap resample of the
// items. Scores are few distinct values (0–10 and means of repeats), so a
// resample is tallied per cell and each trimmed mean is read off the
// tallies (stats.TrimMeanCounts): O(n) per replicate instead of a sort per
// cell. The tally counts how often each item was drawn, then adds that
// multiplicity once per cell the item is in: the same integers as adding
// one per draw, from one pass in item order over a compact list of cells.
type resampler struct {
	trim      float64
	nJudges   int
	k         int
	goldKnown []bool
	retrieved []bool
	weights   [][]float64
	// Item i's tallies are slots[rowStart[i]:rowStart[i+1]]: indexes into
	// flat, one for each cell p = (judge·K + dimension)·3 + set whose
	// analysis subset holds the item (and whose dimension's weight is not
	// 0), at the item's position among the cell's sorted distinct values.
	rowStart []int32
	slots    []int32
	p        int
	vals     [][]float64 // per cell, ascending distinct values
	cube     []bool      // judges whose C_J is defined on the full sample
	// One goroutine's buffers (clone gives another's).
	flat   []int
	counts [][]int // per cell, its tallies: a window on flat
	mult   []int32 // times each item is in the resample
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
	bins := make([]int32, n*r.p) // bins[i*P+p]: item i's slot in cell p, or −1
	for x := range bins {
		bins[x] = -1
	}
	r.vals = make([][]float64, r.p)
	off := int32(0)
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
				r.vals[p] = v
				for _, i := range e.subset[j][k] {
					x, _ := c.score(s, k, i)
					b, _ := slices.BinarySearch(v, x)
					bins[i*r.p+p] = off + int32(b)
				}
				off += int32(len(v))
			}
		}
	}
	r.rowStart = make([]int32, n+1)
	for i := range n {
		for _, b := range bins[i*r.p : (i+1)*r.p] {
			if b >= 0 {
				r.slots = append(r.slots, b)
			}
		}
		r.rowStart[i+1] = int32(len(r.slots))
	}
	r.buffers(int(off))
	return r
}

// buffers gives r tallies of its own for size slots.
func (r *resampler) buffers(size int) {
	r.flat = make([]int, size)
	r.counts = make([][]int, r.p)
	at := 0
	for p, v := range r.vals {
		r.counts[p] = r.flat[at : at+len(v) : at+len(v)]
		at += len(v)
	}
	r.mult = make([]int32, len(r.retrieved))
}

// clone is r with buffers of its own, for another goroutine.
func (r *resampler) clone() *resampler {
	c := *r
	c.buffers(len(r.flat))
	return &c
}

// stat fills out[j] = C_J for each judge, out[J] = the mean of the
// judges marked in r.cube and, when out has room, out[J+1+j] = judge j's
// paired gap W(full) − W(zero) on the resample (qualify.go).
func (r *resampler) stat(idx []int, out []float64, ok []bool) {
	clear(r.mult)
	for _, i := range idx {
		r.mult[i]++
	}
	clear(r.flat)
	known, hit := 0, 0
	for i, m := range r.mult {
		if m == 0 {
			continue
		}
		if r.goldKnown[i] {
			known += int(m)
			if r.retrieved[i] {
				hit += int(m)
			}
		}
		for _, g := range r.slots[r.rowStart[i]:r.rowStart[i+1]] {
			r.flat[g] += int(m)
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
	first := true
	newStat := func() stats.Stat { // r for the first goroutine, a clone for each other
		if first {
			first = false
			return r.stat
		}
		return r.clone().stat
	}
	reps := stats.BootstrapReplicates(len(e.items), e.cfg.BootstrapB, e.cfg.Seed, 2*J+1, runtime.GOMAXPROCS(0), newStat)
	for x := range reps.B {
		out, ok := reps.Row(x)
		b.cube, b.ok = append(b.cube, out[:J:J]), append(b.ok, ok[:J:J])
	}
	ci := reps.CIs()
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
