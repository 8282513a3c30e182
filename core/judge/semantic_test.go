package judge

import (
	"context"
	"strings"
	"testing"

	"cubeworkbench/core/dimension"
)

func semScore(t *testing.T, dim string, in Inputs) Outcome {
	t.Helper()
	d, ok := Builtin(dim)
	if !ok {
		t.Fatalf("no dimension %s", dim)
	}
	out, err := Semantic{}.Score(context.Background(), d, in, 1)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A guide, a question about it, and hand-made answers.
const (
	semQ   = "社保卡丢了怎么补办？要带什么材料？"
	semDoc = "事项名称：社会保障卡补办\n受理条件：社会保障卡遗失或损坏的参保人员。\n申请材料：本人有效身份证件原件；近期一寸白底彩色照片一张。\n" +
		"办理地点：各区社保服务中心窗口。\n办理时限：即时制卡，当场领取。\n收费标准：工本费20元。\n咨询电话：12333"
	// Two of the guide's statements, quoted with a lead-in.
	semPart = "根据办事指南，补办社保卡的申请材料：本人有效身份证件原件；近期一寸白底彩色照片一张。办理地点：各区社保服务中心窗口。"
	// A polite deflection that says nothing of the guide.
	semVague = "您好，具体请咨询当地相关部门，以当地规定为准。"
	// Nothing to do with the question or the guide.
	semUnrelated = "今天天气晴朗，适合去公园散步，晚上记得早点休息。"
	semRepeated  = semPart + "申请材料：本人有效身份证件原件；近期一寸白底彩色照片一张。申请材料：本人有效身份证件原件；近期一寸白底彩色照片一张。"
)

// TestSemanticHandMade: the measures behave as their names say on answers
// whose right score is obvious.
func TestSemanticHandMade(t *testing.T) {
	in := func(a string) Inputs { return Inputs{Question: semQ, Answer: a, Document: semDoc} }
	cases := []struct {
		name, dim string
		in        Inputs
		min, max  float64
	}{
		{"guide copy: complete", "completeness", in(semDoc), 10, 10},
		{"guide copy: specific", "specificity", in(semDoc), 10, 10},
		{"guide copy: quality", "quality", in(semDoc), 10, 10},
		{"part of the guide: partly complete", "completeness", in(semPart), 2, 6},
		{"part of the guide: specific", "specificity", in(semPart), 8, 10},
		{"part of the guide: relevant", "relevance", in(semPart), 3, 10},
		{"vague: not specific", "specificity", in(semVague), 0, 1},
		{"vague: not complete", "completeness", in(semVague), 0, 1},
		{"unrelated: not relevant", "relevance", in(semUnrelated), 0, 1},
		{"unrelated: not specific", "specificity", in(semUnrelated), 0, 0.5},
		{"unrelated: not complete", "completeness", in(semUnrelated), 0, 0.5},
		{"unrelated: low quality", "quality", in(semUnrelated), 0, 1},
		{"thin reply: low quality", "quality", in("见上"), 0, 1},
		{"en guide copy: complete", "completeness", Inputs{Question: enQ, Answer: enDoc, Document: enDoc}, 10, 10},
		{"en vague: not complete", "completeness", Inputs{Question: enQ, Answer: enVague, Document: enDoc}, 0, 1},
		{"en good: relevant", "relevance", Inputs{Question: enQ, Answer: enGood, Document: enDoc}, 5, 10},
		{"en vague: less relevant", "relevance", Inputs{Question: enQ, Answer: enVague, Document: enDoc}, 0, 3},
		{"correctness: the reference itself", "correctness", Inputs{Question: semQ, Answer: semPart, Reference: semPart}, 5, 5},
		{"correctness: unrelated", "correctness", Inputs{Question: semQ, Answer: semUnrelated, Reference: semPart}, 1, 1.5},
		{"faithful: quotes the passage", "faithfulness", Inputs{Question: semQ, Answer: semPart, Contexts: []string{semDoc}}, 1, 1},
		{"unfaithful: not in the passages", "faithfulness", Inputs{Question: semQ, Answer: semUnrelated, Contexts: []string{semDoc}}, 0, 0},
		{"relevancy: passage on the question", "relevancy", Inputs{Question: semQ, Answer: semVague, Contexts: []string{semDoc}}, 1, 1},
		{"relevancy: nothing on the question", "relevancy", Inputs{Question: semQ, Answer: semUnrelated, Contexts: []string{"公园开放时间为早六点至晚十点。"}}, 0, 0},
	}
	for _, c := range cases {
		out := semScore(t, c.dim, c.in)
		if !out.OK || out.Score < c.min || out.Score > c.max {
			t.Errorf("%s: %+v, want a score in [%g, %g]", c.name, out, c.min, c.max)
		}
	}
}

// TestSemanticOrders: relations between answers that must hold whatever the
// calibration.
func TestSemanticOrders(t *testing.T) {
	in := func(a string) Inputs { return Inputs{Question: semQ, Answer: a, Document: semDoc} }
	cases := []struct {
		name, dim     string
		better, worse Inputs
	}{
		{"more of the guide is more complete", "completeness", in(semDoc), in(semPart)},
		{"a quote is more specific than a deflection", "specificity", in(semPart), in(semVague)},
		{"repeating a statement costs quality", "quality", in(semPart), in(semRepeated)},
		{"on topic is more relevant", "relevance", in(semPart), in(semUnrelated)},
	}
	for _, c := range cases {
		b, w := semScore(t, c.dim, c.better), semScore(t, c.dim, c.worse)
		if !b.OK || !w.OK || b.Score <= w.Score {
			t.Errorf("%s: %v (%s) should beat %v (%s)", c.name, b.Score, b.Raw, w.Score, w.Raw)
		}
	}
}

// TestSemanticUnscorable: nothing to compare is no score, never a 0.
func TestSemanticUnscorable(t *testing.T) {
	cases := []struct {
		name, dim string
		in        Inputs
		want      string // in the reason
	}{
		{"empty answer", "relevance", Inputs{Question: semQ, Answer: "", Document: semDoc}, "回答为空"},
		{"empty answer completeness", "completeness", Inputs{Question: semQ, Answer: "", Document: semDoc}, "the answer is empty"},
		{"blank answer", "quality", Inputs{Question: semQ, Answer: " \n\t", Document: semDoc}, "回答为空"},
		{"punctuation only", "specificity", Inputs{Question: semQ, Answer: "。。。？", Document: semDoc}, "回答为空"},
		{"empty answer correctness", "correctness", Inputs{Question: semQ, Answer: "", Reference: semPart}, "回答为空"},
		{"no guide: specificity", "specificity", Inputs{Question: semQ, Answer: semPart}, "办事指南"},
		{"no guide: completeness", "completeness", Inputs{Question: semQ, Answer: semPart}, "service guide"},
		{"no guide: quality", "quality", Inputs{Question: semQ, Answer: semPart}, "办事指南"},
		{"no question", "relevance", Inputs{Answer: semPart, Document: semDoc}, "问题"},
		{"no reference", "correctness", Inputs{Question: semQ, Answer: semPart}, "参考答案"},
		{"no passages", "faithfulness", Inputs{Question: semQ, Answer: semPart}, "检索段落"},
	}
	for _, c := range cases {
		out := semScore(t, c.dim, c.in)
		if out.OK || out.Score != 0 || ReasonCode(out.Reason) != ReasonNoScore || !strings.Contains(out.Reason, c.want) {
			t.Errorf("%s: %+v, want unscorable (%s) mentioning %q", c.name, out, ReasonNoScore, c.want)
		}
	}
	custom := Dimension{Name: "tone", Kind: KindScore, Max: 10}
	out, err := Semantic{}.Score(context.Background(), custom, Inputs{Answer: "x"}, 1)
	if err != nil || out.OK || !strings.Contains(out.Reason, "tone") {
		t.Errorf("custom dimension: %+v %v", out, err)
	}
	narrow := Dimension{Name: "completeness", Kind: KindScore, Min: 0, Max: 5}
	out, err = Semantic{}.Score(context.Background(), narrow, Inputs{Question: semQ, Answer: semDoc, Document: semDoc}, 1)
	if err != nil || out.OK || ReasonCode(out.Reason) != ReasonOutOfRange {
		t.Errorf("edited scale 0–5, score 10: %+v %v", out, err)
	}
}

// TestSemanticDeterministic: same input, same outcome, whatever was scored
// in between and whatever the repeat number.
func TestSemanticDeterministic(t *testing.T) {
	in := Inputs{Question: semQ, Answer: semPart, Document: semDoc, Reference: semPart, Contexts: []string{semDoc}}
	for _, d := range dimension.All() {
		first := semScore(t, d.Name, in)
		for r := range 10 {
			semScore(t, d.Name, Inputs{Question: enQ, Answer: enGood, Document: enDoc})
			jd, _ := Builtin(d.Name)
			out, err := Semantic{}.Score(context.Background(), jd, in, r+1)
			if err != nil || out != first {
				t.Fatalf("%s: not deterministic: %+v vs %+v (%v)", d.Name, out, first, err)
			}
		}
	}
}

// TestSemanticReasons: every reply carries its reason in both languages,
// Chinese first, and SemanticReason picks one, keeping the code.
func TestSemanticReasons(t *testing.T) {
	out := semScore(t, "specificity", Inputs{Question: semQ, Answer: semPart, Document: semDoc})
	zh, en := SemanticReason(out.Raw, "zh"), SemanticReason(out.Raw, "en")
	if !strings.HasPrefix(zh, "具体性：") || !strings.HasPrefix(en, "specificity: ") || strings.Contains(zh, "specificity") {
		t.Errorf("raw %q: zh %q, en %q", out.Raw, zh, en)
	}
	bad := semScore(t, "relevance", Inputs{Question: semQ, Document: semDoc})
	if got := SemanticReason(bad.Reason, "en"); got != "no_score: the answer is empty" {
		t.Errorf("reason %q in en: %q", bad.Reason, got)
	}
	if got := SemanticReason(bad.Reason, "zh"); got != "no_score: 回答为空" {
		t.Errorf("reason %q in zh: %q", bad.Reason, got)
	}
	if got := SemanticReason("lexical relevance: 1/2", "zh"); got != "lexical relevance: 1/2" {
		t.Errorf("a one-language text changed: %q", got)
	}
}

// TestSemanticBlindSpots pins what docs/decisions.md says the semantic
// baseline cannot do, so the documentation stays true: it reads surface
// form, so a wrong number in a quoted sentence still counts as grounded,
// and a faithful paraphrase in other words does not. A change that fixes
// either must update the documentation with this test.
func TestSemanticBlindSpots(t *testing.T) {
	in := func(a string) Inputs { return Inputs{Question: semQ, Answer: a, Document: semDoc} }
	quoted := semScore(t, "specificity", in("办理地点：各区社保服务中心窗口。办理时限：即时制卡，当场领取。收费标准：工本费20元。"))
	wrongFee := semScore(t, "specificity", in("办理地点：各区社保服务中心窗口。办理时限：即时制卡，当场领取。收费标准：工本费90元。"))
	paraphrase := semScore(t, "specificity", in("您可以去所在区的社会保险服务大厅办，马上就能拿到新卡，要交二十块钱。"))
	if quoted.Score != 10 || wrongFee.Score != quoted.Score || paraphrase.Score != 0 {
		t.Errorf("quoted %v, wrong fee %v, paraphrase %v: the documented blind spots changed", quoted.Score, wrongFee.Score, paraphrase.Score)
	}
}
