package embed

import (
	"context"
	"math"
	"unicode"
	"unicode/utf8"
)

// HashedName is the name reports show for the offline embedder.
const HashedName = "offline-hash"

// HashedDim is the number of buckets of the offline embedder (2^18).
const HashedDim = 1 << 18

// Hashed is the offline embedder of formulas.md §2: counts of character
// 1-, 2- and 3-grams, hashed into 2^18 buckets with a sign (the hashing
// trick of Weinberger et al. 2009, which keeps collisions unbiased), then
// L2-normalised.
//
// Exactly: the text is lowercased and every run of white space becomes one
// space, trimmed at both ends. For every position i and n ∈ {1,2,3} with
// i+n ≤ len, the UTF-8 bytes of runes i..i+n−1 are hashed with 64-bit
// FNV-1a; the bucket is the low 18 bits and the sign is + when bit 63 is 0.
// An empty text gives the zero vector, whose cosine with anything is 0.
type Hashed struct{}

// NewHashed returns the offline embedder. It is stateless and safe for
// concurrent use.
func NewHashed() *Hashed { return &Hashed{} }

// Name implements Embedder.
func (*Hashed) Name() string { return HashedName }

// Dim implements Embedder.
func (*Hashed) Dim() int { return HashedDim }

// Embed implements Embedder with dense vectors (1 MiB each); prefer
// EmbedSparse where the caller can use it.
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = h.Sparse(t).Dense(HashedDim)
	}
	return out, nil
}

// EmbedSparse implements SparseEmbedder.
func (h *Hashed) EmbedSparse(ctx context.Context, texts []string) ([]Sparse, error) {
	out := make([]Sparse, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = h.Sparse(t)
	}
	return out, nil
}

const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
	bucketMask  = HashedDim - 1
)

// normalize lowercases and collapses white space, as documented on Hashed.
func normalize(s string) []rune { return normalizeInto(make([]rune, 0, len(s)), nil, s) }

// normalizeInto appends s, normalized, to rs; when at is not nil, at[b] is
// set to the index in rs of the rune that starts at byte b of s.
func normalizeInto(rs []rune, at []int32, s string) []rune {
	space := false
	for b, r := range s {
		if unicode.IsSpace(r) {
			space = len(rs) > 0
			continue
		}
		if space {
			rs = append(rs, ' ')
			space = false
		}
		if at != nil {
			at[b] = int32(len(rs))
		}
		rs = append(rs, unicode.ToLower(r))
	}
	return rs
}

// Sparse embeds one text.
func (*Hashed) Sparse(text string) Sparse {
	rs := normalize(text)
	if len(rs) == 0 {
		return Sparse{}
	}
	// Each gram adds ±1 to its bucket. Codes are bucket<<1 | minus, so that
	// after one sort both signs of a bucket sit together.
	codes := make([]uint32, 0, 3*len(rs))
	var buf [utf8.UTFMax]byte
	for i := range rs {
		h := uint64(fnvOffset64)
		for n := 0; n < 3 && i+n < len(rs); n++ {
			k := utf8.EncodeRune(buf[:], rs[i+n])
			for _, b := range buf[:k] {
				h ^= uint64(b)
				h *= fnvPrime64
			}
			codes = append(codes, uint32(h&bucketMask)<<1|uint32(h>>63))
		}
	}
	sortCodes(codes)
	out := Sparse{Index: make([]uint32, 0, len(codes)), Value: make([]float32, 0, len(codes))}
	var norm float64
	for i := 0; i < len(codes); {
		bucket := codes[i] >> 1
		var sum float32
		for ; i < len(codes) && codes[i]>>1 == bucket; i++ {
			if codes[i]&1 == 1 {
				sum--
			} else {
				sum++
			}
		}
		if sum != 0 {
			out.Index = append(out.Index, bucket)
			out.Value = append(out.Value, sum)
			norm += float64(sum) * float64(sum)
		}
	}
	if norm == 0 { // every gram cancelled out: no direction
		return Sparse{}
	}
	inv := float32(1 / math.Sqrt(norm))
	for i := range out.Value {
		out.Value[i] *= inv
	}
	return out
}

// Sparse is a sparse vector: strictly increasing indices and their values.
type Sparse struct {
	Index []uint32
	Value []float32
}

// SparseEmbedder is implemented by embedders with a cheap sparse form;
// MFSS uses it when present.
type SparseEmbedder interface {
	EmbedSparse(ctx context.Context, texts []string) ([]Sparse, error)
}

// Dense expands the vector to dim components.
func (s Sparse) Dense(dim int) []float32 {
	d := make([]float32, dim)
	for i, ix := range s.Index {
		d[ix] = s.Value[i]
	}
	return d
}

// Dot is the inner product of two sparse vectors.
func (s Sparse) Dot(t Sparse) float64 {
	var dot float64
	i, j := 0, 0
	for i < len(s.Index) && j < len(t.Index) {
		switch a, b := s.Index[i], t.Index[j]; {
		case a < b:
			i++
		case a > b:
			j++
		default:
			dot += float64(s.Value[i]) * float64(t.Value[j])
			i++
			j++
		}
	}
	return dot
}

// SparseCosine is the cosine of two sparse vectors (0 when either is zero).
func SparseCosine(a, b Sparse) float64 {
	na, nb := a.Dot(a), b.Dot(b)
	if na == 0 || nb == 0 {
		return 0
	}
	return a.Dot(b) / (math.Sqrt(na) * math.Sqrt(nb))
}
