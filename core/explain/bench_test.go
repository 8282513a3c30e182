package explain

import (
	"fmt"
	"testing"

	"cubeworkbench/core/dataset"
)

// The why panel and the grid's filters at 10,000 questions: Explain is one
// pass over the questions and judgements and a sort of the weak ones
// (go test -run '^$' -bench Explain ./core/explain).
func BenchmarkExplain10k(b *testing.B) {
	const n = 10000
	w := world{n: n, missed: n / 5, judges: []float64{50, 55, 60}, eff: f(62), ci: &[2]float64{55, 59}, verdict: "needs_work",
		dims: map[string]*float64{"relevance": f(70), "specificity": f(50)}}
	in := w.input()
	for i := range in.Result.ItemDetails {
		in.Result.ItemDetails[i].RAGOverall = f(float64(i%100) / 10)
		in.Result.ItemDetails[i].DisagreementOverall = f(float64(i%7) / 2)
	}
	for i := range n {
		id := fmt.Sprintf("q%02d", i+1)
		in.Items = append(in.Items, dataset.Item{ID: id, Row: i + 2, Question: "问题" + id})
		for _, set := range []string{"rag", "zero", "full"} {
			for d := range 4 {
				st := dataset.StatusOK
				if (i+d)%97 == 0 {
					st = dataset.StatusUnscorable
				}
				in.Scores.Add(dataset.Judgement{ItemID: id, Set: set, Judge: "j1", Dimension: fmt.Sprint(d), Status: st})
			}
		}
	}
	in.Result.Judges[0].TrimmedMeans = map[string]map[string]*float64{"zero": {"relevance": f(2)}, "full": {"relevance": f(8)}}
	in.Result.Dimensions = []string{"relevance"}
	var ex Explanation
	for b.Loop() {
		ex = Explain(in)
	}
	if len(ex.Weakest) != 10 || ex.WeakCounts[ReasonNotRetrieved] != n/5 {
		b.Fatalf("%d weakest, counts %v", len(ex.Weakest), ex.WeakCounts)
	}
}
