package embed

import "slices"

// sortCodes sorts Hashed's gram codes (bucket<<1 | sign: 19 bits) in
// place. The result is the one slices.Sort gives — sorted integers are
// sorted integers — only sooner: two counting passes over 10 and 9 bits
// instead of a comparison sort, which took a third of MFSS's time on an
// offline evaluation (issue 27). Short lists still take slices.Sort.
func sortCodes(codes []uint32) {
	const lowBits = 10
	if len(codes) < 128 {
		slices.Sort(codes)
		return
	}
	tmp := make([]uint32, len(codes))
	radixPass(tmp, codes, 0, 1<<lowBits-1)
	radixPass(codes, tmp, lowBits, 1<<(codeBits-lowBits)-1)
}

// codeBits is the width of a gram code.
const codeBits = 19

// radixPass is one stable counting-sort pass of src into dst by the digit
// (x >> shift) & mask.
func radixPass(dst, src []uint32, shift, mask uint32) {
	var count [1 << 10]int32
	for _, x := range src {
		count[(x>>shift)&mask]++
	}
	var sum int32
	for d := range count[:mask+1] {
		sum, count[d] = sum+count[d], sum
	}
	for _, x := range src {
		d := (x >> shift) & mask
		dst[count[d]] = x
		count[d]++
	}
}
