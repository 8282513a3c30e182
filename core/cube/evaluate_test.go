package cube

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
)

func item(id, gold string, retrieved ...string) dataset.Item {
	return dataset.Item{ID: id, DocID: gold, Retrieved: retrieved}
}

func ok(itemID, set, judge, dim string, score float64) dataset.Judgement {
	return dataset.Judgement{ItemID: itemID, Set: set, Judge: judge, Dimension: dim, Score: score, Repeat: 1, Status: dataset.StatusOK}
}

func bad(itemID, set, judge, dim string) dataset.Judgement {
	return dataset.Judgement{ItemID: itemID, Set: set, Judge: judge, Dimension: dim, Repeat: 1, Status: dataset.StatusUnscorable, Raw: "?", Reason: "no number"}
}

// triple adds the zero, rag and full judgements of one item.
func triple(js []dataset.Judgement, itemID, judge, dim string, zero, rag, full float64) []dataset.Judgement {
	return append(js, ok(itemID, "zero", judge, dim, zero), ok(itemID, "rag", judge, dim, rag), ok(itemID, "full", judge, dim, full))
}

func cfgFor(dims ...string) Config {
	c := DefaultConfig()
	c.Dimensions = dims
	c.Trim = 0
	c.BootstrapB = 0
	return c
}

func near(a *float64, b float64) bool { return a != nil && math.Abs(*a-b) <= 1e-9 }

// handItems: five items, TOP-N 8.
//
//	i1 gold d1, retrieved [d1]        rank 1, rank score 8+2−1+1 = 10
//	i2 gold d2, retrieved [x d2]      rank 2, rank score 8
//	i3 gold d3, retrieved [x y]       rank 0, rank score 0
//	i4 no gold                        left out of Recall@k and correlations
//	i5 gold d5, retrieved [d5 z]      rank 1, rank score 9
func handItems() []dataset.Item {
	return []dataset.Item{
		item("i1", "d1", "d1"), item("i2", "d2", "x", "d2"), item("i3", "d3", "x", "y"),
		item("i4", ""), item("i5", "d5", "d5", "z"),
	}
}

func handScores() []dataset.Judgement {
	var js []dataset.Judgement
	// i1's rag score is the mean of two repeats, 8 and 10.
	js = append(js, ok("i1", "zero", "A", "rel", 5), ok("i1", "full", "A", "rel", 10),
		ok("i1", "rag", "A", "rel", 8), dataset.Judgement{ItemID: "i1", Set: "rag", Judge: "A", Dimension: "rel", Score: 10, Repeat: 2, Status: dataset.StatusOK})
	js = triple(js, "i2", "A", "rel", 5, 7, 9)
	js = append(js, bad("i2", "zero", "A", "rel")) // a failed repeat: counted, left out
	js = triple(js, "i3", "A", "rel", 5, 5, 9)
	js = triple(js, "i4", "A", "rel", 6, 6, 6)
	js = triple(js, "i5", "A", "rel", 4, 8, 9)
	js = append(js, ok("i5", "other-system", "A", "rel", 3), ok("nope", "rag", "A", "rel", 3), ok("i5", "rag", "A", "tone", 3))
	return js
}

func TestEvaluateByHand(t *testing.T) {
	res, err := Evaluate(handItems(), dataset.ScoresOf(handScores()...), nil, cfgFor("rel"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Items != 5 || res.Retrieved != 3 || res.UnknownGold != 1 || !near(res.RecallAtK, 0.75) {
		t.Fatalf("items %d retrieved %d unknown %d recall %v; want 5 3 1 0.75", res.Items, res.Retrieved, res.UnknownGold, deref(res.RecallAtK))
	}
	if res.IgnoredJudgements != 3 {
		t.Errorf("ignored %d, want 3 (other set, unknown item, unknown dimension)", res.IgnoredJudgements)
	}
	if len(res.Judges) != 1 {
		t.Fatalf("%d judges", len(res.Judges))
	}
	jr := res.Judges[0]
	// all cases: (rank score, rag) = (10,9) (8,7) (0,5) (9,8): Sxy = 22.25,
	// Sxx = 62.75, Syy = 8.75.
	if !near(jr.CorrelationAll["rel"], 22.25/math.Sqrt(62.75*8.75)) {
		t.Errorf("r all = %v", deref(jr.CorrelationAll["rel"]))
	}
	// retrieved only: (10,9) (8,7) (9,8) lie on a line.
	if !near(jr.CorrelationRetrieved["rel"], 1) {
		t.Errorf("r retrieved = %v", deref(jr.CorrelationRetrieved["rel"]))
	}
	if jr.Weights["rel"] != 1 || jr.WeightSource != WeightsCorrelation {
		t.Errorf("weights %v from %s", jr.Weights, jr.WeightSource)
	}
	// subset i1 i2 i5: rag (9+7+8)/3 = 8, zero (5+5+4)/3 = 14/3, full (10+9+9)/3 = 28/3.
	tm := jr.TrimmedMeans
	if !near(tm["rag"]["rel"], 8) || !near(tm["zero"]["rel"], 14.0/3) || !near(tm["full"]["rel"], 28.0/3) || !near(tm["rag"][Weighted], 8) {
		t.Errorf("trimmed means %v", tm)
	}
	if jr.SubsetN["rel"] != 3 {
		t.Errorf("subset n %d", jr.SubsetN["rel"])
	}
	// N = 100·(8 − 14/3)/(28/3 − 14/3) = 1000/14; C = N·0.75.
	if !near(jr.Normalized["rel"], 1000.0/14) || !near(jr.Normalized[Weighted], 1000.0/14) || !near(jr.Cube, 750.0/14) {
		t.Errorf("N %v C %v", jr.Normalized, deref(jr.Cube))
	}
	if jr.Unscorable != 1 || jr.UnscorableBy["zero"]["rel"] != 1 || jr.Judgements != 17 {
		t.Errorf("unscorable %d (%v) of %d rows", jr.Unscorable, jr.UnscorableBy, jr.Judgements)
	}
	if jr.Scored["rag"]["rel"] != 5 {
		t.Errorf("scored %v", jr.Scored)
	}
	if res.Aggregate.Cube.N != 1 || res.Aggregate.Cube.SD != nil || !near(res.Aggregate.Cube.Mean, 750.0/14) {
		t.Errorf("aggregate %+v", res.Aggregate.Cube)
	}
	d := res.ItemDetails
	if d[0].Rank != 1 || !near(d[0].RankScore, 10) || d[3].RankScore != nil || d[3].GoldKnown || d[2].Rank != 0 || !near(d[1].RankScore, 8) {
		t.Errorf("item details %+v", d[:4])
	}
	if !near(d[0].RAGOf(res.Dimensions, "rel"), 9) || d[0].DisagreementOf(res.Dimensions, "rel") != nil {
		t.Errorf("i1 rag %v disagreement %v (one judge: SD undefined)", deref(d[0].RAG[0]), deref(d[0].Disagreement[0]))
	}

	// subset "all": every item; rag (9+7+5+6+8)/5 = 7, zero (5+5+5+6+4)/5 = 5,
	// full (10+9+9+6+9)/5 = 8.6 → N = 100·2/3.6.
	cfg := cfgFor("rel")
	cfg.Subset = SubsetAll
	res, err = Evaluate(handItems(), dataset.ScoresOf(handScores()...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if jr := res.Judges[0]; !near(jr.Normalized["rel"], 200/3.6) || jr.SubsetN["rel"] != 5 {
		t.Errorf("subset all: N %v over %d", deref(jr.Normalized["rel"]), jr.SubsetN["rel"])
	}
	if !strings.Contains(res.Headline("en"), "effectiveness on all cases") {
		t.Errorf("headline %q", res.Headline("en"))
	}
}

// The trimmed mean really trims: ten retrieved items, α = 0.1 drops one
// value from each end of each set.
func TestEvaluateTrims(t *testing.T) {
	var items []dataset.Item
	var js []dataset.Judgement
	rag := []float64{0, 6, 6, 6, 6, 8, 8, 8, 8, 10} // trimmed: (4·6 + 4·8)/8 = 7
	for n := range 10 {
		id := string(rune('a' + n))
		items = append(items, item(id, "g"+id, "g"+id))
		js = triple(js, id, "A", "rel", 5, rag[n], 9)
	}
	cfg := cfgFor("rel")
	cfg.Trim = 0.1
	res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	jr := res.Judges[0]
	// rank scores are all 10: no variance → equal weights (one dimension: 1).
	if !near(jr.TrimmedMeans["rag"]["rel"], 7) || !near(jr.Normalized["rel"], 50) || jr.WeightSource != WeightsEqual {
		t.Fatalf("T(rag) %v N %v source %s", deref(jr.TrimmedMeans["rag"]["rel"]), deref(jr.Normalized["rel"]), jr.WeightSource)
	}
}

func TestEvaluateDegenerate(t *testing.T) {
	base := func() ([]dataset.Item, []dataset.Judgement) {
		items := []dataset.Item{item("a", "da", "da"), item("b", "db", "x", "db"), item("c", "dc", "x")}
		var js []dataset.Judgement
		js = triple(js, "a", "A", "rel", 4, 8, 9)
		js = triple(js, "b", "A", "rel", 4, 6, 9)
		js = triple(js, "c", "A", "rel", 4, 5, 9)
		return items, js
	}
	t.Run("zero variance → equal weights with a reason", func(t *testing.T) {
		items, _ := base()
		var js []dataset.Judgement
		for _, id := range []string{"a", "b", "c"} {
			js = triple(js, id, "A", "rel", 4, 7, 9)
			js = triple(js, id, "A", "spec", 4, 7, 9)
		}
		res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel", "spec"))
		if err != nil {
			t.Fatal(err)
		}
		jr := res.Judges[0]
		if jr.WeightSource != WeightsEqual || jr.Weights["rel"] != 0.5 || jr.Weights["spec"] != 0.5 || jr.WeightNote == nil ||
			!slices.Contains(jr.Flags, "weights: equal fallback") || jr.CorrelationAll["rel"] != nil {
			t.Fatalf("weights %v source %s note %v flags %v r %v", jr.Weights, jr.WeightSource, jr.WeightNote, jr.Flags, jr.CorrelationAll)
		}
	})
	t.Run("negative correlations → equal weights", func(t *testing.T) {
		items, _ := base()
		var js []dataset.Judgement
		for n, id := range []string{"a", "b", "c"} {
			js = triple(js, id, "A", "rel", 4, float64(5+n), 9) // rag rises as rank score falls
		}
		res, _ := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel"))
		if jr := res.Judges[0]; jr.WeightSource != WeightsEqual || jr.CorrelationAll["rel"] == nil || *jr.CorrelationAll["rel"] >= 0 {
			t.Fatalf("source %s r %v", jr.WeightSource, deref(jr.CorrelationAll["rel"]))
		}
	})
	t.Run("no retrieved items → null N and CuBE", func(t *testing.T) {
		items := []dataset.Item{item("a", "da", "x"), item("b", "db")}
		var js []dataset.Judgement
		js = triple(js, "a", "A", "rel", 4, 8, 9)
		js = triple(js, "b", "A", "rel", 4, 6, 9)
		res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel"))
		if err != nil {
			t.Fatal(err)
		}
		jr := res.Judges[0]
		if !near(res.RecallAtK, 0) || jr.SubsetN["rel"] != 0 || jr.TrimmedMeans["rag"]["rel"] != nil || jr.Normalized["rel"] != nil ||
			jr.Normalized[Weighted] != nil || jr.Cube != nil || res.Aggregate.Cube.Mean != nil {
			t.Fatalf("recall %v subset %d T %v N %v C %v", deref(res.RecallAtK), jr.SubsetN["rel"], jr.TrimmedMeans, jr.Normalized, deref(jr.Cube))
		}
		if !slices.Contains(jr.Flags, "rel: no data") {
			t.Errorf("flags %v", jr.Flags)
		}
		if h := res.Headline("en"); h != "CuBE n/a ± n/a · guide recall@8 0.00 % · effectiveness on retrieved cases n/a" {
			t.Errorf("headline %q", h)
		}
	})
	t.Run("no known gold → recall and CuBE undefined", func(t *testing.T) {
		items := []dataset.Item{item("a", ""), item("b", "")}
		var js []dataset.Judgement
		js = triple(js, "a", "A", "rel", 4, 8, 9)
		js = triple(js, "b", "A", "rel", 4, 6, 9)
		cfg := cfgFor("rel")
		cfg.Subset = SubsetAll
		res, _ := Evaluate(items, dataset.ScoresOf(js...), nil, cfg)
		jr := res.Judges[0]
		// N = 100·(7−4)/(9−4) = 60 is defined, C is not.
		if res.RecallAtK != nil || res.UnknownGold != 2 || !near(jr.Normalized[Weighted], 60) || jr.Cube != nil ||
			!slices.Contains(jr.Flags, "cube: recall undefined") {
			t.Fatalf("recall %v N %v C %v flags %v", deref(res.RecallAtK), deref(jr.Normalized[Weighted]), deref(jr.Cube), jr.Flags)
		}
	})
	t.Run("all unscorable → null with counts", func(t *testing.T) {
		items, js := base()
		for _, id := range []string{"a", "b", "c"} {
			for _, set := range []string{"zero", "rag", "full"} {
				js = append(js, bad(id, set, "B", "rel"))
			}
		}
		res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel"))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Judges) != 2 || res.Judges[1].Judge != "B" {
			t.Fatalf("judges %v", res.Judges)
		}
		jb := res.Judges[1]
		if jb.Unscorable != 9 || jb.UnscorableBy["rag"]["rel"] != 3 || jb.Scored["rag"]["rel"] != 0 || jb.CorrelationAll["rel"] != nil ||
			jb.TrimmedMeans["rag"]["rel"] != nil || jb.Normalized[Weighted] != nil || jb.Cube != nil {
			t.Fatalf("judge B %+v", jb)
		}
		// the aggregate is over the one judge with a value: SD undefined.
		if res.Aggregate.Cube.N != 1 || res.Aggregate.Cube.SD != nil {
			t.Fatalf("aggregate %+v", res.Aggregate.Cube)
		}
	})
	t.Run("bounds collapse → null with flag", func(t *testing.T) {
		items, _ := base()
		var js []dataset.Judgement
		for n, id := range []string{"a", "b", "c"} {
			js = triple(js, id, "A", "rel", 8, float64(9-n), 8) // zero = full
		}
		res, _ := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel"))
		jr := res.Judges[0]
		if jr.Normalized["rel"] != nil || jr.Normalized[Weighted] != nil || jr.Cube != nil ||
			!slices.Equal(jr.Flags, []string{"rel: bounds collapse", "weighted: bounds collapse"}) {
			t.Fatalf("N %v flags %v", jr.Normalized, jr.Flags)
		}
		if !slices.ContainsFunc(res.Findings, func(f Finding) bool { return f.Rule == RuleBounds }) {
			t.Errorf("no bounds finding: %v", res.Findings)
		}
	})
	t.Run("outside bounds → value kept with flag", func(t *testing.T) {
		items, _ := base()
		var js []dataset.Judgement
		js = triple(js, "a", "A", "rel", 4, 10, 8)
		js = triple(js, "b", "A", "rel", 4, 9, 8)
		// rag (10+9)/2 = 9.5 over zero 4, full 8 → 137.5
		res, _ := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel"))
		jr := res.Judges[0]
		if !near(jr.Normalized["rel"], 137.5) || !slices.Contains(jr.Flags, "rel: outside bounds") {
			t.Fatalf("N %v flags %v", deref(jr.Normalized["rel"]), jr.Flags)
		}
	})
	t.Run("hand and per-judge weights", func(t *testing.T) {
		items, _ := base()
		var js []dataset.Judgement
		for _, j := range []string{"A", "B"} {
			for _, id := range []string{"a", "b"} {
				js = triple(js, id, j, "rel", 4, 6, 8)  // N 50
				js = triple(js, id, j, "spec", 2, 6, 6) // N 100
			}
		}
		cfg := cfgFor("rel", "spec")
		cfg.Weights = WeightsHand
		cfg.HandWeights = map[string]float64{"rel": 3, "spec": 1}
		cfg.JudgeWeights = map[string]map[string]float64{"B": {"spec": 2}}
		res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		a, b := res.Judges[0], res.Judges[1]
		// A: w = (0.75, 0.25); W zero 3.5, rag 6, full 7.5 → 62.5.
		if a.WeightSource != WeightsHand || a.Weights["rel"] != 0.75 || !near(a.Normalized[Weighted], 62.5) {
			t.Errorf("A: %s %v N %v", a.WeightSource, a.Weights, deref(a.Normalized[Weighted]))
		}
		// B: spec only → 100.
		if b.WeightSource != "judge" || b.Weights["rel"] != 0 || b.Weights["spec"] != 1 || !near(b.Normalized[Weighted], 100) {
			t.Errorf("B: %s %v N %v", b.WeightSource, b.Weights, deref(b.Normalized[Weighted]))
		}
		// across judges: mean (62.5+100)/2 = 81.25, SD √((18.75²·2)/1) = 26.5165.
		ag := res.Aggregate.Normalized[Weighted]
		if ag.N != 2 || !near(ag.Mean, 81.25) || !near(ag.SD, 18.75*math.Sqrt2) {
			t.Errorf("aggregate %v ± %v", deref(ag.Mean), deref(ag.SD))
		}
	})
}

func TestEvaluateErrors(t *testing.T) {
	items, js := handItems(), handScores()
	tests := []struct {
		name   string
		items  []dataset.Item
		scores []dataset.Judgement
		edit   func(*Config)
		is     error
	}{
		{"trim 0.5", items, js, func(c *Config) { c.Trim = 0.5 }, ErrConfig},
		{"subset", items, js, func(c *Config) { c.Subset = "some" }, ErrConfig},
		{"weights mode", items, js, func(c *Config) { c.Weights = "magic" }, ErrConfig},
		{"hand without table", items, js, func(c *Config) { c.Weights = WeightsHand }, ErrConfig},
		{"hand unknown dimension", items, js, func(c *Config) { c.Weights = WeightsHand; c.HandWeights = map[string]float64{"nope": 1} }, ErrConfig},
		{"hand negative", items, js, func(c *Config) { c.Weights = WeightsHand; c.HandWeights = map[string]float64{"rel": -1} }, ErrConfig},
		{"hand zero sum", items, js, func(c *Config) { c.Weights = WeightsHand; c.HandWeights = map[string]float64{"rel": 0} }, ErrConfig},
		{"dimension weighted", items, js, func(c *Config) { c.Dimensions = []string{"weighted"} }, ErrConfig},
		{"top n", items, js, func(c *Config) { c.TopN = 0 }, ErrConfig},
		{"no items", nil, js, func(*Config) {}, ErrNoItems},
		{"duplicate id", []dataset.Item{item("a", ""), item("a", "")}, nil, func(*Config) {}, nil},
		{"NaN score", items, []dataset.Judgement{ok("i1", "rag", "A", "rel", math.NaN())}, func(*Config) {}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cfgFor("rel")
			tc.edit(&cfg)
			res, err := Evaluate(tc.items, dataset.ScoresOf(tc.scores...), nil, cfg)
			if err == nil || res != nil {
				t.Fatalf("no error (result %v)", res)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("error %v is not %v", err, tc.is)
			}
		})
	}
}

func TestDimensionsFromScores(t *testing.T) {
	cfg := cfgFor()
	res, err := Evaluate(handItems(), dataset.ScoresOf(handScores()...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// first seen in rag/zero/full rows: rel, then tone (i5's rag row).
	if !slices.Equal(res.Dimensions, []string{"rel", "tone"}) || res.IgnoredJudgements != 2 {
		t.Fatalf("dimensions %v ignored %d", res.Dimensions, res.IgnoredJudgements)
	}
}

func TestDocKey(t *testing.T) {
	items := []dataset.Item{item("a", "Guide A", "id-a"), item("b", "id-b", "Guide B", "x")}
	cfg := cfgFor("rel")
	alias := map[string]string{"Guide A": "id-a", "Guide B": "id-b"}
	cfg.DocKey = func(ref string) string {
		if k, ok := alias[ref]; ok {
			return k
		}
		return ref
	}
	res, err := Evaluate(items, dataset.Scores{}, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Retrieved != 2 || res.ItemDetails[0].Rank != 1 || !near(res.ItemDetails[0].RankScore, 10) || res.ItemDetails[1].Rank != 1 {
		t.Fatalf("retrieved %d details %+v", res.Retrieved, res.ItemDetails)
	}
	if len(res.Judges) != 0 || res.Aggregate.Cube.Mean != nil {
		t.Fatalf("judges without scores: %v", res.Judges)
	}
}

// Our reading of the analysis subset: per judge and dimension, the items
// with an ok score in all three sets, so the three trimmed means share ids.
func TestAnalysisSubsetSameIDs(t *testing.T) {
	items := []dataset.Item{item("a", "da", "da"), item("b", "db", "db"), item("c", "dc", "dc")}
	var js []dataset.Judgement
	js = triple(js, "a", "A", "rel", 2, 6, 10)
	js = triple(js, "b", "A", "rel", 4, 8, 10)
	// c has no usable zero score on rel: it leaves all three rel means…
	js = append(js, bad("c", "zero", "A", "rel"), ok("c", "rag", "A", "rel", 0), ok("c", "full", "A", "rel", 0))
	// …but stays in spec, where its three sets are scored.
	for _, id := range []string{"a", "b", "c"} {
		js = triple(js, id, "A", "spec", 0, 5, 10)
	}
	js = append(js, ok("c", "zero", "B", "rel", 1)) // B: no rag or full → empty subset
	res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel", "spec"))
	if err != nil {
		t.Fatal(err)
	}
	a := res.Judges[0]
	// rel over a, b: zero 3, rag 7, full 10 (c's 0s would give rag 14/3, full 20/3).
	if a.SubsetN["rel"] != 2 || !near(a.TrimmedMeans["rag"]["rel"], 7) || !near(a.TrimmedMeans["full"]["rel"], 10) ||
		!near(a.TrimmedMeans["zero"]["rel"], 3) || a.SubsetN["spec"] != 3 || !near(a.Normalized["spec"], 50) {
		t.Fatalf("subset %v trimmed %v N %v", a.SubsetN, a.TrimmedMeans, a.Normalized)
	}
	if b := res.Judges[1]; b.SubsetN["rel"] != 0 || b.TrimmedMeans["zero"]["rel"] != nil {
		t.Fatalf("judge B subset %v means %v", b.SubsetN, b.TrimmedMeans)
	}
}
