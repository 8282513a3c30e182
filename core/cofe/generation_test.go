package cofe

import (
	"math"
	"testing"

	"cubeworkbench/core/dataset"
)

func genItem(id, qt, ref, ans string) dataset.Item {
	it := dataset.Item{ID: id, QueryType: qt, Reference: ref}
	it.SetAnswer(dataset.SetRAG, ans)
	return it
}

func j(item, judge, dim string, score float64, ok bool) dataset.Judgement {
	st := dataset.StatusOK
	if !ok {
		st = dataset.StatusUnscorable
	}
	return dataset.Judgement{ItemID: item, Set: dataset.SetRAG, Judge: judge, Dimension: dim, Score: score, Status: st, Repeat: 1}
}

func near(p *float64, want float64) bool { return p != nil && math.Abs(*p-want) < 1e-9 }

func TestEvaluateGenerationByHand(t *testing.T) {
	items := []dataset.Item{
		genItem("a", "factual", "the cat sat", "the cat sat"),
		genItem("b", "factual", "two dogs ran", "one bird flew"),
		genItem("c", "tutorial", "open the form", "open the form now"),
		genItem("d", "tutorial", "", "no reference: not a CoFE item"),
	}
	scores := []dataset.Judgement{
		j("a", "J", DimCorrectness, 5, true), j("a", "J", DimFaithfulness, 1, true), j("a", "J", DimRelevancy, 1, true),
		j("b", "J", DimCorrectness, 2, true), j("b", "J", DimFaithfulness, 0, true), j("b", "J", DimRelevancy, 0, false),
		// c: two repeats of correctness, 3 and 5 → mean 4 → passes.
		j("c", "J", DimCorrectness, 3, true), j("c", "J", DimCorrectness, 5, true), j("c", "J", DimRelevancy, 1, true),
		j("d", "J", DimCorrectness, 1, true),
		// Judgements of another set or dimension are not generation metrics.
		{ItemID: "a", Set: dataset.SetZero, Judge: "J", Dimension: DimCorrectness, Score: 1, Status: dataset.StatusOK},
		{ItemID: "a", Set: dataset.SetRAG, Judge: "J", Dimension: "quality", Score: 9, Status: dataset.StatusOK},
	}
	g := EvaluateGeneration(items, dataset.ScoresOf(scores...), dataset.SetRAG)
	if g == nil || len(g.Judges) != 1 {
		t.Fatalf("generation = %+v", g)
	}
	m := g.Judges[0]
	// correctness (5 + 2 + 4) / 3; pass: a and c of three.
	if m.Queries != 3 || !near(m.Correctness, 11.0/3) || !near(m.PassRate, 2.0/3) {
		t.Errorf("overall = %+v", m.GenMetrics)
	}
	// faithfulness: a yes, b no; c unjudged. relevancy: a yes, c yes; b unscorable.
	if !near(m.Faithfulness, 0.5) || !near(m.Relevancy, 1) || m.Unscorable != 1 {
		t.Errorf("faith %v relev %v unscorable %d", m.Faithfulness, m.Relevancy, m.Unscorable)
	}
	fact, tut := m.ByQueryType["factual"], m.ByQueryType["tutorial"]
	if fact.Queries != 2 || !near(fact.Correctness, 3.5) || !near(fact.PassRate, 0.5) {
		t.Errorf("factual = %+v", fact)
	}
	if tut.Queries != 1 || !near(tut.Correctness, 4) || tut.Faithfulness != nil {
		t.Errorf("tutorial = %+v (faithfulness must be n/a, not 0)", tut)
	}
	// ROUGE-L: identical text 100, disjoint 0; BLEU of an exact copy 100.
	if fact.RougeL == nil || !near(fact.RougeL, 50) {
		t.Errorf("factual ROUGE-L = %v", fact.RougeL)
	}
	if fact.BLEU == nil || *fact.BLEU <= 0 || *fact.BLEU > 100 {
		t.Errorf("factual BLEU = %v", fact.BLEU)
	}
}

func TestEvaluateGenerationNothingToDo(t *testing.T) {
	if g := EvaluateGeneration([]dataset.Item{genItem("a", "", "", "x")}, dataset.Scores{}, dataset.SetRAG); g != nil {
		t.Fatalf("got %+v", g)
	}
}
