package textmetric

import "unicode"

// The tokenizers ask of every character whether it is Han, a letter or a
// digit; unicode's range tables answer by binary search. For the
// characters of nearly every text here — ASCII and the CJK blocks — the
// answers are read from a table made from unicode's own at start-up, so
// they are unicode's answers.

// classLo and classHi bound the CJK characters the table covers: the CJK
// radicals through the unified ideographs (U+2E80–U+9FFF).
const (
	classLo = 0x2E80
	classHi = 0xA000
)

const (
	classHan    uint8 = 1 << iota // unicode.Is(unicode.Han, r)
	classLetter                   // unicode.IsLetter(r)
	classDigit                    // unicode.IsDigit(r)
)

var cjkClass = func() []uint8 {
	t := make([]uint8, classHi-classLo)
	for i := range t {
		t[i] = classOf(rune(classLo + i))
	}
	return t
}()

func classOf(r rune) uint8 {
	var c uint8
	if unicode.Is(unicode.Han, r) {
		c |= classHan
	}
	if unicode.IsLetter(r) {
		c |= classLetter
	}
	if unicode.IsDigit(r) {
		c |= classDigit
	}
	return c
}

// runeClass is classOf(r), from the table where it covers r.
func runeClass(r rune) uint8 {
	switch {
	case r < 0x80:
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			return classLetter
		case r >= '0' && r <= '9':
			return classDigit
		}
		return 0
	case r >= classLo && r < classHi:
		return cjkClass[r-classLo]
	}
	return classOf(r)
}

// isHanFast is unicode.Is(unicode.Han, r).
func isHanFast(r rune) bool { return runeClass(r)&classHan != 0 }
