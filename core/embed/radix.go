package embed

import "slices"

// sortCodes sorts Hashed's gram codes (bucket<<1 | sign: 19 bits) in
// place. The result is the one slices.Sort gives — sorted integers are
// sorted integers — only sooner: three counting passes over 7, 6 and 6 bits
// instead of a comparison sort, which took a third of MFSS's time on an
// offline evaluation (issue 27). Short lists still take slices.Sort.
func sortCodes(codes []uint32) {
	if len(codes) < 64 {
		slices.Sort(codes)
		return
	}
	tmp := make([]uint32, len(codes))
	radixPass(tmp, codes, 0, 1<<7-1)
	radixPass(codes, tmp, 7, 1<<6-1)
	radixPass(tmp, codes, 13, 1<<6-1)
	copy(codes, tmp)
}

// codeBits is the width of a gram code: three passes of 7, 6 and 6 bits.
const codeBits = 19

// radixPass is one stable counting-sort pass of src into dst by the digit
// (x >> shift) & mask, mask < 128.
func radixPass(dst, src []uint32, shift, mask uint32) {
	var count [1 << 7]int32
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
