package explain

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dimension"
)

// Every rule of CuBE becomes a recommendation with its code, the side it
// changes and its evidence under the names SUMMARY.json has always used,
// read from typed fields (never matched by string or dug out of a map).
func TestFromFinding(t *testing.T) {
	e := cube.Evidence{RecallAtK: 0.75, Threshold: 0.8, TopN: 8, Missed: 3, Examples: []string{"q1"}, Dimension: "quality",
		Normalized: 41.5, SD: 12.5, Judges: 2, Items: 4, Judge: "j1", Unscorable: 9, Judgements: 100, Flags: []string{"quality: bounds collapse"}}
	want := map[cube.Rule]struct {
		side string
		keys []string
	}{
		cube.RuleRecallLow:      {SideSystem, []string{"examples", "missed", "recall_at_k", "threshold", "top_n"}},
		cube.RuleDimensionWeak:  {SideSystem, []string{"dimension", "normalized", "threshold"}},
		cube.RuleJudgesDisagree: {SideEvaluation, []string{"examples", "judges", "sd", "threshold"}},
		cube.RuleSingleJudge:    {SideEvaluation, []string{"judges"}},
		cube.RuleOwnKnowledge:   {SideSystem, []string{"examples", "items", "threshold"}},
		cube.RuleUnscorable:     {SideEvaluation, []string{"judge", "judgements", "unscorable"}},
		cube.RuleBounds:         {SideEvaluation, []string{"flags", "judge"}},
	}
	for _, rule := range cube.Rules() {
		w, ok := want[rule]
		if !ok {
			t.Errorf("rule %s: no expectation (a new rule needs its side and evidence here and in evidenceOf)", rule)
			continue
		}
		r := FromFinding(cube.Finding{Rule: rule, Severity: cube.SeverityMedium, Evidence: e})
		if r.Code != string(rule) || r.Side != w.side || r.Severity != "medium" || r.ZH == "" || r.EN == "" || r.ZH == r.EN {
			t.Errorf("%s → %+v", rule, r)
		}
		if got := slices.Sorted(maps.Keys(r.Evidence)); !slices.Equal(got, w.keys) {
			t.Errorf("%s evidence keys %v, want %v", rule, got, w.keys)
		}
	}
	r := FromFinding(cube.Finding{Rule: cube.RuleDimensionWeak, Evidence: e})
	if r.Evidence["dimension"] != "quality" || r.Evidence["normalized"] != 41.5 || r.Evidence["threshold"] != 0.8 {
		t.Errorf("dimension evidence %v", r.Evidence)
	}
	r = FromFinding(cube.Finding{Rule: cube.RuleUnscorable, Evidence: e})
	if r.Evidence["judge"] != "j1" || r.Evidence["unscorable"] != 9 || r.Evidence["judgements"] != 100 {
		t.Errorf("unscorable evidence %v", r.Evidence)
	}
}

// explain words CuBE's findings from their evidence alone (cube finds, it
// does not word): hand-written expectations for each kind of argument.
func TestFindingWords(t *testing.T) {
	comp, _ := dimension.Lookup("completeness")
	cases := []struct {
		f      cube.Finding
		zh, en string // prefixes
	}{
		{cube.Finding{Rule: cube.RuleRecallLow, Evidence: cube.Evidence{RecallAtK: 0.25, Threshold: 0.8, TopN: 8, Missed: 3, GoldKnown: 4}},
			"指南召回率@8 为 25.00 %（低于 80 %）：4 个问题中有 3 个未检索到对应指南。可提高 TOP-N",
			"The guide recall@8 is 25.00 % (below 80 %): 3 of 4 questions never see their guide. Raise TOP-N"},
		{cube.Finding{Rule: cube.RuleDimensionWeak, Evidence: cube.Evidence{Dimension: "completeness", Normalized: 41.5, Threshold: 60}},
			"completeness 在上下界之间仅达到 41.50（低于 60）：" + comp.AdviceZH + "。",
			"completeness reaches only 41.50 of 100 between the bounds (below 60): " + comp.AdviceEN + "."},
		{cube.Finding{Rule: cube.RuleDimensionWeak, Evidence: cube.Evidence{Dimension: "tone", Normalized: 10, Threshold: 60}},
			"tone 在上下界之间仅达到 10.00（低于 60）：针对该维度改进提示词和知识库内容。",
			"tone reaches only 10.00 of 100 between the bounds (below 60): work on the prompt and the knowledge-base content this dimension judges."},
		{cube.Finding{Rule: cube.RuleJudgesDisagree, Evidence: cube.Evidence{SD: 13.258, Threshold: 10}},
			"各评审模型的 CuBE 分数标准差为 13.26 分（高于 10）", "The judges' CuBE scores spread by SD 13.26 points (above 10)"},
		{cube.Finding{Rule: cube.RuleSingleJudge}, "只有一个评审模型得出 CuBE 分数", "Only one judge has a CuBE score"},
		{cube.Finding{Rule: cube.RuleOwnKnowledge, Evidence: cube.Evidence{Items: 2, Threshold: 8, Examples: []string{"q1", "q2"}}},
			"有 2 个回答在未检索到对应指南的情况下仍得分 8 分及以上（如 q1、q2）", "2 answers score 8 or more although their guide was not retrieved (e.g. q1, q2)"},
		{cube.Finding{Rule: cube.RuleUnscorable, Evidence: cube.Evidence{Judge: "j1", Unscorable: 9, Judgements: 100}},
			"评审模型 j1 有 9/100 条回复无法解析为分数", "Judge j1 left 9 of 100 replies unscorable"},
		{cube.Finding{Rule: cube.RuleBounds, Evidence: cube.Evidence{Judge: "j1", Flags: []string{"quality: bounds collapse", "weighted: outside bounds"}}},
			"评审模型 j1：表达质量：上下界塌缩；加权：超出上下界。", "Judge j1: quality: bounds collapse; weighted: outside bounds. The no-context answers and gold-guide answers do not bracket"},
	}
	for _, c := range cases {
		r := FromFinding(c.f)
		if !strings.HasPrefix(r.ZH, c.zh) || !strings.HasPrefix(r.EN, c.en) {
			t.Errorf("%s:\n%s\n%s\nwant prefixes\n%s\n%s", c.f.Rule, r.ZH, r.EN, c.zh, c.en)
		}
	}
}
