package brief

import (
	"strings"
	"unicode"
)

// Ellipsis marks text cut to fit the page.
const Ellipsis = "…"

// measure returns the width in mm of s at size pt in the page's face.
type measure func(s string, size float64) float64

// tokens splits s into the pieces a line may break between: a Latin word
// with its trailing space, or one Han character. Closing punctuation sticks
// to what precedes it, so no line starts with "，" or "）".
func tokens(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			if cur.Len() == 0 && len(out) > 0 {
				out[len(out)-1] += " "
				continue
			}
			cur.WriteRune(' ')
			flush()
		case closing(r):
			if cur.Len() == 0 && len(out) > 0 {
				// "78.3 %)": a closing mark after a space stays with what
				// precedes it, so no line starts with it.
				out[len(out)-1] += string(r)
				continue
			}
			cur.WriteRune(r)
		case unicode.Is(unicode.Han, r) || opening(r):
			// A Han character is a token of its own (with the closing
			// punctuation after it); an opening bracket sticks to what follows.
			if !endsOpening(cur.String()) {
				flush()
			}
			cur.WriteRune(r)
		default:
			// Latin, digits, other symbols: part of a word; a word after a
			// Han character starts a new token.
			if s := cur.String(); s != "" && !endsOpening(s) {
				rs := []rune(s)
				if l := rs[len(rs)-1]; unicode.Is(unicode.Han, l) || (closing(l) && l > 0x7f) {
					flush()
				}
			}
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

func endsOpening(s string) bool {
	rs := []rune(s)
	return len(rs) > 0 && opening(rs[len(rs)-1])
}

func closing(r rune) bool {
	return strings.ContainsRune("，。、；：！？）》」』】”’,.;:!?)%", r)
}
func opening(r rune) bool { return strings.ContainsRune("（《「『【“‘(", r) }

// wrap breaks s into at most max lines no wider than w; when it needs more,
// the last line ends with Ellipsis. cut reports whether anything was lost.
func wrap(m measure, s string, size, w float64, max int) (lines []string, cut bool) {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return nil, false
	}
	var line string
	toks := tokens(s)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if m(strings.TrimRight(line+t, " "), size) <= w {
			line += t
			continue
		}
		if line == "" {
			// A token wider than the line (a long URL or file name): break
			// it by runes.
			head, rest := fitRunes(m, t, size, w)
			lines = append(lines, head)
			toks[i] = rest
			i--
		} else {
			lines = append(lines, strings.TrimRight(line, " "))
			line = ""
			i--
		}
		if len(lines) == max {
			return ellipsize(m, lines, size, w), true
		}
	}
	if line != "" {
		lines = append(lines, strings.TrimRight(line, " "))
	}
	if len(lines) > max {
		return ellipsize(m, lines[:max], size, w), true
	}
	return lines, false
}

// fitRunes splits t after the most runes that fit in w (at least one).
func fitRunes(m measure, t string, size, w float64) (head, rest string) {
	rs := []rune(t)
	n := 1
	for n < len(rs) && m(string(rs[:n+1]), size) <= w {
		n++
	}
	return string(rs[:n]), string(rs[n:])
}

// ellipsize ends the last line with Ellipsis, dropping runes until it fits.
func ellipsize(m measure, lines []string, size, w float64) []string {
	last := []rune(strings.TrimRight(lines[len(lines)-1], " "))
	for len(last) > 0 && m(string(last)+Ellipsis, size) > w {
		last = last[:len(last)-1]
	}
	lines[len(lines)-1] = strings.TrimRight(string(last), " ") + Ellipsis
	return lines
}

// fit returns s cut with Ellipsis to one line of width w.
func fit(m measure, s string, size, w float64) string {
	lines, _ := wrap(m, s, size, w, 1)
	if len(lines) == 0 {
		return ""
	}
	return lines[0]
}

// sentences splits s after each sentence or clause end (。；！？ and
// ". ", "; " in English), keeping the marks with their sentence.
func sentences(s string) []string {
	var out []string
	rs := []rune(s)
	start := 0
	for i, r := range rs {
		// ". " ends a sentence only before a capital ("e.g. q004" does
		// not); "; " always ends a clause.
		spaced := i+2 < len(rs) && rs[i+1] == ' '
		end := strings.ContainsRune("。；！？", r) ||
			r == ';' && spaced ||
			strings.ContainsRune(".!?", r) && spaced && i > 0 && unicode.IsUpper(rs[i+2]) && !unicode.IsDigit(rs[i-1])
		if end {
			out = append(out, string(rs[start:i+1]))
			start = i + 1
		}
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}

// wrapWhole wraps s into at most max lines like wrap, but shortens it by
// whole sentences rather than cutting one mid-way with "…": it keeps the
// most leading sentences that fit, and the first sentence whole even when
// that takes more lines. cut reports that sentences were left out.
func wrapWhole(m measure, s string, size, w float64, max int) (lines []string, cut bool) {
	if lines, cut := wrap(m, s, size, w, max); !cut {
		return lines, false
	}
	parts := sentences(strings.Join(strings.Fields(s), " "))
	for n := len(parts) - 1; n >= 1; n-- {
		head := strings.TrimSpace(strings.Join(parts[:n], ""))
		head = strings.TrimRight(head, ";；,，")
		if lines, cut := wrap(m, head, size, w, max); !cut {
			return lines, true
		}
	}
	lines, _ = wrap(m, strings.TrimRight(strings.TrimSpace(parts[0]), ";；,，"), size, w, 1<<20)
	return lines, len(parts) > 1
}
