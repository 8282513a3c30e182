package judge

import (
	"cmp"
	"math"
	"slices"

	"cubeworkbench/core/embed"
)

// guideIndex is a guide's sentence vectors and whole vector turned inside
// out: its buckets in increasing order and, for each, the sentences that
// have it with their values and the whole vector's value. An answer
// sentence then meets every guide sentence in one walk over its own
// entries, where a dot product per pair walked both vectors each time.
// Read only once made.
type guideIndex struct {
	buckets []uint32
	off     []int32   // the postings of buckets[j] are [off[j], off[j+1])
	sent    []int32   // a posting's sentence
	value   []float32 // its value there
	whole   []float32 // the whole vector's value in buckets[j], 0 when none
}

func newGuideIndex(whole embed.Sparse, sents []sentence) guideIndex {
	type posting struct {
		bucket uint32
		sent   int32
		value  float32
	}
	var ps []posting
	for k, s := range sents {
		for i, b := range s.v.Index {
			ps = append(ps, posting{b, int32(k), s.v.Value[i]})
		}
	}
	for i, b := range whole.Index {
		ps = append(ps, posting{b, -1, whole.Value[i]})
	}
	slices.SortFunc(ps, func(x, y posting) int {
		return cmp.Or(cmp.Compare(x.bucket, y.bucket), cmp.Compare(x.sent, y.sent))
	})
	var g guideIndex
	for i, p := range ps {
		if i == 0 || p.bucket != ps[i-1].bucket {
			g.buckets = append(g.buckets, p.bucket)
			g.off = append(g.off, int32(len(g.sent)))
			g.whole = append(g.whole, 0)
		}
		if p.sent < 0 {
			g.whole[len(g.whole)-1] = p.value
			continue
		}
		g.sent, g.value = append(g.sent, p.sent), append(g.value, p.value)
	}
	g.off = append(g.off, int32(len(g.sent)))
	return g
}

// dots adds to dots[k] the dot product of a with sentence k, and returns
// a's dot product with the whole guide: each the sum of the same products,
// in the same order of buckets, as embed.Sparse.Dot(a, ·) makes.
func (g *guideIndex) dots(a embed.Sparse, dots []float64) float64 {
	var whole float64
	j := 0
	for i, b := range a.Index {
		j = g.seek(j, b)
		if j == len(g.buckets) {
			break
		}
		if g.buckets[j] != b {
			continue
		}
		av := float64(a.Value[i])
		if dots != nil {
			for p := g.off[j]; p < g.off[j+1]; p++ {
				dots[g.sent[p]] += av * float64(g.value[p])
			}
		}
		if w := g.whole[j]; w != 0 {
			whole += av * float64(w)
		}
	}
	return whole
}

// seek is the first j' ≥ j with buckets[j'] ≥ b: a galloping search, since
// an answer's buckets are a few among the guide's.
func (g *guideIndex) seek(j int, b uint32) int {
	if j >= len(g.buckets) || g.buckets[j] >= b {
		return j
	}
	step := 1
	lo, hi := j, j+1 // buckets[lo] < b
	for hi < len(g.buckets) && g.buckets[hi] < b {
		lo = hi
		step *= 2
		hi = lo + step
	}
	hi = min(hi, len(g.buckets))
	k, _ := slices.BinarySearch(g.buckets[lo+1:hi], b)
	return lo + 1 + k
}

// cosineOf is cosine (semantic.go) with the dot product given.
func cosineOf(dot, xnn, ynn float64) float64 {
	if xnn == 0 || ynn == 0 {
		return 0
	}
	return dot / (math.Sqrt(xnn) * math.Sqrt(ynn))
}
