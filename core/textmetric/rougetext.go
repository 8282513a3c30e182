package textmetric

import "slices"

// RougeText is one text's ROUGE tokens, as ids of one Vocab, made ready for
// ROUGE-1, ROUGE-2 and ROUGE-L against other texts of that Vocab: its
// unigrams and bigrams sorted once, and, as a target, its LCS masks over
// its own distinct ids. A reference scored against several answers is
// prepared once.
type RougeText struct {
	n     int      // tokens
	uni   []int32  // sorted unigrams
	bi    []uint64 // sorted bigrams, first id << 32 | second
	keys  []int32  // distinct ids, sorted: the masks' vocabulary; nil until t is a target
	masks lcsMasks // over the positions of keys[k], as k
	ids   []int32  // the tokens in order
}

// NewRougeText prepares a text from its token ids (≥ 0).
func NewRougeText(ids []int32) *RougeText {
	t := &RougeText{n: len(ids), uni: slices.Clone(ids)}
	slices.Sort(t.uni)
	if len(ids) >= 2 {
		t.bi = make([]uint64, 0, len(ids)-1)
		for i := 0; i+1 < len(ids); i++ {
			t.bi = append(t.bi, uint64(uint32(ids[i]))<<32|uint64(uint32(ids[i+1])))
		}
		slices.Sort(t.bi)
	}
	t.ids = slices.Clone(ids)
	return t
}

// Sorted is the text's token ids in ascending order; the caller must not
// change them.
func (t *RougeText) Sorted() []int32 { return t.uni }

// lcsReady makes t's LCS masks, the first time t is a target.
func (t *RougeText) lcsReady() {
	if t.keys != nil || t.n == 0 {
		return
	}
	t.keys = slices.Compact(slices.Clone(t.uni))
	local := make([]int32, len(t.ids))
	for i, id := range t.ids {
		k, _ := slices.BinarySearch(t.keys, id)
		local[i] = int32(k)
	}
	t.masks = newLCSMasks(local, len(t.keys))
}

// RougeIDs is RougeTokens(target's tokens, prediction's tokens): ROUGE-1,
// ROUGE-2 and ROUGE-L F of the same counts, so the same floats. scratch
// may be nil; one goroutine at a time may use scratch, or target while it
// is first used as one (a RougeText makes its LCS masks then).
func RougeIDs(target, prediction *RougeText, scratch *RougeScratch) (r1, r2, rl PRF) {
	prf := func(overlap, nt, np int) PRF {
		p := float64(overlap) / float64(max(np, 1))
		r := float64(overlap) / float64(max(nt, 1))
		return PRF{p, r, fmeasure(p, r)}
	}
	r1 = prf(SortedOverlap(target.uni, prediction.uni), len(target.uni), len(prediction.uni))
	r2 = prf(SortedOverlap(target.bi, prediction.bi), len(target.bi), len(prediction.bi))
	if target.n == 0 || prediction.n == 0 {
		return r1, r2, PRF{}
	}
	if scratch == nil {
		scratch = &RougeScratch{}
	}
	target.lcsReady()
	pred := scratch.ids[:0]
	for _, id := range prediction.ids {
		k, ok := slices.BinarySearch(target.keys, id)
		if !ok {
			k = -1
		}
		pred = append(pred, int32(k))
	}
	scratch.ids = pred
	if cap(scratch.v) < target.masks.words {
		scratch.v = make([]uint64, target.masks.words)
	}
	l := float64(target.masks.lcs(pred, scratch.v))
	p, r := l/float64(prediction.n), l/float64(target.n)
	return r1, r2, PRF{p, r, fmeasure(p, r)}
}
