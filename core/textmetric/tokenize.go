package textmetric

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"cubeworkbench/assets/stopwords"
)

// chineseShare is the share of letters that must be Han for a text to be
// treated as Chinese (formulas.md §2, our reading).
const chineseShare = 0.30

var (
	stopEN = stopwords.English()
	stopZH = stopwords.Chinese()
)

// IsChinese reports whether at least 30 % of the letters of s are Han
// characters. A text with no letters is not Chinese.
func IsChinese(s string) bool {
	letters, han := 0, 0
	for _, r := range s {
		c := runeClass(r)
		if c&classLetter == 0 {
			continue
		}
		letters++
		if c&classHan != 0 {
			han++
		}
	}
	return letters > 0 && float64(han) >= chineseShare*float64(letters)
}

// Tokenize picks the Chinese or English rules by IsChinese.
func Tokenize(s string) []string {
	if IsChinese(s) {
		return TokenizeChinese(s)
	}
	return TokenizeEnglish(s)
}

// TokenizeEnglish lowercases s and splits it on runs of characters that are
// neither letters nor digits.
func TokenizeEnglish(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// TokenizeChinese makes every Han character a token and every run of other
// letters or digits (Latin words, numbers) one lowercased token; everything
// else separates tokens.
func TokenizeChinese(s string) []string {
	var out []string
	start := -1 // byte offset of the current non-Han run, -1 when none
	flush := func(end int) {
		if start >= 0 {
			out = append(out, strings.ToLower(s[start:end]))
			start = -1
		}
	}
	for i, r := range s {
		switch c := runeClass(r); {
		case c&classHan != 0:
			flush(i)
			out = append(out, s[i:i+utf8.RuneLen(r)]) // the text's own bytes: no copy per character
		case c&(classLetter|classDigit) != 0:
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	return out
}

// ContentTokens is Tokenize minus the stopwords of the text's language
// (see RemoveStopwords).
func ContentTokens(s string) []string {
	zh := IsChinese(s)
	var toks []string
	if zh {
		toks = TokenizeChinese(s)
	} else {
		toks = TokenizeEnglish(s)
	}
	return RemoveStopwords(toks, zh)
}

// RemoveStopwords drops stopwords from toks, in place. English text loses
// English stopwords; Chinese text loses Chinese ones and, since Chinese
// answers often carry Latin words ("APP", "the"), English ones too.
func RemoveStopwords(toks []string, chinese bool) []string {
	out := toks[:0]
	for _, t := range toks {
		if IsStopword(t, chinese) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// IsStopword says whether RemoveStopwords drops t.
func IsStopword(t string, chinese bool) bool {
	return stopEN[t] || (chinese && stopZH[t])
}
