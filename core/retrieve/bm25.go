package retrieve

import (
	"context"
	"math"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"cubeworkbench/core/chunk"
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

// BM25 is an in-memory inverted index over chunks. Terms are the tokens of
// textmetric.TokenizeChinese for every text, Chinese or not: on text
// without Han it equals the English rule, and using one rule for queries and
// chunks means a mostly-English chunk and a Chinese query still share terms.
// The tokens are produced inline (terms) rather than through textmetric so
// that indexing allocates no string per Han character; TestTermsAgree checks
// the two agree. It is safe for concurrent Search.
type BM25 struct {
	han      map[rune]int32   // Han character → term id
	words    map[string]int32 // lowercased run of other letters/digits → term id
	postings [][]posting      // by term id, chunk ids ascending
	idf      []float64        // by term id
	norm     []float64        // by chunk: k1·(1−b+b·dl/avgdl)
	docIDs   []string
	pool     sync.Pool // *[]float64 accumulators, one per concurrent search
}

// terms calls fn with the term id of every token of s, in order; unknown
// tokens get a new id when add is set and are skipped otherwise.
func (ix *BM25) terms(s string, add bool, buf []byte, fn func(id int32)) []byte {
	start := -1
	word := func(end int) {
		run := s[start:end]
		start = -1
		buf = buf[:0]
		ascii := true
		for i := 0; i < len(run); i++ {
			c := run[i]
			if c >= utf8.RuneSelf {
				ascii = false
				break
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
		}
		if !ascii {
			buf = append(buf[:0], strings.ToLower(run)...)
		}
		id, ok := ix.words[string(buf)] // no allocation for the lookup
		if !ok {
			if !add {
				return
			}
			id = ix.newTerm()
			ix.words[string(buf)] = id
		}
		fn(id)
	}
	for i, r := range s {
		switch {
		case r >= utf8.RuneSelf && unicode.Is(unicode.Han, r):
			if start >= 0 {
				word(i)
			}
			id, ok := ix.han[r]
			if !ok {
				if !add {
					continue
				}
				id = ix.newTerm()
				ix.han[r] = id
			}
			fn(id)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				word(i)
			}
		}
	}
	if start >= 0 {
		word(len(s))
	}
	return buf
}

func (ix *BM25) newTerm() int32 {
	ix.postings = append(ix.postings, nil)
	return int32(len(ix.postings) - 1)
}

// NewBM25 indexes chunks; Hit.ChunkIndex refers to positions in chunks.
func NewBM25(chunks []chunk.Chunk) *BM25 {
	ix := &BM25{han: map[rune]int32{}, words: map[string]int32{}, docIDs: make([]string, len(chunks)), norm: make([]float64, len(chunks))}
	lengths := make([]int, len(chunks))
	total := 0
	var (
		counts  []int32 // by term id, reset after each chunk
		touched []int32
		buf     []byte
	)
	for ci, c := range chunks {
		ix.docIDs[ci] = c.DocID
		n := 0
		buf = ix.terms(c.Text, true, buf, func(id int32) {
			for int(id) >= len(counts) {
				counts = append(counts, 0)
			}
			if counts[id] == 0 {
				touched = append(touched, id)
			}
			counts[id]++
			n++
		})
		for _, id := range touched {
			ix.postings[id] = append(ix.postings[id], posting{int32(ci), counts[id]})
			counts[id] = 0
		}
		touched = touched[:0]
		lengths[ci] = n
		total += n
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
	ix.terms(query, false, nil, func(id int32) {
		idf := ix.idf[id]
		for _, p := range ix.postings[id] {
			if acc[p.chunk] == 0 {
				touched = append(touched, p.chunk)
			}
			tf := float64(p.tf)
			acc[p.chunk] += idf * tf * (BM25K1 + 1) / (tf + ix.norm[p.chunk])
		}
	})
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
