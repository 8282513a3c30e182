package textmetric

import (
	"slices"
	"strings"
	"unicode"
)

// BLEU tokenizer names, as sacreBLEU spells them.
const (
	BLEUTok13a  = "13a"
	BLEUTokZh   = "zh"
	BLEUTokIntl = "intl"
	BLEUTokChar = "char"
	BLEUTokNone = "none"
)

// AutoBLEUTokenizer picks sacreBLEU's tokenizer for a text: "zh" for
// Chinese (IsChinese), "13a" otherwise (formulas.md §2).
func AutoBLEUTokenizer(text string) string {
	if IsChinese(text) {
		return BLEUTokZh
	}
	return BLEUTok13a
}

// bleuTokenizer returns the tokenizer function of a sacreBLEU name.
func bleuTokenizer(name string) (func(string) string, bool) {
	switch name {
	case BLEUTok13a, "":
		return tokenize13a, true
	case BLEUTokZh:
		return tokenizeZh, true
	case BLEUTokIntl:
		return tokenizeIntl, true
	case BLEUTokChar:
		return tokenizeChar, true
	case BLEUTokNone:
		return func(s string) string { return s }, true
	}
	return nil, false
}

// isPySpace is Python's str.isspace for one character, which str.split()
// uses; it differs from unicode.IsSpace on U+001C–U+001F.
func isPySpace(r rune) bool {
	if r > 0x3000 { // past the last white space (U+3000): every CJK character
		return false
	}
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// pyFields is Python's str.split() with no argument.
func pyFields(s string) []string { return strings.FieldsFunc(s, isPySpace) }

func joinFields(s string) string { return strings.Join(pyFields(s), " ") }

// subPairs emulates re.sub(r'(A)(B)', repl, s) for two single-character
// classes: a left-to-right scan with non-overlapping matches.
func subPairs(rs []rune, a, b func(rune) bool, repl func(x, y rune, out []rune) []rune) []rune {
	out := make([]rune, 0, len(rs)+len(rs)/2)
	for i := 0; i < len(rs); {
		if i+1 < len(rs) && a(rs[i]) && b(rs[i+1]) {
			out = repl(rs[i], rs[i+1], out)
			i += 2
			continue
		}
		out = append(out, rs[i])
		i++
	}
	return out
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

// is13aPunct is the class [\{-\~\[-\` -\&\(-\+\:-\@\/] of mteval-v13a: ASCII
// punctuation and space except ' , - .
func is13aPunct(r rune) bool {
	return (r >= '{' && r <= '~') || (r >= '[' && r <= '`') || (r >= ' ' && r <= '&') ||
		(r >= '(' && r <= '+') || (r >= ':' && r <= '@') || r == '/'
}

// tokenizeRegexp is sacreBLEU's TokenizerRegexp, shared by 13a and zh.
func tokenizeRegexp(line string) string {
	rs, _ := regexpPasses(expandPunct(make([]rune, 0, len(line)+8), line, false), nil)
	return joinFields(string(rs))
}

// expandPunct appends line's characters to dst with TokenizerRegexp's first
// rule: each 13a punctuation character set apart by spaces. In zh mode each
// Chinese character is set apart first, as TokenizerZh does before it calls
// TokenizerRegexp: its " c " becomes "   c   ", the spaces being
// punctuation to the rule.
func expandPunct(dst []rune, line string, zh bool) []rune {
	for _, r := range line {
		switch {
		case zh && isSacreZhChar(r):
			dst = append(dst, ' ', ' ', ' ', r, ' ', ' ', ' ')
		case is13aPunct(r):
			dst = append(dst, ' ', r, ' ')
		default:
			dst = append(dst, r)
		}
	}
	return dst
}

// regexpPasses applies TokenizerRegexp's other three rules to a, each a
// left-to-right scan with non-overlapping matches (re.sub), alternating
// between a and b; it returns the result and the other buffer for reuse.
func regexpPasses(a, b []rune) (out, spare []rune) {
	if !slices.ContainsFunc(a, func(r rune) bool { return r == '.' || r == ',' || r == '-' }) {
		return a, b // no rule can match
	}
	isPeriodComma := func(r rune) bool { return r == '.' || r == ',' }
	// period and comma unless preceded by a digit: \1 \2 + space
	b = b[:0]
	for i := 0; i < len(a); i++ {
		if i+1 < len(a) && !isASCIIDigit(a[i]) && isPeriodComma(a[i+1]) {
			b = append(b, a[i], ' ', a[i+1], ' ')
			i++
			continue
		}
		b = append(b, a[i])
	}
	// period and comma unless followed by a digit: space + \1 space \2
	a = a[:0]
	for i := 0; i < len(b); i++ {
		if i+1 < len(b) && isPeriodComma(b[i]) && !isASCIIDigit(b[i+1]) {
			a = append(a, ' ', b[i], ' ', b[i+1])
			i++
			continue
		}
		a = append(a, b[i])
	}
	// dash preceded by a digit
	b = b[:0]
	for i := 0; i < len(a); i++ {
		if i+1 < len(a) && isASCIIDigit(a[i]) && a[i+1] == '-' {
			b = append(b, a[i], ' ', a[i+1], ' ')
			i++
			continue
		}
		b = append(b, a[i])
	}
	return b, a
}

// tokenize13a is sacreBLEU's Tokenizer13a (mteval-v13a.pl).
func tokenize13a(line string) string {
	rs, _ := regexpPasses(pad13a(make([]rune, 0, len(line)+16), replace13a(line)), nil)
	return joinFields(string(rs))
}

// pad13a appends " " + line + " " as TokenizerRegexp's first rule makes it.
func pad13a(dst []rune, line string) []rune {
	dst = append(dst, ' ', ' ', ' ')
	return append(expandPunct(dst, line, false), ' ', ' ', ' ')
}

// replace13a is Tokenizer13a's replacements, sequential in sacreBLEU's
// order (a Replacer would apply them in one pass, which differs for inputs
// like "&amp;quot;"). Each copies the line only when it matches.
func replace13a(line string) string {
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	line = strings.ReplaceAll(line, "&quot;", `"`)
	line = strings.ReplaceAll(line, "&amp;", "&")
	line = strings.ReplaceAll(line, "&lt;", "<")
	return strings.ReplaceAll(line, "&gt;", ">")
}

// sacreZhRanges are sacreBLEU's _UCODE_RANGES as Python actually evaluates
// them. Two entries were written as '\u20000'–'\u2a6d6' and
// '\u2f800'–'\u2fa1d', which Python reads as two-character strings; compared
// with one character they cover U+2001–U+2A6D and U+2F81–U+2FA1 (general
// punctuation, arrows, maths symbols…), not the supplementary ideographs.
// sacreBLEU's scores depend on that, so it is kept.
var sacreZhRanges = [][2]rune{
	{0x3400, 0x4db5}, {0x4e00, 0x9fa5}, {0x9fa6, 0x9fbb}, {0xf900, 0xfa2d},
	{0xfa30, 0xfa6a}, {0xfa70, 0xfad9}, {0x2001, 0x2a6d}, {0x2f81, 0x2fa1},
	{0xff00, 0xffef}, {0x2e80, 0x2eff}, {0x3000, 0x303f}, {0x31c0, 0x31ef},
	{0x2f00, 0x2fdf}, {0x2ff0, 0x2fff}, {0x3100, 0x312f}, {0x31a0, 0x31bf},
	{0xfe10, 0xfe1f}, {0xfe30, 0xfe4f}, {0x2600, 0x26ff}, {0x2700, 0x27bf},
	{0x3200, 0x32ff}, {0x3300, 0x33ff},
}

func isSacreZhChar(r rune) bool {
	for _, rg := range sacreZhRanges {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// tokenizeZh is sacreBLEU's TokenizerZh: every Chinese character (by its
// ranges) is set apart, then TokenizerRegexp runs.
func tokenizeZh(line string) string {
	line = strings.TrimFunc(line, isPySpace)
	rs, _ := regexpPasses(expandPunct(make([]rune, 0, len(line)*2), line, true), nil)
	return joinFields(string(rs))
}

// tokenizeIntl is sacreBLEU's TokenizerV14International (mteval-v14.pl).
func tokenizeIntl(line string) string {
	rs := []rune(line)
	isP := func(r rune) bool { return unicode.IsPunct(r) }
	notN := func(r rune) bool { return !unicode.IsNumber(r) }
	rs = subPairs(rs, notN, isP, func(x, y rune, out []rune) []rune { return append(out, x, ' ', y, ' ') })
	rs = subPairs(rs, isP, notN, func(x, y rune, out []rune) []rune { return append(out, ' ', x, ' ', y) })
	out := make([]rune, 0, len(rs))
	for _, r := range rs {
		if unicode.IsSymbol(r) {
			out = append(out, ' ', r, ' ')
		} else {
			out = append(out, r)
		}
	}
	return joinFields(string(out))
}

// tokenizeChar is sacreBLEU's TokenizerChar: every character is a token.
func tokenizeChar(line string) string {
	var b strings.Builder
	for i, r := range line {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}
