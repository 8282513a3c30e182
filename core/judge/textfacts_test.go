package judge

import (
	"math"
	"testing"
	"unicode"
)

// TestIsHanRune: the class table agrees with unicode.Is(unicode.Han, r),
// unicode.IsLetter and unicode.IsDigit on every code point.
func TestIsHanRune(t *testing.T) {
	tab := bmpClasses()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if isHanRune(r) != unicode.Is(unicode.Han, r) {
			t.Fatalf("isHanRune(%U) = %v, unicode.Is %v", r, isHanRune(r), !isHanRune(r))
		}
		c := classOf(tab, r)
		if c&classLetter != 0 != unicode.IsLetter(r) || c&classDigit != 0 != unicode.IsDigit(r) {
			t.Fatalf("classOf(%U) = %b, IsLetter %v, IsDigit %v", r, c, unicode.IsLetter(r), unicode.IsDigit(r))
		}
	}
	for _, r := range []rune{-1, unicode.MaxRune + 1} {
		if isHanRune(r) {
			t.Errorf("isHanRune(%d) is true", r)
		}
	}
}

// TestDotIsSparseDot: dot gives embed.Sparse.Dot to the bit.
func TestDotIsSparseDot(t *testing.T) {
	texts := []string{"", "办理社会保障卡", "社会保障卡补办需要本人身份证", "The permit is issued within five days.", "a", "ab ab ab"}
	for _, x := range texts {
		for _, y := range texts {
			a, b := hashed.Sparse(x), hashed.Sparse(y)
			if got, want := dot(a, b), a.Dot(b); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("dot(%q, %q) = %v, Sparse.Dot %v", x, y, got, want)
			}
		}
	}
}
