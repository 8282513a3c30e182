package dataset

import "testing"

func TestCanonicalQueryType(t *testing.T) {
	cases := []struct{ in, want string }{
		{"factual", QueryFactual}, {" 事实类 ", QueryFactual}, {"分析类", QueryAnalytical},
		{"Comparative", QueryComparative}, {"教程类", QueryTutorial}, {"Other", "other"}, {"", ""},
	}
	for _, c := range cases {
		if got := CanonicalQueryType(c.in); got != c.want {
			t.Errorf("CanonicalQueryType(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestGuideIndexPrefersIDs(t *testing.T) {
	w := Workbook{Guides: []Guide{{ID: "A", Title: "B"}, {ID: "B", Title: "C"}}}
	idx := w.GuideIndex()
	if idx["A"] != 0 || idx["B"] != 1 || idx["C"] != 1 {
		t.Fatalf("GuideIndex = %v", idx)
	}
}

func TestItemAnswers(t *testing.T) {
	var it Item
	if it.Answer(SetRAG) != "" {
		t.Fatal("empty item has an answer")
	}
	it.SetAnswer(SetRAG, "x")
	if it.Answer(SetRAG) != "x" {
		t.Fatal("SetAnswer lost")
	}
}

// SetAnswer never writes into the map an item holds, so two items that
// share one (a session's clone and its original) stay apart.
func TestSetAnswerLeavesASharedMapAlone(t *testing.T) {
	a := Item{ID: "Q1"}
	a.SetAnswer(SetRAG, "r")
	b := a // b shares a's map
	b.SetAnswer(SetZero, "z")
	b.SetAnswer(SetRAG, "r2")
	if len(a.Answers) != 1 || a.Answer(SetRAG) != "r" {
		t.Errorf("a.Answers = %v after b's answers; want only rag r", a.Answers)
	}
	if b.Answer(SetZero) != "z" || b.Answer(SetRAG) != "r2" {
		t.Errorf("b.Answers = %v", b.Answers)
	}
}
