package embed

import (
	"math"
	"slices"
	"unicode"
	"unicode/utf8"
)

// HashedBuffers is what SparseParts reuses from call to call, so that an
// offline judge embedding an answer and its sentences allocates nothing.
// The zero value is ready; not safe for concurrent use.
type HashedBuffers struct {
	rs     []rune
	at     []int32  // at[b]: index in rs of the rune that starts at byte b
	partOf []uint16 // partOf[i]: the tag of rs[i]'s part, 0 for none
	ends   []int32  // ends[t-1]: the end in rs of part t
	keys   []uint32
	tmp    []uint32
	counts []int
	pos    []int
	index  []uint32
	value  []float32
	parts  []Sparse
}

// partTags bounds the parts SparseParts hashes with the whole text: a
// gram's key is its code (bucket<<1 | minus, 19 bits) then its part's tag
// (13 bits, 0 for none).
const (
	tagBits  = 13
	partTags = 1<<tagBits - 1
)

// SparseParts returns Sparse(text) and Sparse(text[p[0]:p[1]]) for each
// part p, equal to them value for value, from one pass over text and one
// sort of its grams: a part's grams are the whole text's grams that lie in
// it, since white space is collapsed the same way in both. Each part must
// be a piece of text that starts and ends with a character that is not
// white space (as strings.TrimSpace leaves it), the parts in order and
// apart, and text must be valid UTF-8; when these do not hold, or there
// are very many parts, each is embedded on its own. The vectors share
// buf's memory: they are valid until buf is used again.
func (h *Hashed) SparseParts(buf *HashedBuffers, text string, parts [][2]int) (Sparse, []Sparse) {
	if !partsFit(text, parts) {
		out := buf.parts[:0]
		for _, p := range parts {
			out = append(out, h.Sparse(text[p[0]:p[1]]))
		}
		buf.parts = out
		return h.Sparse(text), out
	}
	rs := buf.normalize(text)
	buf.tagParts(text, parts)
	keys := buf.keys[:0]
	var b4 [utf8.UTFMax]byte
	for i := range rs {
		t := buf.partOf[i]
		end := len(rs)
		if t > 0 {
			end = int(buf.ends[t-1])
		}
		hsh := uint64(fnvOffset64)
		for n := 0; n < 3 && i+n < len(rs); n++ {
			k := utf8.EncodeRune(b4[:], rs[i+n])
			for _, c := range b4[:k] {
				hsh ^= uint64(c)
				hsh *= fnvPrime64
			}
			gt := uint32(t)
			if i+n >= end { // the gram runs past its part's end
				gt = 0
			}
			keys = append(keys, (uint32(hsh&bucketMask)<<1|uint32(hsh>>63))<<tagBits|gt)
		}
	}
	keys = buf.sortCodes(keys)
	return buf.sums(keys, len(parts))
}

// sortCodes orders keys by their code (the top 19 bits), in three passes
// of a radix sort (7, 6 and 6 bits, so that the counts stay small); the
// order within a code does not matter to sums.
func (buf *HashedBuffers) sortCodes(keys []uint32) []uint32 {
	if len(keys) < 64 {
		slices.Sort(keys)
		buf.keys = keys
		return keys
	}
	tmp := slices.Grow(buf.tmp[:0], len(keys))[:len(keys)]
	src, dst := keys, tmp
	for _, pass := range [...]struct{ shift, bits uint }{{tagBits, 7}, {tagBits + 7, 6}, {tagBits + 13, 6}} {
		var count [1 << 7]int32
		mask := uint32(1)<<pass.bits - 1
		for _, k := range src {
			count[k>>pass.shift&mask]++
		}
		var sum int32
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, k := range src {
			d := k >> pass.shift & mask
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	buf.keys, buf.tmp = src, dst // after three passes the sorted keys are in tmp's array
	return src
}

// normalize is normalize (hashed.go) into buf, remembering where each
// rune went.
func (buf *HashedBuffers) normalize(text string) []rune {
	buf.at = slices.Grow(buf.at[:0], len(text))[:len(text)]
	buf.rs = normalizeInto(buf.rs[:0], buf.at, text)
	return buf.rs
}

// tagParts marks each rune of rs with its part's tag.
func (buf *HashedBuffers) tagParts(text string, parts [][2]int) {
	buf.partOf = slices.Grow(buf.partOf[:0], len(buf.rs))[:len(buf.rs)]
	clear(buf.partOf)
	buf.ends = buf.ends[:0]
	for k, p := range parts {
		_, size := utf8.DecodeLastRuneInString(text[p[0]:p[1]])
		lo, hi := buf.at[p[0]], buf.at[p[1]-size]+1
		buf.ends = append(buf.ends, hi)
		for i := lo; i < hi; i++ {
			buf.partOf[i] = uint16(k + 1)
		}
	}
}

// sums adds up keys, sorted by code, into the whole text's vector and
// each part's, as Sparse does: in each bucket the + grams, then the −
// grams, in float32. A stable counting sort by part then gives each part
// its keys, still in order of code.
func (buf *HashedBuffers) sums(keys []uint32, nparts int) (Sparse, []Sparse) {
	index := slices.Grow(buf.index[:0], 2*len(keys))
	value := slices.Grow(buf.value[:0], 2*len(keys))
	index, value = addUp(index, value, keys)
	whole := len(index)
	counts := slices.Grow(buf.counts[:0], nparts+2)[:nparts+2]
	clear(counts)
	for _, k := range keys {
		counts[k&partTags+1]++
	}
	for t := 1; t < len(counts); t++ {
		counts[t] += counts[t-1]
	}
	byPart := slices.Grow(buf.tmp[:0], len(keys))[:len(keys)]
	pos := append(buf.pos[:0], counts[:nparts+1]...)
	for _, k := range keys {
		t := k & partTags
		byPart[pos[t]] = k
		pos[t]++
	}
	out := buf.parts[:0]
	for t := 1; t <= nparts; t++ {
		lo := len(index)
		index, value = addUp(index, value, byPart[counts[t]:counts[t+1]])
		out = append(out, scaled(index[lo:len(index):len(index)], value[lo:len(value):len(value)]))
	}
	buf.index, buf.value, buf.counts, buf.pos, buf.tmp, buf.parts = index, value, counts, pos, byPart, out
	return scaled(index[:whole:whole], value[:whole:whole]), out
}

// addUp appends the non-zero sums of keys, sorted by code, bucket by
// bucket.
func addUp(index []uint32, value []float32, keys []uint32) ([]uint32, []float32) {
	for i := 0; i < len(keys); {
		bucket := keys[i] >> (tagBits + 1)
		var sum float32
		for ; i < len(keys) && keys[i]>>(tagBits+1) == bucket; i++ {
			if keys[i]>>tagBits&1 == 1 {
				sum--
			} else {
				sum++
			}
		}
		if sum != 0 {
			index, value = append(index, bucket), append(value, sum)
		}
	}
	return index, value
}

// scaled is Sparse's last step: the vector over its L2 norm, or the zero
// vector when every gram cancelled out.
func scaled(index []uint32, value []float32) Sparse {
	var norm float64
	for _, v := range value {
		norm += float64(v) * float64(v)
	}
	if norm == 0 {
		return Sparse{}
	}
	inv := float32(1 / math.Sqrt(norm))
	for i := range value {
		value[i] *= inv
	}
	return Sparse{Index: index, Value: value}
}

// partsFit reports whether SparseParts can embed parts from text's grams.
func partsFit(text string, parts [][2]int) bool {
	if len(parts) >= partTags || !utf8.ValidString(text) {
		return false
	}
	prev := 0
	for _, p := range parts {
		if p[0] < prev || p[0] >= p[1] || p[1] > len(text) || !utf8.RuneStart(text[p[0]]) || p[1] < len(text) && !utf8.RuneStart(text[p[1]]) {
			return false
		}
		first, _ := utf8.DecodeRuneInString(text[p[0]:p[1]])
		last, _ := utf8.DecodeLastRuneInString(text[p[0]:p[1]])
		if unicode.IsSpace(first) || unicode.IsSpace(last) {
			return false
		}
		prev = p[1]
	}
	return true
}
