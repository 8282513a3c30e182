package judge

import (
	"unicode"
	"unicode/utf8"

	"cubeworkbench/core/textmetric"
)

// chineseShare is textmetric.IsChinese's threshold: a text is Chinese when
// at least this share of its letters are Han characters.
const chineseShare = 0.30

// textFacts is what both offline judges read from a text in one pass: its
// letters and Han characters, from which IsChinese of several texts is the
// sum of theirs, and its letters and digits (wordRunes). valid is false
// for a text that is not valid UTF-8: halves of a character at the end of
// one text and the start of the next join in their concatenation, so then
// the concatenation itself is read.
type textFacts struct {
	letters, han, digits int
	valid                bool
}

func factsOf(s string) textFacts {
	f := textFacts{valid: true}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
				f.letters++
			case '0' <= c && c <= '9':
				f.digits++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			f.valid = false
		case unicode.IsLetter(r):
			f.letters++
			if isHanRune(r) {
				f.han++
			}
		case unicode.IsDigit(r):
			f.digits++
		}
	}
	return f
}

// wordRunes is the number of letters and digits (semantic.go's wordRunes).
func (f textFacts) wordRunes() float64 { return float64(f.letters + f.digits) }

// isChinese is textmetric.IsChinese(q + a + d) from the three texts' facts.
func isChinese(q, a, d string, fq, fa, fd textFacts) bool {
	if !fq.valid || !fa.valid || !fd.valid {
		return textmetric.IsChinese(q + a + d)
	}
	letters, han := fq.letters+fa.letters+fd.letters, fq.han+fa.han+fd.han
	return letters > 0 && float64(han) >= chineseShare*float64(letters)
}

// hanBMP marks the Han characters of the Basic Multilingual Plane, where
// nearly all Chinese text lies: a bit test instead of unicode.Is's search.
var hanBMP = func() *[1 << 16 / 64]uint64 {
	var b [1 << 16 / 64]uint64
	for _, rg := range unicode.Han.R16 {
		for r := uint32(rg.Lo); r <= uint32(rg.Hi); r += uint32(rg.Stride) {
			b[r/64] |= 1 << (r % 64)
		}
	}
	return &b
}()

// isHanRune is unicode.Is(unicode.Han, r).
func isHanRune(r rune) bool {
	if 0 <= r && r < 1<<16 {
		return hanBMP[r/64]&(1<<(r%64)) != 0
	}
	return unicode.Is(unicode.Han, r)
}
