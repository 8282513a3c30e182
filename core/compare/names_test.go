package compare

import (
	"strings"
	"testing"

	"cubeworkbench/core/glossary"
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
