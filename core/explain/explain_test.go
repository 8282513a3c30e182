package explain

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
)

func f(v float64) *float64 { return &v }

// world is a hand-built evaluation: n questions, the first missed of them
// not retrieved, the judges' CuBE scores, the weighted effectiveness and
// the per-dimension bounded scores.
type world struct {
	n, missed, unknown int
	judges             []float64 // C_J per judge
	eff                *float64
	dims               map[string]*float64
	ci                 *[2]float64
	recs               []cube.Finding
	unscorable         int
	verdict            string
}

func (w world) result() *cube.Result {
	known := w.n - w.unknown
	res := &cube.Result{Items: w.n, Retrieved: known - w.missed, UnknownGold: w.unknown, TopN: 8,
		Subset: cube.SubsetRetrieved, BootstrapB: 1000, Dimensions: []string{"relevance", "specificity", "completeness", "quality"},
		Findings: w.recs}
	if known > 0 {
		res.RecallAtK = f(float64(known-w.missed) / float64(known))
	}
	res.Aggregate.Normalized = map[string]cube.MeanSD{cube.Weighted: {Mean: w.eff, N: len(w.judges)}}
	for d, v := range w.dims {
		res.Aggregate.Normalized[d] = cube.MeanSD{Mean: v, N: len(w.judges)}
	}
	var sum float64
	for i, c := range w.judges {
		jr := cube.JudgeResult{Judge: fmt.Sprintf("j%d", i+1), Cube: f(c), Judgements: 100}
		if i == 0 {
			jr.Unscorable = w.unscorable
		}
		res.Judges = append(res.Judges, jr)
		sum += c
	}
	if len(w.judges) > 0 {
		m := sum / float64(len(w.judges))
		res.Aggregate.Cube = cube.MeanSD{Mean: &m, N: len(w.judges)}
		if len(w.judges) > 1 {
			var ss float64
			for _, c := range w.judges {
				ss += (c - m) * (c - m)
			}
			sd := ss / float64(len(w.judges)-1)
			res.Aggregate.Cube.SD = f(sqrt(sd))
		}
	}
	res.Aggregate.CubeCI95 = w.ci
	for i := range w.n {
		d := cube.ItemDetail{ID: fmt.Sprintf("q%02d", i+1), GoldKnown: i < w.n-w.unknown, Rank: 1, RAGOverall: f(8)}
		if i < w.missed {
			d.Rank = 0
		}
		res.ItemDetails = append(res.ItemDetails, d)
	}
	return res
}

func sqrt(x float64) float64 {
	z := x
	for range 60 {
		if z == 0 {
			return 0
		}
		z -= (z*z - x) / (2 * z)
	}
	return z
}

func (w world) input(judges ...Judge) Input {
	res := w.result()
	v := Verdict{Code: glossary.VerdictCode(w.verdict), Cube: res.Aggregate.Cube.Mean, DeployableAt: 60, NeedsWorkAt: 40}
	if len(judges) == 0 {
		judges = []Judge{{Name: "qwen", Kind: KindLLM}}
	}
	return Input{Result: res, Verdict: v, Judges: judges}
}

func codes[T any](xs []T, code func(T) string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, code(x))
	}
	return out
}

func TestExplain(t *testing.T) {
	dims := map[string]*float64{"relevance": f(90), "specificity": f(70), "completeness": f(80), "quality": f(85)}
	cases := []struct {
		name    string
		in      Input
		bullets []string
		recs    []string // codes in order
		sides   []string
		banners []string
		inZH    []string // substrings of the bullets, joined
	}{
		{
			name:    "deployable, all retrieved, two LLM judges",
			in:      world{n: 50, judges: []float64{72, 78}, eff: f(75), dims: dims, ci: &[2]float64{70, 80}, verdict: "deployable"}.input(Judge{"a", KindLLM}, Judge{"b", KindLLM}),
			bullets: []string{BulletAllRetrieved, BulletEffectiveness, BulletCube, BulletJudgesSpread, BulletWeakestDimension},
			recs:    nil,
			inZH:    []string{"全部 50 个问题都检索到了标准指南", "2 个评审模型之间的 CuBE 得分相差 ±4.24 分", "最弱的评价维度是具体性"},
		},
		{
			name: "the sample's shape: recall exactly 80 %, no CuBE rule fired, one baseline judge",
			in: world{n: 60, missed: 12, judges: []float64{53.48}, eff: f(66.85), dims: dims, ci: &[2]float64{42.4, 63.8}, verdict: "needs_work",
				recs: []cube.Finding{{Rule: cube.RuleSingleJudge, Severity: cube.SeverityLow}}}.input(Judge{"lexical", KindLexical}),
			bullets: []string{BulletNotRetrieved, BulletEffectiveness, BulletCube, BulletSingleJudge, BulletWeakestDimension},
			recs:    []string{"retrieval_misses", "dimension_focus", "single_judge"},
			sides:   []string{SideSystem, SideSystem, SideEvaluation},
			banners: []string{BannerBaselineJudge},
			inZH:    []string{"12 个问题（20 %）未检索到标准指南（指南召回率@8 为 80 %）", "仅 1 个评审模型", "区间跨过 60 分的门槛"},
		},
		{
			name: "CuBE's own retrieval and dimension rules are not repeated",
			in: world{n: 40, missed: 20, judges: []float64{30}, eff: f(60), dims: dims, verdict: "not_ready",
				recs: []cube.Finding{{Rule: cube.RuleRecallLow, Severity: cube.SeverityHigh}, {Rule: cube.RuleDimensionWeak, Severity: cube.SeverityMedium, Evidence: cube.Evidence{Dimension: "specificity"}}}}.input(),
			bullets: []string{BulletNotRetrieved, BulletEffectiveness, BulletCube, BulletSingleJudge, BulletWeakestDimension},
			recs:    []string{"recall_low", "dimension_weak"},
			sides:   []string{SideSystem, SideSystem},
		},
		{
			name:    "no dimension defined, all retrieved: the effectiveness gap stands in",
			in:      world{n: 30, judges: []float64{45}, eff: f(45), verdict: "needs_work"}.input(),
			bullets: []string{BulletAllRetrieved, BulletEffectiveness, BulletCube, BulletSingleJudge},
			recs:    []string{"effectiveness_gap"},
			sides:   []string{SideSystem},
			inZH:    []string{"只达到标准指南回答的 45 %"},
		},
		{
			name:    "undetermined: nothing to compute, no system advice invented",
			in:      world{n: 10, missed: 2, verdict: "undetermined"}.input(),
			bullets: []string{BulletNotRetrieved, BulletEffectiveness, BulletCube, BulletNoJudge},
			inZH:    []string{"无法判定：未能算出 CuBE 得分", "回答有效性无法计算"},
		},
		{
			name:    "unscorable replies come before the weakest dimension, five at most",
			in:      world{n: 20, missed: 1, judges: []float64{50, 58}, eff: f(60), dims: dims, unscorable: 7, verdict: "needs_work"}.input(Judge{"lexical", KindImported}, Judge{"b", KindLLM}),
			bullets: []string{BulletNotRetrieved, BulletEffectiveness, BulletCube, BulletJudgesSpread, BulletUnscorable},
			recs:    []string{"retrieval_misses", "dimension_focus"},
			sides:   []string{SideSystem, SideSystem},
			banners: []string{BannerBaselineJudge},
			inZH:    []string{"7 条评审回复（3.5 %）无法评分"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ex := Explain(c.in)
			if got := codes(ex.Bullets, func(b Bullet) string { return b.Code }); !slices.Equal(got, c.bullets) {
				t.Errorf("bullets %v, want %v", got, c.bullets)
			}
			if got := codes(ex.Recommendations, func(r Recommendation) string { return r.Code }); !slices.Equal(got, c.recs) {
				t.Errorf("recommendations %v, want %v", got, c.recs)
			}
			if c.sides != nil {
				if got := codes(ex.Recommendations, func(r Recommendation) string { return r.Side }); !slices.Equal(got, c.sides) {
					t.Errorf("sides %v, want %v", got, c.sides)
				}
			}
			if got := codes(ex.Banners, func(b Banner) string { return b.Code }); !slices.Equal(got, c.banners) {
				t.Errorf("banners %v, want %v", got, c.banners)
			}
			all := strings.Join(codes(ex.Bullets, func(b Bullet) string { return b.ZH }), "\n")
			for _, s := range c.inZH {
				if !strings.Contains(all, s) && !strings.Contains(strings.Join(codes(ex.Recommendations, func(r Recommendation) string { return r.ZH }), "\n"), s) {
					t.Errorf("no %q in\n%s", s, all)
				}
			}
			// The rule of issue 14: below deployable, something to change in the system.
			if c.in.Verdict.belowDeployable() && !slices.ContainsFunc(ex.Recommendations, func(r Recommendation) bool { return r.Side == SideSystem }) {
				t.Error("verdict below deployable without a system-side recommendation")
			}
			// Explain's own Chinese words pass the window's check.
			zh := append(codes(ex.Bullets, func(b Bullet) string { return b.ZH }), ex.Precision.ZH)
			zh = append(zh, codes(ex.Banners, func(b Banner) string { return b.ZH })...)
			for _, r := range ex.Recommendations {
				if r.Code == "retrieval_misses" || r.Code == "dimension_focus" || r.Code == "effectiveness_gap" {
					zh = append(zh, r.ZH)
				}
			}
			allow := codes(c.in.Result.ItemDetails, func(d cube.ItemDetail) string { return d.ID })
			allow = append(allow, codes(c.in.Judges, func(j Judge) string { return j.Name })...)
			for _, s := range zh {
				if bad := glossary.UnexpectedASCII(s, allow...); len(bad) > 0 {
					t.Errorf("%q carries %q", s, bad)
				}
			}
			b, err := json.Marshal(ex)
			if err != nil || strings.Contains(string(b), "NaN") {
				t.Errorf("json: %v %s", err, b)
			}
		})
	}
}

func TestUnknownGoldLeftOut(t *testing.T) {
	ex := Explain(world{n: 12, missed: 2, unknown: 2, judges: []float64{50}, eff: f(60), verdict: "needs_work"}.input())
	b := ex.Bullets[0]
	if !strings.Contains(b.ZH, "2 个问题（20 %）未检索到标准指南") || !strings.Contains(b.ZH, "另有 2 个问题未标注标准指南") || b.Numbers["gold_known"] != 10 {
		t.Errorf("%+v", b)
	}
	ex = Explain(world{n: 5, unknown: 5, verdict: "undetermined"}.input())
	if ex.Bullets[0].Code != BulletRecallUndefined {
		t.Errorf("%+v", ex.Bullets[0])
	}
}

func TestNoResult(t *testing.T) {
	ex := Explain(Input{Verdict: Verdict{Code: "undetermined"}})
	b, _ := json.Marshal(ex)
	for _, want := range []string{`"half_width":null`, `"questions_needed":null`, `"weakest":[]`, `"recommendations":[]`, `"banners":[]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in %s", want, b)
		}
	}
	if len(ex.Bullets) != 1 || !strings.Contains(ex.Bullets[0].ZH, "无法判定") {
		t.Errorf("%+v", ex.Bullets)
	}
}

func TestPrecision(t *testing.T) {
	cases := []struct {
		n      int
		ci     *[2]float64
		needed int // -1: null
		more   int
		zh     string
	}{
		{60, &[2]float64{42.4, 63.82}, 276, 216, "估计约需 276 个问题（再增加 216 个）才能缩小到 ±5 分"},
		{100, &[2]float64{40, 60}, 400, 300, "±10.00 分"},
		{400, &[2]float64{48, 56}, 400, 0, "已在 ±5 分以内"},
		{60, nil, -1, -1, "无法估计所需问题数"},
	}
	for _, c := range cases {
		p := precision(&cube.Result{Items: c.n, BootstrapB: 1000, Aggregate: cube.Aggregate{CubeCI95: c.ci}}, 5)
		switch {
		case c.needed < 0 && (p.Needed != nil || p.More != nil || p.HalfWidth != nil):
			t.Errorf("%v: %+v, want nulls", c.ci, p)
		case c.needed >= 0 && (p.Needed == nil || *p.Needed != c.needed || *p.More != c.more):
			t.Errorf("%v: %+v, want %d (+%d)", c.ci, p, c.needed, c.more)
		case !strings.Contains(p.ZH, c.zh) || !p.IsEstimate:
			t.Errorf("%v: %q lacks %q", c.ci, p.ZH, c.zh)
		}
	}
}

func TestClassifyAndWeakest(t *testing.T) {
	res := &cube.Result{Items: 6, TopN: 8, Dimensions: []string{"relevance"},
		Judges: []cube.JudgeResult{
			{Judge: "a", TrimmedMeans: map[string]map[string]*float64{"zero": {"relevance": f(2)}, "full": {"relevance": f(8)}}},
			{Judge: "b", TrimmedMeans: map[string]map[string]*float64{"zero": {"relevance": f(2)}, "full": {"relevance": f(8)}}},
		},
		ItemDetails: []cube.ItemDetail{
			{ID: "ok", GoldKnown: true, Rank: 1, RAGOverall: f(7), DisagreementOverall: f(0.5)},
			{ID: "missed", GoldKnown: true, Rank: 0, RAGOverall: f(6)},
			{ID: "low", GoldKnown: true, Rank: 2, RAGOverall: f(4.9)}, // 48 % between the bounds 2 and 8
			{ID: "split", GoldKnown: true, Rank: 1, RAGOverall: f(7), DisagreementOverall: f(2)},
			{ID: "none", GoldKnown: true, Rank: 1},
			{ID: "nogold", GoldKnown: false, Rank: 0, RAGOverall: f(1.5)}, // below the no-context level
		}}
	// The workbook lists the questions in another order than the result.
	items := []dataset.Item{{ID: "nogold", Row: 7, Question: "Q6"}, {ID: "none", Row: 6}, {ID: "split", Row: 5}, {ID: "low", Row: 4},
		{ID: "missed", Row: 3, Question: "Q2"}, {ID: "ok", Row: 2}}
	scores := []dataset.Judgement{
		{ItemID: "none", Set: "rag", Status: dataset.StatusUnscorable},
		{ItemID: "none", Set: "zero", Status: dataset.StatusUnscorable},
		{ItemID: "ok", Set: "系统B", Status: dataset.StatusUnscorable}, // not a set CuBE reads
		{ItemID: "ok", Set: "rag", Status: dataset.StatusOK},
	}
	in := Input{Result: res, Items: items, Scores: dataset.ScoresOf(scores...)}
	all := Classify(in)
	want := map[string][]string{
		"ok": {}, "missed": {ReasonNotRetrieved}, "low": {ReasonLowScore}, "split": {ReasonJudgesDisagree},
		"none": {ReasonUnscorable}, "nogold": {ReasonLowScore},
	}
	for _, w := range all {
		if !slices.Equal(w.Reasons, want[w.ID]) {
			t.Errorf("%s: reasons %v, want %v", w.ID, w.Reasons, want[w.ID])
		}
		if items[w.Index].ID != w.ID || items[w.Index].Row != w.Row {
			t.Errorf("%s: index %d row %d", w.ID, w.Index, w.Row)
		}
	}
	if w := all[4]; w.Unscorable != 2 || !strings.Contains(w.ZH, "2 条评审回复") {
		t.Errorf("none: %+v", w)
	}
	if w := all[5]; !strings.Contains(w.ZH, "不如零上下文回答") || w.Bounded == nil || *w.Bounded >= 0 {
		t.Errorf("nogold: %+v", w)
	}
	got := codes(weakest(all, 3), func(w WeakItem) string { return w.ID })
	if !slices.Equal(got, []string{"none", "nogold", "low"}) {
		t.Errorf("weakest %v", got)
	}
	got = codes(weakest(all, 10), func(w WeakItem) string { return w.ID })
	if !slices.Equal(got, []string{"none", "nogold", "low", "missed", "split"}) {
		t.Errorf("weakest %v", got)
	}
	c := countReasons(all)
	if c[ReasonNotRetrieved] != 1 || c[ReasonLowScore] != 2 || c[ReasonJudgesDisagree] != 1 || c[ReasonUnscorable] != 1 {
		t.Errorf("counts %v", c)
	}

	// Collapsed bounds: the absolute threshold (5 of 10) stands in.
	for i := range res.Judges {
		res.Judges[i].TrimmedMeans["full"]["relevance"] = f(2)
	}
	all = Classify(in)
	if !slices.Equal(all[2].Reasons, []string{ReasonLowScore}) || all[2].Bounded != nil || !strings.Contains(all[2].ZH, "低于 5") {
		t.Errorf("collapsed bounds: %+v", all[2])
	}
}

func TestBanners(t *testing.T) {
	guide := func(id, region string) dataset.Guide {
		return dataset.Guide{ID: id, Title: "事项" + id, Fields: []dataset.Field{{Name: "行政区划", Value: region}}}
	}
	sample := []dataset.Guide{guide("1", "云川省"), guide("2", "云川省"), guide("3", "某市")}
	real := []dataset.Guide{guide("1", "广东省"), guide("2", "广东省"), guide("3", "云川省"), guide("4", "广东省"), guide("5", "广东省")}
	cases := []struct {
		name   string
		judges []Judge
		guides []dataset.Guide
		file   bool
		want   []string
		zh     string
	}{
		{"llm judges, real guides", []Judge{{"gpt", KindLLM}, {"x", KindImported}}, real, false, []string{}, ""},
		{"the sample by its guides", []Judge{{"gpt", KindLLM}}, sample, false, []string{BannerSampleData}, "云川省"},
		{"the sample opened by the button", []Judge{{"gpt", KindLLM}}, nil, true, []string{BannerSampleData}, "虚构"},
		{"lexical only", []Judge{{"lexical", KindLexical}}, real, false, []string{BannerBaselineJudge}, "不能作为部署依据"},
		{"lexical scores imported", []Judge{{"lexical", KindImported}, {"gpt", KindLLM}}, real, false, []string{BannerBaselineJudge}, "其分数已计入"},
		{"semantic scores imported", []Judge{{"semantic", KindImported}, {"gpt", KindLLM}}, real, false, []string{BannerBaselineJudge}, "“语义基线评审”是基线评审"},
		{"a future offline judge", []Judge{{"embed", "embedding"}}, sample, false, []string{BannerBaselineJudge, BannerSampleData}, "基线评审（非大模型）"},
		{"the demo's two baseline judges", []Judge{{"lexical", KindLexical}, {"semantic", "semantic"}}, sample, false, []string{BannerBaselineJudge, BannerSampleData}, "“词汇基线评审”、“语义基线评审”是基线评审（非大模型）：按词语重合或字面相似度打分"},
	}
	for _, c := range cases {
		got := banners(Input{Judges: c.judges, Guides: c.guides, SampleFile: c.file})
		if codes := codes(got, func(b Banner) string { return b.Code }); !slices.Equal(codes, c.want) && !(len(codes) == 0 && len(c.want) == 0) {
			t.Errorf("%s: %v, want %v", c.name, codes, c.want)
		}
		if c.zh != "" && !strings.Contains(strings.Join(codes(got, func(b Banner) string { return b.ZH }), ""), c.zh) {
			t.Errorf("%s: %+v lacks %q", c.name, got, c.zh)
		}
	}
	if IsBundledSample(nil) {
		t.Error("no guides is not the sample")
	}
}

func TestLines(t *testing.T) {
	ex := Explain(world{n: 60, missed: 12, judges: []float64{53.48}, eff: f(66.85), ci: &[2]float64{42.4, 63.8}, verdict: "needs_work"}.input(Judge{"lexical", KindLexical}))
	zh, en := ex.Lines("zh"), ex.Lines("en")
	if len(zh) != len(ex.Banners)+len(ex.Bullets)+1+len(ex.Recommendations) || len(en) != len(zh) {
		t.Fatalf("%d / %d lines", len(zh), len(en))
	}
	if !strings.HasPrefix(zh[0], "⚠ 评审模型“词汇基线评审”是基线评审") || !strings.HasPrefix(en[1], "• 12 questions (20 %)") || !strings.HasPrefix(zh[len(zh)-1], "→ ") {
		t.Errorf("%q\n%q", zh, en)
	}
}
