package retrieve

import (
	"context"
	"fmt"
	"sort"
)

// RRFK is the constant of reciprocal-rank fusion (formulas.md §3).
const RRFK = 60

// HybridDepth is how deep each fused list is read: fusing only the top k of
// each would drop a chunk ranked k+1 by both retrievers, which RRF would
// rank high.
const HybridDepth = 100

// Hybrid fuses several retrievers by reciprocal rank: score = Σ 1/(60+rank),
// rank counted from 1 in each list.
type Hybrid struct{ parts []Retriever }

// NewHybrid fuses the given retrievers (usually BM25 and Dense).
func NewHybrid(parts ...Retriever) *Hybrid { return &Hybrid{parts} }

// Search runs every part and fuses their lists. Ties (equal fused score)
// break towards the lower chunk index.
func (h *Hybrid) Search(ctx context.Context, query string, k int) ([]Hit, error) {
	if err := checkK(k); err != nil {
		return nil, err
	}
	if k == 0 {
		return nil, nil
	}
	depth := max(k, HybridDepth)
	fused := map[int]*Hit{}
	for i, p := range h.parts {
		hits, err := p.Search(ctx, query, depth)
		if err != nil {
			return nil, fmt.Errorf("retrieve: hybrid part %d: %w", i, err)
		}
		for rank, hit := range hits {
			f, ok := fused[hit.ChunkIndex]
			if !ok {
				f = &Hit{ChunkIndex: hit.ChunkIndex, DocID: hit.DocID}
				fused[hit.ChunkIndex] = f
			}
			f.Score += 1 / float64(RRFK+rank+1)
		}
	}
	out := make([]Hit, 0, len(fused))
	for _, f := range fused {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ChunkIndex < out[j].ChunkIndex
	})
	if len(out) > k {
		out = out[:k]
	}
	return out, nil
}
