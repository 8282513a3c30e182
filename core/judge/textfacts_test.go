package judge

import (
	"testing"
	"unicode"
)

// TestIsHanRune: the bit table agrees with unicode.Is(unicode.Han, r) on
// every code point.
func TestIsHanRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if isHanRune(r) != unicode.Is(unicode.Han, r) {
			t.Fatalf("isHanRune(%U) = %v, unicode.Is %v", r, isHanRune(r), !isHanRune(r))
		}
	}
	for _, r := range []rune{-1, unicode.MaxRune + 1} {
		if isHanRune(r) {
			t.Errorf("isHanRune(%d) is true", r)
		}
	}
}
