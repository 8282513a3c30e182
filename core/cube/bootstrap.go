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

// stat fills out[j] = C_J for each judge and out[J] = their mean.
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
	if known == 0 {
		return
	}
	recall := float64(hit) / float64(known)
	var sum float64
	all := true
	for j := range r.nJudges {
		c, defined := r.judgeCube(j, recall)
		out[j], ok[j] = c, defined
		if r.cube[j] {
			sum += c
			all = all && defined
		}
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

func (r *resampler) judgeCube(j int, recall float64) (float64, bool) {
	var w [3]float64
	for k, wk := range r.weights[j] {
		if wk == 0 {
			continue
		}
		for s := range 3 {
			p := (j*r.k+k)*3 + s
			t, ok := stats.TrimMeanCounts(r.vals[p], r.counts[p], r.trim)
			if !ok {
				return 0, false
			}
			w[s] += wk * t
		}
	}
	n, ok := bound(w[sRAG], w[sZero], w[sFull])
	return n * recall, ok
}

// bootstrap adds the 95 % intervals of every C_J and of their mean.
func (e *evaluation) bootstrap(res *Result) {
	if e.cfg.BootstrapB == 0 || len(e.judges) == 0 {
		return
	}
	defined := make([]bool, len(e.judges))
	for j, jr := range res.Judges {
		defined[j] = jr.Cube != nil
	}
	r := e.newResampler(defined)
	ci := stats.BootstrapMany(len(e.items), e.cfg.BootstrapB, e.cfg.Seed, len(e.judges)+1, r.stat)
	for j := range res.Judges {
		if ci[j].OK && defined[j] {
			res.Judges[j].CubeCI95 = &[2]float64{ci[j].Lo, ci[j].Hi}
		}
	}
	if last := ci[len(e.judges)]; last.OK {
		res.Aggregate.CubeCI95 = &[2]float64{last.Lo, last.Hi}
	}
}
