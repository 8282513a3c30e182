package judge

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"cubeworkbench/core/embed"
)

// randSparse is a sparse vector of up to n entries over buckets below
// limit (the embedder's are 18 bits), increasing.
func randSparse(r *rand.Rand, n int, limit uint32) embed.Sparse {
	set := map[uint32]bool{}
	for range r.IntN(n + 1) {
		set[uint32(r.IntN(int(limit)))] = true
	}
	var v embed.Sparse
	for b := range set {
		v.Index = append(v.Index, b)
	}
	slices.Sort(v.Index)
	for range v.Index {
		v.Value = append(v.Value, float32(r.NormFloat64()))
	}
	return v
}

// TestGuideIndexDots: the index's dot products of a vector with each guide
// sentence and with the whole guide are Dot's, to the bit, for guides of
// few and many buckets, dense and sparse, and vectors that share some.
func TestGuideIndexDots(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 400 {
		limit := uint32(1) << (8 + r.IntN(11)) // 2^8 … 2^18 buckets
		var sents []sentence
		for range 1 + r.IntN(30) {
			v := randSparse(r, 1+r.IntN(200), limit)
			sents = append(sents, sentence{v: v, nn: v.Dot(v)})
		}
		whole := randSparse(r, 1+r.IntN(2000), limit)
		if trial%100 == 0 { // a book-length guide: more buckets than the jump table holds
			whole = embed.Sparse{}
			for b := uint32(0); b < 1<<18; b += 3 {
				whole.Index, whole.Value = append(whole.Index, b), append(whole.Value, float32(r.NormFloat64()))
			}
		}
		g := newGuideIndex(whole, sents)
		if !g.ok || (g.jump == nil) != (len(g.buckets) >= math.MaxUint16) {
			t.Fatalf("trial %d: index made %v, %d buckets, jump table %v", trial, g.ok, len(g.buckets), g.jump != nil)
		}
		for range 20 {
			a := randSparse(r, 1+r.IntN(300), limit)
			dots := make([]float64, len(sents))
			w := g.dots(a, dots)
			if want := a.Dot(whole); math.Float64bits(w) != math.Float64bits(want) {
				t.Fatalf("trial %d: whole %v, want %v", trial, w, want)
			}
			for k, s := range sents {
				if want := a.Dot(s.v); math.Float64bits(dots[k]) != math.Float64bits(want) {
					t.Fatalf("trial %d: sentence %d %v, want %v", trial, k, dots[k], want)
				}
			}
		}
	}
}

// BenchmarkGuideIndexDots meets answer-sized vectors with a guide-sized
// index, as crossBest does for each answer sentence.
func BenchmarkGuideIndexDots(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	var sents []sentence
	for range 12 {
		v := randSparse(r, 120, 1<<18)
		sents = append(sents, sentence{v: v, nn: v.Dot(v)})
	}
	whole := randSparse(r, 1500, 1<<18)
	g := newGuideIndex(whole, sents)
	as := make([]embed.Sparse, 64)
	for i := range as { // an answer sentence: most of its grams are the guide's
		set := map[uint32]bool{}
		for range 100 {
			set[whole.Index[r.IntN(len(whole.Index))]] = true
		}
		for range 20 {
			set[uint32(r.IntN(1<<18))] = true
		}
		for k := range set {
			as[i].Index = append(as[i].Index, k)
		}
		slices.Sort(as[i].Index)
		for range as[i].Index {
			as[i].Value = append(as[i].Value, float32(r.NormFloat64()))
		}
	}
	dots := make([]float64, len(sents))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		clear(dots)
		g.dots(as[i%len(as)], dots)
	}
}
