package compare

import (
	"strings"
	"testing"
	"unicode"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// TestSidesNamedAsTheUserDoes: every sentence names the two sides as the
// user does — the glossary's name for the system's own answers (被测系统回答,
// never the set code rag), the user's label for another set — and the
// judges and dimensions by their glossary names, in each language.
func TestSidesNamedAsTheUserDoes(t *testing.T) {
	wb := book(40, []string{"lexical", "qwen"}, 3, 0.3, func(j string, i int) float64 { return 1 })
	a, b := FromWorkbook(wb, "rag", "v2")
	r, err := Compare(a, b, Options{Config: config(200)})
	if err != nil {
		t.Fatal(err)
	}
	sideZH, sideEN := glossary.Term(glossary.SetRAG, "zh"), glossary.Term(glossary.SetRAG, "en")
	if !strings.Contains(r.Headline.ZH, sideZH) || !strings.Contains(r.Headline.EN, sideEN) || !strings.Contains(r.Headline.ZH, "v2") {
		t.Errorf("headline does not name the sides %q, v2: %q / %q", sideZH, r.Headline.ZH, r.Headline.EN)
	}
	if a, b := r.Names(); a.ZH != sideZH || a.EN != sideEN || b.ZH != "v2" || b.EN != "v2" {
		t.Errorf("names %+v %+v", a, b)
	}
	all := []Message{r.Headline}
	all = append(append(all, r.Bullets...), r.Warnings...)
	for _, m := range all {
		for _, id := range []string{"rag", "lexical", "relevance", "specificity", "Recall"} {
			if containsWord(m.ZH, id) {
				t.Errorf("%s: English id %q in the Chinese %q", m.Code, id, m.ZH)
			}
		}
		if containsWord(m.EN, "lexical") && !strings.Contains(m.EN, glossary.Term(glossary.JudgeLexical, "en")) {
			t.Errorf("%s: judge id lexical in %q", m.Code, m.EN)
		}
	}
	for _, row := range Rows(r, "zh") {
		for _, id := range []string{"lexical", "weighted"} {
			if strings.Contains(row.Label, id) {
				t.Errorf("row %s: %q in %q", row.Key, id, row.Label)
			}
		}
	}
}

// containsWord says s holds w with no ASCII letter on either side.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before, after := j == 0 || !isLetter(s[j-1]), j+len(w) == len(s) || !isLetter(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + len(w)
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// TestRowsNameDimensionsByTheirNames: the delta table (the window's
// Compare tab, cubectl compare, the report's Comparison sheet) names each
// built-in dimension by the registry's title and the weighted score by its
// name, in each language — never by the ids weighted and relevance, which
// the English table showed.
func TestRowsNameDimensionsByTheirNames(t *testing.T) {
	wb := book(40, []string{"lexical", "qwen"}, 3, 0.3, func(j string, i int) float64 { return 1 })
	a, b := FromWorkbook(wb, "rag", "v2")
	r, err := Compare(a, b, Options{Config: config(200)})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Dimensions) == 0 {
		t.Fatal("the comparison has no dimensions")
	}
	for _, lang := range []text.Lang{text.ZH, text.EN} {
		labels := map[string]string{}
		for _, row := range Rows(r, lang) {
			labels[row.Key] = row.Label
		}
		if got, want := labels[MetricWeighted], weightedName.In(lang); got != want {
			t.Errorf("%s: weighted row %q, want %q", lang, got, want)
		}
		for _, d := range r.Dimensions {
			dim, ok := dimension.Lookup(d)
			if !ok {
				t.Fatalf("%s is not a built-in dimension", d)
			}
			if got, want := labels[d], dim.Title(lang); got != want || got == d {
				t.Errorf("%s: row %s labelled %q, want %q", lang, d, got, want)
			}
		}
		for key, l := range labels {
			if lang == text.ZH && !strings.ContainsFunc(l, func(r rune) bool { return unicode.Is(unicode.Han, r) }) && key != MetricCube && !strings.HasPrefix(key, MetricCube+":") {
				t.Errorf("zh: row %s labelled %q, no Chinese", key, l)
			}
			if lang == text.EN && l != "" && l[0] >= 'a' && l[0] <= 'z' {
				t.Errorf("en: row %s labelled %q, not as a heading", key, l)
			}
			if key != MetricCube && !strings.HasPrefix(key, MetricCube+":") && l == key {
				t.Errorf("%s: row %s labelled by its id", lang, key)
			}
		}
	}
}
