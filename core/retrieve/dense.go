package retrieve

import (
	"context"
	"fmt"
	"math"

	"cubeworkbench/core/chunk"
	"cubeworkbench/core/embed"
)

// DenseBatch is how many chunk texts go to the embedder per call.
const DenseBatch = 64

// Dense ranks chunks by the cosine of their embedding with the query's,
// exhaustively. Embedders with a sparse form (embed.SparseEmbedder, e.g. the
// offline hashed embedder with its 2^18 dimensions) are indexed sparsely:
// dense vectors of that width would take 1 MiB per chunk.
type Dense struct {
	emb    embed.Embedder
	docIDs []string
	// dense form: unit vectors, row-major
	dim  int
	vecs []float32
	// sparse form: an inverted index, bucket → (chunk, weight), CSR layout
	sparse  embed.SparseEmbedder
	offsets []int32 // len = buckets+1
	entries []sparseEntry
}

type sparseEntry struct {
	chunk int32
	w     float32
}

// NewDense embeds every chunk in batches of DenseBatch and indexes it.
func NewDense(ctx context.Context, emb embed.Embedder, chunks []chunk.Chunk) (*Dense, error) {
	d := &Dense{emb: emb, docIDs: make([]string, len(chunks))}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		d.docIDs[i] = c.DocID
		texts[i] = c.Text
	}
	if sp, ok := emb.(embed.SparseEmbedder); ok {
		d.sparse = sp
		return d, d.indexSparse(ctx, texts)
	}
	d.dim = emb.Dim()
	d.vecs = make([]float32, 0, len(chunks)*max(d.dim, 0))
	for lo := 0; lo < len(texts); lo += DenseBatch {
		hi := min(lo+DenseBatch, len(texts))
		vs, err := emb.Embed(ctx, texts[lo:hi])
		if err != nil {
			return nil, fmt.Errorf("retrieve: embed chunks %d–%d with %s: %w", lo, hi-1, emb.Name(), err)
		}
		if len(vs) != hi-lo {
			return nil, fmt.Errorf("retrieve: %s returned %d vectors for %d chunks", emb.Name(), len(vs), hi-lo)
		}
		for i, v := range vs {
			if d.dim <= 0 {
				d.dim = len(v)
			}
			if len(v) != d.dim {
				return nil, fmt.Errorf("retrieve: %s chunk %d: vector of %d dimensions, want %d", emb.Name(), lo+i, len(v), d.dim)
			}
			d.vecs = append(d.vecs, unit(v)...)
		}
	}
	return d, nil
}

func (d *Dense) indexSparse(ctx context.Context, texts []string) error {
	var vs []embed.Sparse
	for lo := 0; lo < len(texts); lo += DenseBatch {
		hi := min(lo+DenseBatch, len(texts))
		b, err := d.sparse.EmbedSparse(ctx, texts[lo:hi])
		if err != nil {
			return fmt.Errorf("retrieve: embed chunks %d–%d with %s: %w", lo, hi-1, d.emb.Name(), err)
		}
		vs = append(vs, b...)
	}
	buckets := 0
	for _, v := range vs {
		for _, ix := range v.Index {
			buckets = max(buckets, int(ix)+1)
		}
	}
	d.offsets = make([]int32, buckets+1)
	for _, v := range vs {
		for _, ix := range v.Index {
			d.offsets[ix+1]++
		}
	}
	for i := 1; i < len(d.offsets); i++ {
		d.offsets[i] += d.offsets[i-1]
	}
	d.entries = make([]sparseEntry, d.offsets[buckets])
	fill := make([]int32, buckets)
	copy(fill, d.offsets[:buckets])
	for ci, v := range vs {
		var n float64
		for _, x := range v.Value {
			n += float64(x) * float64(x)
		}
		inv := float32(0)
		if n > 0 {
			inv = float32(1 / math.Sqrt(n))
		}
		for j, ix := range v.Index {
			d.entries[fill[ix]] = sparseEntry{int32(ci), v.Value[j] * inv}
			fill[ix]++
		}
	}
	return nil
}

// unit returns v scaled to length 1 (the zero vector stays zero: no direction).
func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	inv := 1 / math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

// Search embeds the query and returns the k chunks of highest cosine.
// Chunks orthogonal to the query (cosine 0) are left out of a sparse
// search, as BM25 leaves out chunks sharing no term.
func (d *Dense) Search(ctx context.Context, query string, k int) ([]Hit, error) {
	if err := checkK(k); err != nil {
		return nil, err
	}
	if k == 0 || len(d.docIDs) == 0 {
		return nil, nil
	}
	top := newTopK(k)
	if d.sparse != nil {
		qs, err := d.sparse.EmbedSparse(ctx, []string{query})
		if err != nil {
			return nil, fmt.Errorf("retrieve: embed query with %s: %w", d.emb.Name(), err)
		}
		q := qs[0]
		var qn float64
		for _, x := range q.Value {
			qn += float64(x) * float64(x)
		}
		if qn == 0 {
			return nil, nil
		}
		acc := make([]float64, len(d.docIDs))
		seen := make([]bool, len(d.docIDs)) // signed weights may sum back to 0
		var touched []int32
		for j, ix := range q.Index {
			if int(ix)+1 >= len(d.offsets) {
				continue
			}
			w := float64(q.Value[j])
			for _, e := range d.entries[d.offsets[ix]:d.offsets[ix+1]] {
				if !seen[e.chunk] {
					seen[e.chunk] = true
					touched = append(touched, e.chunk)
				}
				acc[e.chunk] += w * float64(e.w)
			}
		}
		inv := 1 / math.Sqrt(qn)
		for _, c := range touched {
			if acc[c] != 0 {
				top.offer(c, acc[c]*inv)
			}
		}
		return d.hits(top.sorted()), nil
	}
	qv, err := d.emb.Embed(ctx, []string{query})
	if err != nil {
		return nil, fmt.Errorf("retrieve: embed query with %s: %w", d.emb.Name(), err)
	}
	if len(qv) != 1 || len(qv[0]) != d.dim {
		return nil, fmt.Errorf("retrieve: %s: query vector has the wrong shape", d.emb.Name())
	}
	q := unit(qv[0])
	for c := range d.docIDs {
		row := d.vecs[c*d.dim : (c+1)*d.dim]
		var dot float64
		for i, x := range row {
			dot += float64(x) * float64(q[i])
		}
		top.offer(int32(c), dot)
	}
	return d.hits(top.sorted()), nil
}

func (d *Dense) hits(s []scored) []Hit {
	out := make([]Hit, len(s))
	for i, c := range s {
		out[i] = Hit{ChunkIndex: int(c.idx), DocID: d.docIDs[c.idx], Score: c.score}
	}
	return out
}
