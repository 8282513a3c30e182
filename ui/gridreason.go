package ui

import (
	"regexp"
	"strings"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// The offline lexical judge (core/judge/lexical.go) writes its reasons in
// English, for logs and the scores sheet. The window shows them in its own
// language through this table: each pattern is one sentence lexical.go
// writes, its groups the numbers, and the key its translation (template
// fields A, B, C, D in group order). A reason no pattern matches (an LLM
// judge's own words) is shown as written.
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
// reason stored in both languages in one of them, the lexical judge's
// sentences translated, anything else as written.
func judgeReason(s string) string {
	s = strings.TrimSpace(s)
	// A reason stored in both languages ("zh | en", the semantic judge's)
	// in the window's language only.
	if t := text.Parse(s); t.ZH != t.EN {
		return t.In(text.LangOf(currentLanguage()))
	}
	s = strings.TrimPrefix(s, "lexical ")
	if m := lexicalQuality.FindStringSubmatch(s); m != nil {
		var parts []string
		for _, p := range strings.Split(m[5], "; ") {
			parts = append(parts, judgeReason(p))
		}
		return trf("grid.lex.quality", map[string]any{"A": m[1], "B": m[2], "C": m[3], "D": m[4]}) +
			pick(currentLanguage(), " (", "（") + strings.Join(parts, pick(currentLanguage(), "; ", "；")) + pick(currentLanguage(), ")", "）")
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
		return trf(p.key, data)
	}
	return s
}
