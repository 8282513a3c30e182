package explain

import (
	"maps"
	"slices"
	"testing"

	"cubeworkbench/core/cube"
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
		r := FromFinding(cube.Finding{Rule: rule, Severity: cube.SeverityMedium, Text: cube.Text{ZH: "中", EN: "en"}, Evidence: e})
		if r.Code != string(rule) || r.Side != w.side || r.Severity != "medium" || r.ZH != "中" || r.EN != "en" {
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
