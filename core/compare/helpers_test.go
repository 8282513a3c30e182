package compare

import (
	"fmt"
	"math"
	"math/rand/v2"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
)

var dims = []string{"relevance", "specificity", "completeness", "quality"}

// book is a workbook of n questions with the answer sets rag and v2 scored
// by every judge on every dimension. Question i has a latent quality; rag
// scores follow it (and the rank, so correlation weights are defined), with
// judge noise; zero sits near 2, full near 9. v2 is rag moved by
// shift(judge, i) plus, when noise > 0, its own noise of that SD — so the
// two sides are correlated through the question, as real versions are.
// One question in seven is not retrieved.
func book(n int, judges []string, seed uint64, noise float64, shift func(judge string, i int) float64) *dataset.Workbook {
	rng := rand.New(rand.NewPCG(seed, 7))
	wb := &dataset.Workbook{}
	clamp := func(v float64) float64 { return math.Max(0, math.Min(10, math.Round(v))) }
	quality := make([]float64, n)
	ranks := make([]int, n)
	for i := range n {
		id := fmt.Sprintf("q%03d", i+1)
		gold := fmt.Sprintf("g%03d", i+1)
		wb.Guides = append(wb.Guides, dataset.Guide{ID: gold, Title: "事项" + gold, Text: "正文" + gold})
		rank := 1 + i%3
		if i%7 == 6 {
			rank = 0
		}
		ranks[i] = rank
		ret := []string{"x1", "x2", "x3"}
		if rank > 0 {
			ret[rank-1] = gold
		}
		quality[i] = 2 + 4*rng.Float64()
		it := dataset.Item{ID: id, Question: "问题" + id, DocID: gold, Retrieved: ret, Row: i + 2}
		it.SetAnswer("rag", "答A"+id)
		it.SetAnswer("v2", "答B"+id)
		wb.Items = append(wb.Items, it)
	}
	for jn, judge := range judges {
		for k, dim := range dims {
			for i, it := range wb.Items {
				rs := 0.0
				if ranks[i] > 0 {
					rs = float64(10 - ranks[i])
				}
				base := quality[i] + 0.1*float64(k) + 0.2*float64(jn) + 0.15*rs
				rag := base + 0.5*rng.NormFloat64()
				v2 := rag + shift(judge, i) + noise*rng.NormFloat64()
				for _, s := range []struct {
					set string
					v   float64
				}{{"zero", 2 + 0.5*rng.NormFloat64()}, {"full", 9 + 0.5*rng.NormFloat64()}, {"rag", rag}, {"v2", v2}} {
					wb.Scores.Add(dataset.Judgement{ItemID: it.ID, Set: s.set, Judge: judge, Dimension: dim,
						Repeat: 1, Score: clamp(s.v), Status: dataset.StatusOK})
				}
			}
		}
	}
	return wb
}

func config(B int) cube.Config {
	cfg := cube.DefaultConfig()
	cfg.BootstrapB = B
	return cfg
}

func none(string, int) float64 { return 0 }

func width(ci *[2]float64) float64 { return ci[1] - ci[0] }

func hasWarning(r *Result, code string) bool {
	for _, w := range r.Warnings {
		if w.Code == code {
			return true
		}
	}
	return false
}
