package cube

import (
	"slices"
	"testing"

	"cubeworkbench/core/dataset"
)

// RAGScores are the mean of each judge's ok rag repeats per item and
// dimension; unscorable repeats, other sets and unknown judges do not count.
func TestRAGScores(t *testing.T) {
	items := []dataset.Item{item("q1", "G1", "G1"), item("q2", "G2"), item("q3", "G3", "G3")}
	var js []dataset.Judgement
	for _, id := range []string{"q1", "q2", "q3"} {
		js = triple(js, id, "a", "relevance", 1, 5, 9)
		js = triple(js, id, "b", "relevance", 2, 6, 8)
	}
	second := ok("q1", dataset.SetRAG, "a", "relevance", 8) // q1: (5+8)/2
	second.Repeat = 2
	js = append(js, second, bad("q2", dataset.SetRAG, "a", "relevance"))
	js[len(js)-1].Repeat = 2
	// b's rag judgement of q3 is unscorable: q3 has no b score.
	for i := range js {
		if js[i].ItemID == "q3" && js[i].Judge == "b" && js[i].Set == dataset.SetRAG {
			js[i] = bad("q3", dataset.SetRAG, "b", "relevance")
		}
	}
	res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("relevance"))
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{res.Judges[0].Judge, res.Judges[1].Judge}; !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("judges %v", got)
	}
	cases := []struct {
		id    string
		judge int
		want  float64
		ok    bool
	}{
		{"q1", 0, 6.5, true}, {"q2", 0, 5, true}, {"q3", 0, 5, true},
		{"q1", 1, 6, true}, {"q3", 1, 0, false}, {"nope", 0, 0, false},
	}
	for _, c := range cases {
		if v, ok := res.RAGScores.At(c.id, c.judge, 0); v != c.want || ok != c.ok {
			t.Errorf("At(%s, %d) = %v, %v; want %v, %v", c.id, c.judge, v, ok, c.want, c.ok)
		}
	}
	if got := res.RAGScores.Column(1, 0); !slices.Equal(got, []float64{6, 6}) {
		t.Errorf("Column(b) = %v, want [6 6]", got)
	}
}
