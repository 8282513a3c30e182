package cube

import (
	"math"
	"slices"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/stats"
)

// The oracle of CuBE's bootstrap is its resampler as it was before issue
// 27 (commit aaac945), kept here verbatim but for its name: one tally per
// resampled index over every cell, on one goroutine through
// stats.BootstrapMany. TestBootstrapMatchesOracle compares the new one
// with it, replicate by replicate, to the bit.

type oldResampler struct {
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

func (e *evaluation) oldNewResampler(defined []bool) *oldResampler {
	n, K, J := len(e.items), len(e.dims), len(e.judges)
	r := &oldResampler{
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
func (r *oldResampler) stat(idx []int, out []float64, ok []bool) {
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
func (r *oldResampler) weightedTotals(j int) ([3]float64, bool) {
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

// oldBootstrap is bootstrap at aaac945 with the resampler above.
func (e *evaluation) oldBootstrap(res *Result) *booted {
	J := len(e.judges)
	b := &booted{B: e.cfg.BootstrapB, gapCI: make([]*[2]float64, J)}
	if e.cfg.BootstrapB == 0 || J == 0 {
		return b
	}
	defined := make([]bool, J)
	for j, jr := range res.Judges {
		defined[j] = jr.Cube != nil
	}
	r := e.oldNewResampler(defined)
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

func TestBootstrapMatchesOracle(t *testing.T) {
	type tc struct {
		name   string
		n      int
		judges []string
		dims   []string
		seed   uint64
		edit   func(*Config)
	}
	cases := []tc{
		{"retrieved", 400, []string{"a", "b"}, DefaultDimensions, 1, func(*Config) {}},
		{"all, trim 0.2", 300, []string{"a", "b", "c"}, DefaultDimensions, 2, func(c *Config) { c.Subset, c.Trim = SubsetAll, 0.2 }},
		{"no trim, equal weights", 250, []string{"a"}, DefaultDimensions, 3, func(c *Config) { c.Trim, c.Weights = 0, WeightsEqual }},
		{"tiny", 9, []string{"a", "b"}, DefaultDimensions[:2], 4, func(*Config) {}},
		{"four judges", 600, []string{"j1", "j2", "j3", "j4"}, DefaultDimensions, 5, func(c *Config) { c.Seed = -3 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			items, js := synth(c.n, c.judges, c.dims, c.seed)
			cfg := DefaultConfig()
			c.edit(&cfg)
			cfg.BootstrapB = 0
			e, res, err := evaluate(items, dataset.ScoresOf(js...), nil, cfg)
			if err != nil {
				t.Fatal(err)
			}
			e.cfg.BootstrapB = 301
			oldRes, newRes := *res, *res
			oldRes.Judges, newRes.Judges = slices.Clone(res.Judges), slices.Clone(res.Judges)
			want, got := e.oldBootstrap(&oldRes), e.bootstrap(&newRes)
			if len(got.cube) != len(want.cube) || len(want.cube) != 301 {
				t.Fatalf("%d replicates, want %d", len(got.cube), len(want.cube))
			}
			for x := range want.cube {
				for j := range want.cube[x] {
					if got.ok[x][j] != want.ok[x][j] || want.ok[x][j] && math.Float64bits(got.cube[x][j]) != math.Float64bits(want.cube[x][j]) {
						t.Fatalf("replicate %d judge %d: %v (%v), want %v (%v)", x, j, got.cube[x][j], got.ok[x][j], want.cube[x][j], want.ok[x][j])
					}
				}
			}
			for j := range res.Judges {
				if !sameInterval(got.gapCI[j], want.gapCI[j]) || !sameInterval(newRes.Judges[j].CubeCI95, oldRes.Judges[j].CubeCI95) {
					t.Errorf("judge %d: CI %v gap %v, want %v %v", j, newRes.Judges[j].CubeCI95, got.gapCI[j], oldRes.Judges[j].CubeCI95, want.gapCI[j])
				}
			}
			counted := make([]bool, len(res.Judges))
			for j := range counted {
				counted[j] = true
			}
			oldRes.Aggregate, newRes.Aggregate = Aggregate{}, Aggregate{}
			want.meanCI(&oldRes, counted)
			got.meanCI(&newRes, counted)
			if !sameInterval(newRes.Aggregate.CubeCI95, oldRes.Aggregate.CubeCI95) {
				t.Errorf("mean CI %v, want %v", newRes.Aggregate.CubeCI95, oldRes.Aggregate.CubeCI95)
			}
		})
	}
}

func sameInterval(a, b *[2]float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return math.Float64bits(a[0]) == math.Float64bits(b[0]) && math.Float64bits(a[1]) == math.Float64bits(b[1])
}
