package judge

import (
	"math"
	"math/bits"
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
	ok      bool // made: a text too large to pack its postings has none
	buckets []uint32
	off     []int32   // the postings of buckets[j] are [off[j], off[j+1])
	sent    []int32   // a posting's sentence
	value   []float32 // its value there
	whole   []float32 // the whole vector's value in buckets[j], 0 when none
	// jump[h] is the first j with buckets[j] >> jumpShift ≥ h: seek goes
	// straight to the few buckets of b's range (a guide has about one a
	// range) instead of searching for them. Empty when the guide has too
	// many buckets for uint16; seek then gallops.
	jump []uint16
}

// jumpShift: the 18-bit buckets in 1,024 ranges of 256; the table costs a
// guide 2 KB.
const jumpShift = 8

func newGuideIndex(whole embed.Sparse, sents []sentence) guideIndex {
	// A posting is packed as bucket (18 bits), then its sentence + 1 (0 for
	// the whole vector), then its place in that vector: one sort of
	// integers puts them in order of bucket, then sentence.
	n := len(whole.Index)
	for _, s := range sents {
		n = max(n, len(s.v.Index))
	}
	posBits := bits.Len(uint(n))
	if bits.Len(uint(len(sents)+1))+posBits > 64-18 {
		return guideIndex{} // beyond any text; dots then finds nothing, see usable
	}
	total := len(whole.Index)
	for _, s := range sents {
		total += len(s.v.Index)
	}
	ps := make([]uint64, 0, total)
	for i, b := range whole.Index {
		ps = append(ps, uint64(b)<<46|uint64(i))
	}
	for k, s := range sents {
		for i, b := range s.v.Index {
			ps = append(ps, uint64(b)<<46|uint64(k+1)<<posBits|uint64(i))
		}
	}
	ps = sortByBucket(ps)
	g := guideIndex{ok: true, sent: make([]int32, 0, total-len(whole.Index)), value: make([]float32, 0, total-len(whole.Index))}
	for i, p := range ps {
		b := uint32(p >> 46)
		if i == 0 || b != uint32(ps[i-1]>>46) {
			g.buckets = append(g.buckets, b)
			g.off = append(g.off, int32(len(g.sent)))
			g.whole = append(g.whole, 0)
		}
		k, at := int(p>>posBits&(1<<(46-posBits)-1)), int(p&(1<<posBits-1))
		if k == 0 {
			g.whole[len(g.whole)-1] = whole.Value[at]
			continue
		}
		g.sent, g.value = append(g.sent, int32(k-1)), append(g.value, sents[k-1].v.Value[at])
	}
	g.off = append(g.off, int32(len(g.sent)))
	if len(g.buckets) < math.MaxUint16 {
		g.jump = make([]uint16, 1<<(18-jumpShift)+1)
		j := 0
		for h := range g.jump {
			for j < len(g.buckets) && int(g.buckets[j]>>jumpShift) < h {
				j++
			}
			g.jump[h] = uint16(j)
		}
	}
	return g
}

// sortByBucket orders postings by their bucket (the top 18 bits), keeping
// the order of those of one bucket (the whole vector's, then sentence by
// sentence): two passes of a radix sort.
func sortByBucket(ps []uint64) []uint64 {
	tmp := make([]uint64, len(ps))
	src, dst := ps, tmp
	for _, shift := range [...]uint{46, 55} {
		var count [1 << 9]int
		for _, p := range src {
			count[p>>shift&(1<<9-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, p := range src {
			d := p >> shift & (1<<9 - 1)
			dst[count[d]] = p
			count[d]++
		}
		src, dst = dst, src
	}
	return src
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
	if h := int(b >> jumpShift); g.jump != nil && h+1 < len(g.jump) {
		// The first bucket ≥ b lies in b's range or starts the next one;
		// j, where the last search ended, is never past it.
		lo, hi := max(j, int(g.jump[h])), int(g.jump[h+1])
		for lo < hi && g.buckets[lo] < b {
			lo++
		}
		return lo
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

// dot is embed.Sparse.Dot: the same products summed in the same order, by
// a merge whose steps do not branch on which index is behind.
func dot(s, t embed.Sparse) float64 {
	var sum float64
	si, sv, ti, tv := s.Index, s.Value[:len(s.Index)], t.Index, t.Value[:len(t.Index)]
	i, j := 0, 0
	for i < len(si) && j < len(ti) {
		a, b := si[i], ti[j]
		if a == b {
			sum += float64(sv[i]) * float64(tv[j])
		}
		if a <= b {
			i++
		}
		if b <= a {
			j++
		}
	}
	return sum
}
