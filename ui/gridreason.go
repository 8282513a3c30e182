package ui

import (
	"regexp"
	"strings"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/text"
)

// The judges store their reasons in both languages (core/judge.ReasonText
// reads them). Runs stored before that hold the offline lexical judge's
// reasons in English only; the window still shows those in its own
// language through this table: each pattern is one sentence lexical.go
// wrote, its groups the numbers, and the key its translation (template
// fields A, B, C, D in group order).
var lexicalReasons = []struct {
	re  *regexp.Regexp
	key string
}{
	{regexp.MustCompile(`^relevance: (\d+)/(\d+) question words in the answer$`), "grid.lex.relevance"},
	{regexp.MustCompile(`^specificity: (\d+)/(\d+) answer words in the guide, (\d+) numbers agree$`), "grid.lex.specificity_numbers"},
	{regexp.MustCompile(`^specificity: (\d+)/(\d+) answer words in the guide$`), "grid.lex.specificity"},
	{regexp.MustCompile(`^specificity: empty answer$`), "grid.lex.empty_answer"},
	{regexp.MustCompile(`^completeness: (\d+)/(\d+) key guide words in the answer$`), "grid.lex.completeness"},
	{regexp.MustCompile(`^correctness: F1 ([0-9.]+) \((\d+)/(\d+) reference words in the answer\)$`), "grid.lex.correctness"},
	{regexp.MustCompile(`^faithfulness: YES, (\d+)/(\d+) answer words in the passages$`), "grid.lex.faithful_yes"},
	{regexp.MustCompile(`^faithfulness: NO, (\d+)/(\d+) answer words in the passages$`), "grid.lex.faithful_no"},
	{regexp.MustCompile(`^relevancy: YES, (\d+)/(\d+) question words in answer and passages$`), "grid.lex.relevancy_yes"},
	{regexp.MustCompile(`^relevancy: NO, (\d+)/(\d+) question words in answer and passages$`), "grid.lex.relevancy_no"},
	{regexp.MustCompile(`^no_score: the question has no content words$`), "grid.lex.no_question_words"},
	{regexp.MustCompile(`^no_score: (\w+) needs the service guide$`), "grid.lex.needs_guide"},
	{regexp.MustCompile(`^no_score: correctness needs a reference answer$`), "grid.lex.needs_reference"},
	{regexp.MustCompile(`^no_score: the lexical judge has no rule for dimension (\S+)$`), "grid.lex.no_rule"},
	{regexp.MustCompile(`^out_of_range: lexical score ([0-9.]+) is outside (\d+)–(\d+)$`), "grid.lex.out_of_range"},
}

var lexicalQuality = regexp.MustCompile(`^quality: mean ([0-9.]+) × length ([0-9.]+) × padding ([0-9.]+) × repetition ([0-9.]+) \((.*)\)$`)

// judgeReason is a judge's reason or reply in the window's language: a
// reason stored in both languages (any judge's today) in one of them, with
// its code in words (无法评分, not no_score); an old run's English lexical
// sentence translated; a judge's own words as written.
func judgeReason(s string) string {
	s = strings.TrimSpace(s)
	if t, ok := legacyLexicalReason(s); ok {
		return t
	}
	return judge.ReasonText(s).In(currentLanguage())
}

// legacyLexicalReason translates a reason the lexical judge stored in
// English before reasons had two languages; ok is false for any other.
func legacyLexicalReason(s string) (string, bool) {
	if strings.Contains(s, " | ") {
		return "", false // two languages: not an old English sentence
	}
	s = strings.TrimPrefix(s, "lexical ")
	if m := lexicalQuality.FindStringSubmatch(s); m != nil {
		var parts []string
		for _, p := range strings.Split(m[5], "; ") {
			parts = append(parts, judgeReason(p))
		}
		return trf("grid.lex.quality", map[string]any{"A": m[1], "B": m[2], "C": m[3], "D": m[4]}) +
			text.New("（", " (").In(currentLanguage()) + strings.Join(parts, text.New("；", "; ").In(currentLanguage())) + text.New("）", ")").In(currentLanguage()), true
	}
	for _, p := range lexicalReasons {
		m := p.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		data := map[string]any{}
		for i, g := range m[1:] {
			if p.key == "grid.lex.needs_guide" || p.key == "grid.lex.no_rule" {
				g = glossary.Name(glossary.DimensionID, g, currentLanguage())
			}
			data[string(rune('A'+i))] = g
		}
		return trf(p.key, data), true
	}
	return "", false
}
