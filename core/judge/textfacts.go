package judge

import (
	"sync"
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
	tab := bmpClasses()
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
		if r == utf8.RuneError && size == 1 {
			f.valid = false
			continue
		}
		switch c := classOf(tab, r); {
		case c&classLetter != 0:
			f.letters++
			if c&classHan != 0 {
				f.han++
			}
		case c&classDigit != 0:
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

// Classes of a character, for the loops that look at every character of
// every text: one table read for the Basic Multilingual Plane, where
// nearly all text lies, instead of unicode's searches.
const (
	classLetter = 1 << iota // unicode.IsLetter
	classDigit              // unicode.IsDigit
	classHan                // unicode.Is(unicode.Han, r)
)

var bmpClasses = sync.OnceValue(func() *[1 << 16]uint8 {
	var t [1 << 16]uint8
	for r := range rune(1 << 16) {
		t[r] = slowClass(r)
	}
	return &t
})

func slowClass(r rune) uint8 {
	var c uint8
	if unicode.IsLetter(r) {
		c |= classLetter
	}
	if unicode.IsDigit(r) {
		c |= classDigit
	}
	if unicode.Is(unicode.Han, r) {
		c |= classHan
	}
	return c
}

// classes returns the class of a character; tab is bmpClasses().
func classOf(tab *[1 << 16]uint8, r rune) uint8 {
	if 0 <= r && r < 1<<16 {
		return tab[r]
	}
	return slowClass(r)
}

// isHanRune is unicode.Is(unicode.Han, r).
func isHanRune(r rune) bool { return classOf(bmpClasses(), r)&classHan != 0 }
