package embed

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// sortCodes sorts as slices.Sort does, on lists of every length around
// its switch-over, with and without repeated codes, and on the codes of
// real texts; Sparse's vectors are therefore what they were.
func TestSortCodesOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 4))
	for _, n := range []int{0, 1, 2, 63, 64, 65, 127, 128, 300, 1000, 5000} {
		for _, span := range []uint32{1 << codeBits, 64} { // spread out, or many repeats
			codes := make([]uint32, n)
			for i := range codes {
				codes[i] = r.Uint32N(span)
			}
			want := slices.Clone(codes)
			slices.Sort(want)
			sortCodes(codes)
			if !slices.Equal(codes, want) {
				t.Fatalf("n=%d span=%d: not sorted as slices.Sort sorts", n, span)
			}
		}
	}
	if HashedDim != 1<<(codeBits-1) {
		t.Fatalf("codes are %d bits, buckets %d", codeBits, HashedDim)
	}
}
