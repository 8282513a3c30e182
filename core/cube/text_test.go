package cube

import (
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/text"
)

func TestHeadline(t *testing.T) {
	r := &Result{TopN: 8, Subset: SubsetRetrieved, RecallAtK: p(0.80411),
		Aggregate: Aggregate{Cube: MeanSD{Mean: p(63.4812), SD: p(3.1449)},
			Normalized: map[string]MeanSD{Weighted: {Mean: p(78.9549)}}}}
	if got, want := r.Headline("en"), "CuBE 63.48 ± 3.14 · guide recall@8 80.41 % · effectiveness on retrieved cases 78.95"; got != want {
		t.Errorf("en %q\nwant %q", got, want)
	}
	if got, want := r.Headline("zh"), "CuBE 63.48 ± 3.14 · 指南召回率@8 80.41 % · 检索命中时的回答有效性 78.95"; got != want {
		t.Errorf("zh %q\nwant %q", got, want)
	}
	r.Aggregate.Cube.SD = nil
	if got := r.Headline("zh"); !strings.HasPrefix(got, "CuBE 63.48 ± 不适用 ·") {
		t.Errorf("zh without SD %q", got)
	}
	r.Aggregate.Cube.N = 1 // one judge: no spread to show
	if got := r.Headline("zh"); !strings.HasPrefix(got, "CuBE 63.48（仅 1 个评审模型） · 指南召回率@8") {
		t.Errorf("zh one judge %q", got)
	}
	if got := r.Headline("en"); !strings.HasPrefix(got, "CuBE 63.48 (1 judge) · guide recall@8") {
		t.Errorf("en one judge %q", got)
	}
}

func TestMethodNotesAndFlags(t *testing.T) {
	res, err := Evaluate(handItems(), dataset.ScoresOf(handScores()...), nil, cfgFor("rel"))
	if err != nil {
		t.Fatal(err)
	}
	en, zh := res.MethodNotes("en"), res.MethodNotes("zh")
	if len(en) < 8 || len(en) != len(zh) {
		t.Fatalf("%d en notes, %d zh", len(en), len(zh))
	}
	if !slices.ContainsFunc(en, func(s string) bool { return strings.Contains(s, "same item ids") }) ||
		!slices.ContainsFunc(zh, func(s string) bool { return strings.Contains(s, "相同的问题") }) {
		t.Errorf("the analysis-subset reading is missing:\n%s", strings.Join(en, "\n"))
	}
	for i := range zh {
		if zh[i] == "" || zh[i] == en[i] {
			t.Errorf("note %d not translated: %q", i, zh[i])
		}
	}
	if got := FlagText("weighted: bounds collapse").In(text.ZH); got != "加权：上下界塌缩" {
		t.Errorf("FlagText = %q", got)
	}
	if got := FlagText("quality: outside bounds").In(text.ZH); got != "表达质量：超出上下界" { // the dimension by its glossary name, never its id
		t.Errorf("FlagText = %q", got)
	}
}

func TestRecommendations(t *testing.T) {
	// Four items, one retrieved: Recall 25 %. Judge A sees rag near zero on
	// rel (weak), judge B near full; the item "miss" scores 9 without its guide.
	items := []dataset.Item{item("hit", "d1", "d1"), item("miss", "d2", "x"), item("m2", "d3", "y"), item("m3", "d4", "z")}
	var js []dataset.Judgement
	for _, id := range []string{"hit", "miss", "m2", "m3"} {
		rag := 3.0
		if id == "miss" {
			rag = 9
		}
		js = triple(js, id, "A", "rel", 2, rag, 10)
		js = triple(js, id, "B", "rel", 2, min(rag+6, 10), 10)
	}
	res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel"))
	if err != nil {
		t.Fatal(err)
	}
	codes := map[Rule]Finding{}
	for _, r := range res.Findings {
		codes[r.Rule] = r
		if r.Severity == "" {
			t.Errorf("incomplete finding %+v", r)
		}
	}
	// A: N = 100·(3−2)/8 = 12.5; B: N = 100·(9−2)/8 = 87.5 → C 3.125 and 21.875, SD 13.26 > 10;
	// mean N 50 < 60.
	for _, c := range []Rule{RuleRecallLow, RuleDimensionWeak, RuleJudgesDisagree, RuleOwnKnowledge} {
		if _, ok := codes[c]; !ok {
			t.Errorf("rule %s did not fire; got %v", c, res.Findings)
		}
	}
	if ex := codes[RuleOwnKnowledge].Evidence; !slices.Equal(ex.Examples, []string{"miss"}) || ex.Items != 1 || ex.Threshold != 8 {
		t.Errorf("own-knowledge evidence %+v", ex)
	}
	// Recall 1 of 4: three missed, at TOP-N 8, below the 80 % threshold.
	if ex := codes[RuleRecallLow].Evidence; ex.RecallAtK != 0.25 || ex.Missed != 3 || ex.GoldKnown != 4 || ex.TopN != 8 || ex.Threshold != 0.8 {
		t.Errorf("recall evidence %+v", ex)
	}
	if ex := codes[RuleDimensionWeak].Evidence; ex.Dimension != "rel" || ex.Normalized != 50 || ex.Threshold != 60 {
		t.Errorf("dimension evidence %+v", ex)
	}
	if ex := codes[RuleJudgesDisagree].Evidence; ex.Judges != 2 || ex.SD <= 10 || ex.Threshold != 10 {
		t.Errorf("disagreement evidence %+v", ex)
	}
	// Thresholds move the rules: nothing fires when they are lenient.
	cfg := cfgFor("rel")
	cfg.RecallLow, cfg.DimensionWeak, cfg.JudgeSDHigh, cfg.ZeroHighScore = 0.1, 10, 50, 11
	res, _ = Evaluate(items, dataset.ScoresOf(js...), nil, cfg)
	if len(res.Findings) != 0 {
		t.Errorf("lenient thresholds still fire %v", res.Findings)
	}
}
