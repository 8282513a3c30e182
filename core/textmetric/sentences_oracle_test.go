package textmetric

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSentencesOracle: Sentences, which reuses its buffers across calls,
// splits every generated text (and the hand-made cases of TestSentences)
// as the implementation before issue 27's buffer reuse did (oldSentences
// below, verbatim but for the names).
func TestSentencesOracle(t *testing.T) {
	texts := oracleTexts(11, 1500)
	r := rand.New(rand.NewPCG(5, 6))
	marks := []string{"。", "；", "\n", "1、", "（一）", "“", "”", "《", "》", "(", ")", "：", ". ", "U.S. ", "e.g. ", "No. 5", "第一，", "①", "...", "!", "?x", "\r\n"}
	for range 3000 {
		var b strings.Builder
		for range 2 + r.IntN(20) {
			if r.IntN(2) == 0 {
				b.WriteString(marks[r.IntN(len(marks))])
			} else {
				b.WriteString(oracleText(r, 1+r.IntN(12), r.IntN(4)))
			}
		}
		texts = append(texts, b.String())
	}
	texts = append(texts, strings.Repeat("办理材料。", 20000)) // beyond the buffers kept
	for _, s := range texts {
		want := oldSentences(s)
		if got := Sentences(s); !slices.Equal(got, want) {
			t.Fatalf("Sentences(%q) = %q, want %q", s, got, want)
		}
		prefix := []string{"kept"}
		if got := AppendSentences(prefix, s); !slices.Equal(got, append(prefix, want...)) {
			t.Fatalf("AppendSentences(%q) = %q", s, got)
		}
	}
}

// BenchmarkSentences splits answers shaped like internal/scale's; -benchmem
// shows the allocations per call.
func BenchmarkSentences(b *testing.B) {
	pairs := benchPairs(false)
	for _, impl := range []struct {
		name string
		f    func(string) []string
	}{{"new", Sentences}, {"old", oldSentences}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				impl.f(pairs[i%len(pairs)][0])
			}
		})
	}
}

// oldSentences and oldSpansOf are Sentences and spansOf before issue 27's
// buffer reuse.
func oldSentences(s string) []string {
	rs := []rune(s)
	offs := make([]int, 0, len(rs)+1) // byte offset of each rune, and of the end
	for i := range s {
		offs = append(offs, i)
	}
	offs = append(offs, len(s))
	sp := oldSpansOf(s, rs)
	var out []string
	start := 0
	emit := func(end int) {
		piece := strings.TrimSpace(s[offs[start]:offs[end]])
		if strings.IndexFunc(piece, isWordRune) >= 0 {
			out = append(out, piece)
		}
		start = end
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if isLineBreak(r) {
			if !listGoesOn(rs, start, i) {
				emit(i)
			}
			continue
		}
		if !isTerminator(r) {
			continue
		}
		j := i // last terminator of the run
		for j+1 < len(rs) && isTerminator(rs[j+1]) {
			j++
		}
		k := j // last closing mark kept with the sentence
		for k+1 < len(rs) && sp.isCloser(rs, k+1) {
			k++
		}
		if endsSentence(rs, sp, start, i, j, k) {
			emit(k + 1)
		}
		i = k
	}
	emit(len(rs))
	return out
}

func oldSpansOf(s string, rs []rune) spans {
	if !strings.ContainsAny(s, openingMarks) {
		return spans{} // nothing quoted or bracketed: the common case
	}
	type open struct {
		at    int
		close rune
	}
	sp := spans{depth: make([]int, len(rs)+1), closes: make([]bool, len(rs))}
	diff := sp.depth // a difference array first, summed in place below
	var stack []open
	for p, r := range rs {
		if isLineBreak(r) {
			stack = stack[:0] // unmatched marks protect nothing
			continue
		}
		matched := false
		for d := len(stack) - 1; d >= 0; d-- {
			if stack[d].close == r {
				diff[stack[d].at]++
				diff[p]--
				sp.closes[p] = true
				stack = stack[:d]
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		if c, ok := closerOf(r); ok {
			stack = append(stack, open{p, c})
		}
	}
	run := 0
	for p := range rs {
		run += diff[p]
		sp.depth[p] = run
	}
	return sp
}
