package judge

import (
	"context"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/textmetric"

	"cubeworkbench/internal/shareddata"
)

func lexScore(t *testing.T, dim string, in Inputs) Outcome {
	t.Helper()
	d, ok := Builtin(dim)
	if !ok {
		t.Fatalf("no dimension %s", dim)
	}
	out, err := Lexical{}.Score(context.Background(), d, in, 1)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Hand-checked values. Units (stopwords out):
//
//	question  {passport, fee}
//	guide     {passport fee 120 yuan bring id card two photos apply exit entry office 20 days}  15 distinct
//	good      {passport fee 120 yuan apply exit entry office}                                    8
//	vague     {please ask relevant department}
const (
	enQ     = "How much is the passport fee?"
	enDoc   = "Passport fee: 120 yuan. Bring your ID card and two photos. Apply at the exit-entry office within 20 days."
	enGood  = "The passport fee is 120 yuan; apply at the exit-entry office."
	enVague = "Please ask the relevant department."
	enRep   = "Passport fee is 120 yuan. Passport fee is 120 yuan. Apply at the exit-entry office."
	// Units: question {身份 份证 证丢 补办}; guide 16 units, 15 distinct ("20" twice);
	// answer {补办 办身 身份 份证 携带 带户 户口 口簿 派出 办理 理工 20}.
	zhQ    = "身份证丢了怎么补办？"
	zhDoc  = "携带户口簿到户籍派出所办理，工本费20元，20个工作日内办结。"
	zhGood = "补办身份证需携带户口簿到派出所办理，工本费20元。"
)

func TestLexicalHandChecked(t *testing.T) {
	cases := []struct {
		name, dim string
		in        Inputs
		want      float64
	}{
		{"en relevance 2/2", "relevance", Inputs{Question: enQ, Answer: enGood, Document: enDoc}, 10},
		// 10·(0.7·8/8 + 0.3·(1 number of {120, 20} matched)/2) = 8.5
		{"en specificity", "specificity", Inputs{Question: enQ, Answer: enGood, Document: enDoc}, 8.5},
		// 8 of the 15 guide units → 5.33
		{"en completeness", "completeness", Inputs{Question: enQ, Answer: enGood, Document: enDoc}, 5.3},
		// mean(10, 8.5, 5.3) = 7.933 × length min(1, 8/10) = 6.35
		{"en quality", "quality", Inputs{Question: enQ, Answer: enGood, Document: enDoc}, 6.3},
		// 12 units (length factor 1), 2 of 3 sentences distinct: 7.933 × 2/3 = 5.29
		{"en quality repetitive", "quality", Inputs{Question: enQ, Answer: enRep, Document: enDoc}, 5.3},
		{"en vague relevance", "relevance", Inputs{Question: enQ, Answer: enVague, Document: enDoc}, 0},
		{"en vague specificity", "specificity", Inputs{Question: enQ, Answer: enVague, Document: enDoc}, 0},
		{"en vague quality", "quality", Inputs{Question: enQ, Answer: enVague, Document: enDoc}, 0},
		{"zh relevance 3/4", "relevance", Inputs{Question: zhQ, Answer: zhGood, Document: zhDoc}, 7.5},
		// 10·(0.7·8/12 + 0.3·1) = 7.67
		{"zh specificity", "specificity", Inputs{Question: zhQ, Answer: zhGood, Document: zhDoc}, 7.7},
		{"zh completeness 8/15", "completeness", Inputs{Question: zhQ, Answer: zhGood, Document: zhDoc}, 5.3},
		// mean(7.5, 7.7, 5.3) = 6.83, 12 units, one sentence
		{"zh quality", "quality", Inputs{Question: zhQ, Answer: zhGood, Document: zhDoc}, 6.8},
		// Reference {fee 120 yuan}: recall 1, precision 3/8, F1 0.545 → 1 + 4·0.545 = 3.18
		{"en correctness", "correctness", Inputs{Question: enQ, Answer: enGood, Reference: "The fee is 120 yuan."}, 3.2},
		{"en correctness miss", "correctness", Inputs{Question: enQ, Answer: enVague, Reference: "The fee is 120 yuan."}, 1},
		{"faithful", "faithfulness", Inputs{Answer: enGood, Contexts: []string{"Bring two photos.", enDoc}}, 1},
		{"unfaithful", "faithfulness", Inputs{Answer: enVague, Contexts: []string{enDoc}}, 0},
		{"relevant via contexts", "relevancy", Inputs{Question: enQ, Answer: enVague, Contexts: []string{enDoc}}, 1},
		{"irrelevant", "relevancy", Inputs{Question: enQ, Answer: enVague, Contexts: []string{"Bring two photos."}}, 0},
	}
	for _, c := range cases {
		out := lexScore(t, c.dim, c.in)
		if !out.OK || out.Score != c.want {
			t.Errorf("%s: %+v, want %v", c.name, out, c.want)
		}
	}
}

func TestLexicalUnscorable(t *testing.T) {
	for _, c := range []struct{ dim string }{{"specificity"}, {"completeness"}, {"quality"}} {
		if out := lexScore(t, c.dim, Inputs{Question: enQ, Answer: enGood}); out.OK || ReasonCode(out.Reason) != ReasonNoScore {
			t.Errorf("%s without a guide: %+v", c.dim, out)
		}
	}
	if out := lexScore(t, "correctness", Inputs{Question: enQ, Answer: enGood}); out.OK {
		t.Errorf("correctness without a reference: %+v", out)
	}
	custom := Dimension{Name: "tone", Kind: KindScore, Max: 10}
	out, err := Lexical{}.Score(context.Background(), custom, Inputs{Answer: "x"}, 1)
	if err != nil || out.OK || !strings.Contains(out.Reason, "tone") {
		t.Errorf("custom dimension: %+v %v", out, err)
	}
}

func TestLexicalDeterministic(t *testing.T) {
	in := Inputs{Question: zhQ, Answer: zhGood, Document: zhDoc}
	first := lexScore(t, "quality", in)
	for range 20 {
		if out := lexScore(t, "quality", in); out != first {
			t.Fatalf("not deterministic: %+v vs %+v", out, first)
		}
	}
}

// TestLexicalSeparatesBoundsOnRealData: on real government Q&A rows, an
// answer made of the gold document's opening sentences (a stand-in for the
// "full" bound) must outscore a vague reply (the "zero" bound) on every
// dimension, on average.
func TestLexicalSeparatesBoundsOnRealData(t *testing.T) {
	path := shareddata.Path(t, "msgabench", "gov_qa.xlsx")
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("政务问答")
	if err != nil {
		t.Fatal(err)
	}
	qCol, tCol := -1, -1
	for i, h := range rows[0] {
		switch strings.TrimSpace(h) {
		case "用户问题":
			qCol = i
		case "正文内容":
			tCol = i
		}
	}
	if qCol < 0 || tCol < 0 {
		t.Fatalf("columns not found in %v", rows[0])
	}
	const vague = "您好，关于您咨询的问题，请携带相关材料到相关部门咨询办理，具体以当地规定为准。"
	sums := map[string][2]float64{}
	n := 0
	for _, r := range rows[1:] {
		if len(r) <= max(qCol, tCol) || strings.TrimSpace(r[qCol]) == "" || strings.TrimSpace(r[tCol]) == "" {
			continue
		}
		ss := textmetric.Sentences(r[tCol])
		full := strings.Join(ss[:min(3, len(ss))], "")
		in := [2]Inputs{{Question: r[qCol], Answer: full, Document: r[tCol]}, {Question: r[qCol], Answer: vague, Document: r[tCol]}}
		for _, d := range CubeDimensions() {
			var o [2]Outcome
			for k := range 2 {
				if o[k], err = (Lexical{}).Score(context.Background(), d, in[k], 1); err != nil {
					t.Fatal(err)
				}
			}
			if o[0].OK && o[1].OK {
				s := sums[d.Name]
				s[0] += o[0].Score
				s[1] += o[1].Score
				sums[d.Name] = s
			}
		}
		if n++; n == 300 {
			break
		}
	}
	for _, d := range CubeDimensions() {
		s := sums[d.Name]
		t.Logf("%s over %d items: full %.2f, vague %.2f", d.Name, n, s[0]/float64(n), s[1]/float64(n))
		if s[0] <= s[1] {
			t.Errorf("%s: full answers (%.1f) do not outscore vague ones (%.1f)", d.Name, s[0], s[1])
		}
	}
}
