package retrieve

import (
	"context"
	"math"
	"sync"

	"cubeworkbench/core/chunk"
	"cubeworkbench/core/textmetric"
)

// BM25 parameters (formulas.md §3).
const (
	BM25K1 = 1.2
	BM25B  = 0.75
)

type posting struct {
	chunk int32
	tf    int32
}

// BM25 is an in-memory inverted index over chunks. Terms are
// textmetric.TokenizeChinese tokens for every text, Chinese or not: on text
// without Han it equals the English rule, and using one rule for queries and
// chunks means a mostly-English chunk and a Chinese query still share terms.
// It is safe for concurrent Search.
type BM25 struct {
	vocab    map[string]int32
	postings [][]posting // by term id, chunk ids ascending
	idf      []float64   // by term id
	norm     []float64   // by chunk: k1·(1−b+b·dl/avgdl)
	docIDs   []string
	pool     sync.Pool // *[]float64 accumulators, one per concurrent search
}

// NewBM25 indexes chunks; Hit.ChunkIndex refers to positions in chunks.
func NewBM25(chunks []chunk.Chunk) *BM25 {
	ix := &BM25{vocab: map[string]int32{}, docIDs: make([]string, len(chunks)), norm: make([]float64, len(chunks))}
	lengths := make([]int, len(chunks))
	total := 0
	tf := map[int32]int32{}
	for ci, c := range chunks {
		ix.docIDs[ci] = c.DocID
		clear(tf)
		toks := textmetric.TokenizeChinese(c.Text)
		for _, t := range toks {
			id, ok := ix.vocab[t]
			if !ok {
				id = int32(len(ix.postings))
				ix.vocab[t] = id
				ix.postings = append(ix.postings, nil)
			}
			tf[id]++
		}
		for id, n := range tf {
			ix.postings[id] = append(ix.postings[id], posting{int32(ci), n})
		}
		lengths[ci] = len(toks)
		total += len(toks)
	}
	avgdl := 1.0
	if len(chunks) > 0 && total > 0 {
		avgdl = float64(total) / float64(len(chunks))
	}
	for ci, dl := range lengths {
		ix.norm[ci] = BM25K1 * (1 - BM25B + BM25B*float64(dl)/avgdl)
	}
	n := float64(len(chunks))
	ix.idf = make([]float64, len(ix.postings))
	for id, p := range ix.postings {
		df := float64(len(p))
		ix.idf[id] = math.Log(1 + (n-df+0.5)/(df+0.5)) // Lucene: never negative
	}
	size := len(chunks)
	ix.pool.New = func() any { s := make([]float64, size); return &s }
	return ix
}

// Len is the number of indexed chunks.
func (ix *BM25) Len() int { return len(ix.docIDs) }

// Terms is the vocabulary size.
func (ix *BM25) Terms() int { return len(ix.postings) }

// Search scores every chunk sharing a term with the query. A term repeated
// in the query counts each time, as in Lucene's boolean query and rank_bm25.
func (ix *BM25) Search(ctx context.Context, query string, k int) ([]Hit, error) {
	if err := checkK(k); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if k == 0 || len(ix.docIDs) == 0 {
		return nil, nil
	}
	accp := ix.pool.Get().(*[]float64)
	acc := *accp
	defer ix.pool.Put(accp)
	var touched []int32
	for _, t := range textmetric.TokenizeChinese(query) {
		id, ok := ix.vocab[t]
		if !ok {
			continue
		}
		idf := ix.idf[id]
		for _, p := range ix.postings[id] {
			if acc[p.chunk] == 0 {
				touched = append(touched, p.chunk)
			}
			tf := float64(p.tf)
			acc[p.chunk] += idf * tf * (BM25K1 + 1) / (tf + ix.norm[p.chunk])
		}
	}
	top := newTopK(k)
	for _, c := range touched {
		top.offer(c, acc[c])
		acc[c] = 0
	}
	return ix.hits(top.sorted()), nil
}

func (ix *BM25) hits(s []scored) []Hit {
	out := make([]Hit, len(s))
	for i, c := range s {
		out[i] = Hit{ChunkIndex: int(c.idx), DocID: ix.docIDs[c.idx], Score: c.score}
	}
	return out
}
