package retrieve

import (
	"container/heap"
	"context"
	"fmt"
)

// Hit is one retrieved chunk: its position in the chunk slice the index was
// built from, its document, and the retriever's score (higher is better;
// scores of different retrievers are not comparable).
type Hit struct {
	ChunkIndex int
	DocID      string
	Score      float64
}

// Retriever returns at most k hits for a query, best first.
type Retriever interface {
	Search(ctx context.Context, query string, k int) ([]Hit, error)
}

// Retriever names accepted by the profile (cofe.retriever).
const (
	NameBM25   = "bm25"
	NameDense  = "dense"
	NameHybrid = "hybrid"
)

// scored is a candidate in a top-k heap. Ties break towards the lower chunk
// index so results are deterministic.
type scored struct {
	idx   int32
	score float64
}

// worse reports whether a ranks below b.
func worse(a, b scored) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return a.idx > b.idx
}

// minHeap keeps the k best candidates with the worst at the root.
type minHeap []scored

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return worse(h[i], h[j]) }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// topK collects the k best candidates offered to it.
type topK struct {
	k int
	h minHeap
}

func newTopK(k int) *topK { return &topK{k: k, h: make(minHeap, 0, k)} }

func (t *topK) offer(idx int32, score float64) {
	c := scored{idx, score}
	if len(t.h) < t.k {
		heap.Push(&t.h, c)
		return
	}
	if worse(t.h[0], c) {
		t.h[0] = c
		heap.Fix(&t.h, 0)
	}
}

// sorted returns the candidates best first.
func (t *topK) sorted() []scored {
	out := make([]scored, len(t.h))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&t.h).(scored)
	}
	return out
}

func checkK(k int) error {
	if k < 0 {
		return fmt.Errorf("retrieve: k = %d < 0", k)
	}
	return nil
}
