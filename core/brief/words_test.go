package brief

import (
	"strings"
	"testing"

	"cubeworkbench/core/glossary"
)

// The brief's words have both languages, and where one names a thing the
// glossary names, it is the glossary's name (the report and the window
// use the same): 指南召回率@k, not 前 k 条检索召回率.
func TestTextsNameGlossaryTermsAsTheGlossaryDoes(t *testing.T) {
	// A narrow column of the judges table: the sentence under the table
	// says it in full (judge.notcounted).
	short := map[string]bool{"notcounted": true}
	type term struct {
		id     glossary.ID
		zh, en string
	}
	byZH, byEN := map[string]term{}, map[string]term{}
	for _, id := range glossary.IDs() {
		tm := term{id, glossary.Term(id, "zh"), strings.ToLower(glossary.Term(id, "en"))}
		byZH[tm.zh], byEN[tm.en] = tm, tm
	}
	for key, tx := range texts {
		if tx.ZH == "" || tx.EN == "" {
			t.Errorf("%s: %q / %q: a language is empty", key, tx.ZH, tx.EN)
		}
		if short[key] {
			continue
		}
		en := strings.ToLower(tx.EN)
		if tm, ok := byZH[tx.ZH]; ok && strings.TrimSuffix(en, "s") != tm.en {
			t.Errorf("%s: %q / %q: the glossary's %s is %q / %q", key, tx.ZH, tx.EN, tm.id, tm.zh, tm.en)
		}
		if tm, ok := byEN[strings.TrimSuffix(en, "s")]; ok && tx.ZH != tm.zh {
			t.Errorf("%s: %q / %q: the glossary's %s is %q / %q", key, tx.ZH, tx.EN, tm.id, tm.zh, tm.en)
		}
		if strings.Contains(tx.ZH, "召回率") && !strings.Contains(tx.ZH, glossary.Term(glossary.GuideRecall, "zh")[:len("指南召回率")]) {
			t.Errorf("%s: %q names recall other than the glossary's %q", key, tx.ZH, glossary.Term(glossary.GuideRecall, "zh"))
		}
	}
	if got := recallAt(LangZH, 8); got != glossary.GuideRecallAt(8, "zh") {
		t.Errorf("the judges table heads recall %q, the glossary %q", got, glossary.GuideRecallAt(8, "zh"))
	}
}
