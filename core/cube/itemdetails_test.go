package cube

import (
	"math"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/stats"
)

// The item details were maps per item until issue 27 (0.72 KB an item,
// 64 MB at 100,000 questions); they are slices in the order of
// Result.Dimensions now. The oracle is the code as it was.

type oldItemDetail struct {
	ID                  string
	GoldKnown           bool
	Rank                int
	RankScore           *float64
	RAG                 map[string]*float64
	RAGOverall          *float64
	Disagreement        map[string]*float64
	DisagreementOverall *float64
}

// oldItemDetails is itemDetails at aaac945: it reports each item's rank and the qualified judges' spread on
// its rag answer.
func (e *evaluation) oldItemDetails() []oldItemDetail {
	out := make([]oldItemDetail, len(e.items))
	K := len(e.dims)
	perJudge := make([]float64, 0, len(e.judges))
	for i, it := range e.items {
		d := oldItemDetail{ID: it.ID, GoldKnown: e.goldKnown[i], Rank: e.rank[i],
			RAG: map[string]*float64{}, Disagreement: map[string]*float64{}}
		if e.goldKnown[i] {
			d.RankScore = num(e.rankScore[i], true)
		}
		var all []float64
		for k, dim := range e.dims {
			perJudge = perJudge[:0]
			for j, c := range e.cells {
				if !e.qualified[j] {
					continue
				}
				if v, ok := c.score(sRAG, k, i); ok {
					perJudge = append(perJudge, v)
				}
			}
			all = append(all, perJudge...)
			d.RAG[dim] = num(stats.Mean(perJudge))
			d.Disagreement[dim] = num(stats.SD(perJudge))
		}
		perJudge = perJudge[:0]
		for j, c := range e.cells {
			if !e.qualified[j] {
				continue
			}
			var s float64
			n := 0
			for k := range K {
				if v, ok := c.score(sRAG, k, i); ok {
					s += v
					n++
				}
			}
			if n == K && K > 0 {
				perJudge = append(perJudge, s/float64(K))
			}
		}
		d.RAGOverall = num(stats.Mean(all))
		d.DisagreementOverall = num(stats.SD(perJudge))
		out[i] = d
	}
	return out
}

func TestItemDetailsMatchOracle(t *testing.T) {
	for _, c := range []struct {
		name   string
		judges []string
		dims   []string
		subset string
	}{
		{"two judges", []string{"a", "b"}, DefaultDimensions, SubsetRetrieved},
		{"one judge", []string{"a"}, DefaultDimensions[:3], SubsetAll},
		{"three judges", []string{"a", "b", "c"}, DefaultDimensions, SubsetAll},
	} {
		items, js := synth(500, c.judges, c.dims, 7)
		cfg := DefaultConfig()
		cfg.BootstrapB, cfg.Subset = 50, c.subset
		e, res, err := evaluate(items, dataset.ScoresOf(js...), nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		e.qualified[0] = len(c.judges) < 3 // a judge left out of the spread
		want, got := e.oldItemDetails(), e.itemDetails()
		if len(got) != len(want) || len(res.ItemDetails) != len(want) {
			t.Fatalf("%s: %d details, want %d", c.name, len(got), len(want))
		}
		same := func(a, b *float64) bool {
			return a == nil && b == nil || a != nil && b != nil && math.Float64bits(*a) == math.Float64bits(*b)
		}
		for i, w := range want {
			g := got[i]
			if g.ID != w.ID || g.GoldKnown != w.GoldKnown || g.Rank != w.Rank || !same(g.RankScore, w.RankScore) ||
				!same(g.RAGOverall, w.RAGOverall) || !same(g.DisagreementOverall, w.DisagreementOverall) ||
				len(g.RAG) != len(e.dims) || len(g.Disagreement) != len(e.dims) {
				t.Fatalf("%s: item %d: %+v, want %+v", c.name, i, g, w)
			}
			for k, dim := range e.dims {
				if !same(g.RAG[k], w.RAG[dim]) || !same(g.Disagreement[k], w.Disagreement[dim]) ||
					!same(g.RAGOf(res.Dimensions, dim), w.RAG[dim]) || !same(g.DisagreementOf(res.Dimensions, dim), w.Disagreement[dim]) {
					t.Fatalf("%s: item %d %s: rag %v disagreement %v, want %v %v", c.name, i, dim,
						deref(g.RAG[k]), deref(g.Disagreement[k]), deref(w.RAG[dim]), deref(w.Disagreement[dim]))
				}
			}
		}
	}
}
