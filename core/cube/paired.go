package cube

import (
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/stats"
)

// Replicator re-evaluates one CuBE evaluation on any resample of its items,
// with the same tallies, trimmed means and bounds as Evaluate's own
// bootstrap and the weights held at their full-sample values. It exists so
// that a comparison of two evaluations (core/compare) can resample both on
// the same item indices — a paired bootstrap — without a second CuBE.
//
// A Replicator is not safe for concurrent use: Eval reuses its tallies.
type Replicator struct {
	e   *evaluation
	r   *resampler
	res *Result
	out []float64
	ok  []bool
	// wZero, wFull are each judge's weighted bound totals W_J(zero), W_J(full).
	wZero, wFull []*float64
}

// Replicate is one resample's figures: Recall@k and, per judge in the
// order of Judges, C_J, N_J and N_Jk (dimensions in the order of
// Dimensions). A false OK means the figure is undefined on this resample
// (no gold document known, an empty cell, or the bounds collapse).
type Replicate struct {
	Recall         float64
	RecallOK       bool
	Cube           []float64
	CubeOK         []bool
	Weighted       []float64
	WeightedOK     []bool
	Normalized     [][]float64 // [judge][dimension]
	NormalizedOK   [][]bool
	judges, dimens int
}

// NewReplicator evaluates items and scores as Evaluate does (cfg.BootstrapB
// is honoured: pass 0 when the caller bootstraps itself) and prepares the
// resampling. Expert ratings play no part in a resample and are not taken.
func NewReplicator(items []dataset.Item, scores dataset.Scores, cfg Config) (*Replicator, error) {
	e, res, err := evaluate(items, scores, nil, cfg)
	if err != nil {
		return nil, err
	}
	defined := make([]bool, len(e.judges))
	for j := range defined {
		defined[j] = true
	}
	// The bootstrap's resampler leaves out the cells of zero-weight
	// dimensions, which C_J does not need; a comparison reports every N_Jk,
	// so the cells are built with every dimension in and the real weights
	// restored for C_J.
	all := *e
	all.weights = make([][]float64, len(e.weights))
	for j := range all.weights {
		all.weights[j] = make([]float64, len(e.dims))
		for k := range all.weights[j] {
			all.weights[j][k] = 1
		}
	}
	r := all.newResampler(defined)
	r.weights = e.weights
	p := &Replicator{e: e, r: r, res: res,
		out: make([]float64, len(e.judges)+1), ok: make([]bool, len(e.judges)+1)}
	for _, jr := range res.Judges {
		p.wZero = append(p.wZero, jr.TrimmedMeans[dataset.SetZero][Weighted])
		p.wFull = append(p.wFull, jr.TrimmedMeans[dataset.SetFull][Weighted])
	}
	return p, nil
}

// Result is the full-sample evaluation.
func (p *Replicator) Result() *Result { return p.res }

// Items is the number of items; Eval's indices run over [0, Items).
func (p *Replicator) Items() int { return len(p.e.items) }

// Judges names the judges in the order of a Replicate (sorted, as in Result.Judges).
func (p *Replicator) Judges() []string { return p.e.judges }

// Dimensions names the dimensions in the order of a Replicate.
func (p *Replicator) Dimensions() []string { return p.e.dims }

// NewReplicate allocates a Replicate sized for this evaluation.
func (p *Replicator) NewReplicate() *Replicate {
	J, K := len(p.e.judges), len(p.e.dims)
	out := &Replicate{Cube: make([]float64, J), CubeOK: make([]bool, J),
		Weighted: make([]float64, J), WeightedOK: make([]bool, J),
		Normalized: make([][]float64, J), NormalizedOK: make([][]bool, J), judges: J, dimens: K}
	for j := range J {
		out.Normalized[j] = make([]float64, K)
		out.NormalizedOK[j] = make([]bool, K)
	}
	return out
}

// Eval computes the figures on the items at idx (repeats allowed, as in a
// bootstrap resample) into out, which must come from NewReplicate.
func (p *Replicator) Eval(idx []int, out *Replicate) {
	r := p.r
	clear(p.ok)
	r.stat(idx, p.out, p.ok) // tallies every cell and computes C_J
	known, hit := 0, 0
	for _, i := range idx {
		if r.goldKnown[i] {
			known++
			if r.retrieved[i] {
				hit++
			}
		}
	}
	out.RecallOK = known > 0
	out.Recall = 0
	if known > 0 {
		out.Recall = float64(hit) / float64(known)
	}
	for j := range out.judges {
		out.Cube[j], out.CubeOK[j] = p.out[j], p.ok[j]
		var w [3]float64
		wOK := true
		for k := range out.dimens {
			var t [3]float64
			cellOK := true
			for s := range 3 {
				c := (j*r.k+k)*3 + s
				var ok bool
				t[s], ok = stats.TrimMeanCounts(r.vals[c], r.counts[c], r.trim)
				cellOK = cellOK && ok
			}
			out.Normalized[j][k], out.NormalizedOK[j][k] = 0, false
			if cellOK {
				out.Normalized[j][k], out.NormalizedOK[j][k] = bound(t[sRAG], t[sZero], t[sFull])
			}
			if wk := r.weights[j][k]; wk != 0 {
				if !cellOK {
					wOK = false
				}
				for s := range 3 {
					w[s] += wk * t[s]
				}
			}
		}
		out.Weighted[j], out.WeightedOK[j] = 0, false
		if wOK {
			out.Weighted[j], out.WeightedOK[j] = bound(w[sRAG], w[sZero], w[sFull])
		}
	}
}

// ItemNormalized is item i's rag answer as judge j sees it, on the judge's
// 0–100 scale between the full-sample bounds: 100·(Σ_k w_k·s_ik(rag) −
// W_J(zero)) / (W_J(full) − W_J(zero)). False when a dimension with
// positive weight has no ok score for the item, or the bounds collapse.
func (p *Replicator) ItemNormalized(j, i int) (float64, bool) {
	if p.wZero[j] == nil || p.wFull[j] == nil {
		return 0, false
	}
	c := p.e.cells[j]
	var s float64
	for k, wk := range p.e.weights[j] {
		if wk == 0 {
			continue
		}
		v, ok := c.score(sRAG, k, i)
		if !ok {
			return 0, false
		}
		s += wk * v
	}
	return bound(s, *p.wZero[j], *p.wFull[j])
}
