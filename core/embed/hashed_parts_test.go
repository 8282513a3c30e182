package embed

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// sameSparse reports whether a and b hold the same entries, value bits
// included.
func sameSparse(a, b Sparse) bool {
	if len(a.Index) != len(b.Index) || len(a.Value) != len(b.Value) {
		return false
	}
	for i := range a.Index {
		if a.Index[i] != b.Index[i] || math.Float32bits(a.Value[i]) != math.Float32bits(b.Value[i]) {
			return false
		}
	}
	return true
}

// trimmedPieces cuts text at random rune boundaries into pieces trimmed
// of white space, as a sentence splitter does, dropping some.
func trimmedPieces(r *rand.Rand, text string) [][2]int {
	var cuts []int
	for b := range text {
		if r.IntN(6) == 0 {
			cuts = append(cuts, b)
		}
	}
	cuts = append(cuts, len(text))
	var out [][2]int
	start := 0
	for _, c := range cuts {
		piece := text[start:c]
		lo := start + len(piece) - len(strings.TrimLeft(piece, " \t\n\u3000\u00a0"))
		hi := start + len(strings.TrimRight(piece, " \t\n\u3000\u00a0"))
		if lo < hi && r.IntN(5) > 0 {
			out = append(out, [2]int{lo, hi})
		}
		start = c
	}
	return out
}

// TestSparsePartsEqualsSparse: SparseParts gives Sparse of the whole text
// and of each part, bit for bit, on Chinese, English, mixed and spaced-out
// texts, with repeats (grams that cancel), and falls back for texts it
// cannot split (invalid UTF-8, parts with white space at an edge).
func TestSparsePartsEqualsSparse(t *testing.T) {
	h := NewHashed()
	pieces := []string{"办理", "社会保障卡", "。", "；", " ", "  ", "\n", "\t", "\u3000", "\u00a0", "The", "OFFICE", "opens", "9:00",
		"İ", "Σ", "ΣΑΣ", "😀", "ab", "ab ab", "，", "a", "b", "c", "d", "e"}
	r := rand.New(rand.NewPCG(27, 1))
	var buf HashedBuffers
	for n := range 3000 {
		var b strings.Builder
		for range r.IntN(60) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		if n%500 == 0 {
			text = strings.Repeat("ab ", 5000) // long, and past any small buffer
		}
		parts := trimmedPieces(r, text)
		whole, got := h.SparseParts(&buf, text, parts)
		if !sameSparse(whole, h.Sparse(text)) {
			t.Fatalf("text %q: whole vector differs from Sparse", text)
		}
		if len(got) != len(parts) {
			t.Fatalf("text %q: %d vectors for %d parts", text, len(got), len(parts))
		}
		for k, p := range parts {
			if !sameSparse(got[k], h.Sparse(text[p[0]:p[1]])) {
				t.Fatalf("text %q part %q: vector differs from Sparse", text, text[p[0]:p[1]])
			}
		}
	}
	for _, c := range []struct {
		text  string
		parts [][2]int
	}{
		{"a\xffb c", [][2]int{{0, 3}}},      // invalid UTF-8
		{"ab cd", [][2]int{{0, 3}}},         // ends in a space
		{"ab cd", [][2]int{{3, 5}, {0, 2}}}, // out of order
		{"中文", [][2]int{{1, 6}}},            // not at a rune start
	} {
		whole, got := h.SparseParts(&buf, c.text, c.parts)
		if !sameSparse(whole, h.Sparse(c.text)) || !sameSparse(got[0], h.Sparse(c.text[c.parts[0][0]:c.parts[0][1]])) {
			t.Errorf("%q %v: fallback differs from Sparse", c.text, c.parts)
		}
	}
}
