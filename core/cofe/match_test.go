package cofe

import (
	"testing"
)

func TestClean(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Hello, World_1!", "helloworld_1"},
		{"TARGETING PREVENTION, CARE, AND SUPPORT", "targetingpreventioncareandsupport"},
		{"一一对应", "一对应"},
		{"一一一", "一一"}, // left to right, no overlap, as Python's str.replace
		{"唯一 一个", "唯一个"},
		{"福建省高层次人才认定和支持办法（试行）", "福建省高层次人才认定和支持办法试行"},
		{"①② 〇 ２０２４", "①②〇２０２４"}, // No, Nl and full-width Nd are \w in Python
		{"ＡＢＣ", "ａｂｃ"},
		{"e\u0301té", "eté"}, // a combining mark is not \w
		{"☆", ""},
		{"tab\tnbsp\u00a0nl\n", "tabnbspnl"},
		{"新竹科學園區力行 6路8號", "新竹科學園區力行6路8號"},
	}
	for _, c := range cases {
		if got := Clean(c.in); got != c.want {
			t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Cases built on real CoFE-RAG examples (rag_dataset_{en,zh}.json) and the
// quirks NOTES.md lists; chunk texts are written for the test.
func TestMatch(t *testing.T) {
	cases := []struct {
		name   string
		chunks []string
		coarse []string
		fine   [][]string
		score  float64
		gold   bool
	}{
		{"zh 9: Traditional keywords; relevance by coarse keyword, case-insensitive",
			[]string{
				"HCAHPS 意見調查：尚未完成這份調查的話，請現在花幾分鐘時間填寫。意見調查是為了瞭解病人對醫院照顧品質的看法。",
				"回答這些問題大約需要 7 分鐘。", // holds group 3 but no coarse keyword: not relevant
				"hcahps：您的參與純屬自願，您的回答也會保密。",
			},
			[]string{"HCAHPS"},
			[][]string{{"尚未完成這份調查的話", "請現在花幾分鐘時間填寫"}, {"意見調查是為了瞭解病人對醫院照顧品質的看法"},
				{"回答這些問題大約需要 7 分鐘"}, {"您的參與純屬自願", "您的回答也會保密"},
				{"當您填完這份問卷後", "請放入已付郵資的回郵信封寄回"}, {"對隨附的調查有任何 問題", "請撥打免費電話：1-800-xxx-xxxx"}},
			3.0 / 6, false},
		{"zh 9: Simplified text does not match Traditional keywords",
			[]string{"HCAHPS 意见调查是为了了解病人对医院照顾品质的看法"}, []string{"HCAHPS"},
			[][]string{{"意見調查是為了瞭解病人對醫院照顧品質的看法"}}, 0, false},
		{"en 0: ALL-CAPS keywords match lowercase text after cleaning",
			[]string{"The Global AIDS Interfaith Alliance (GAIA) works to provide basic health services, targeting prevention, care and support in communities affected by HIV/AIDS, TB and malaria in Africa."},
			[]string{"GAIA"},
			[][]string{{"PROVIDE BASIC HEALTH SERVICES", "TARGETING PREVENTION, CARE, AND SUPPORT IN COMMUNITIES AFFECTED BY HIV/AIDS, TB AND MALARIA IN AFRICA"},
				{"PROVIDED 273,104 CLIENT VISITS", "OPERATED 9 MOBILE HEALTH CLINICS"}},
			0.5, false},
		{"en 14: all groups hit across two relevant chunks",
			[]string{"RRD1 interacts with the phosphatase MIH1.", "Unrelated text on PTP1.", "RRD2 and PTP1; the kinase SWE1."},
			[]string{"RRD1", "RRD2"}, [][]string{{"MIH1", "PTP1"}, {"SWE1"}}, 1, true},
		{"zh 102: an empty group is hit even with nothing relevant",
			[]string{"无关内容"}, []string{"PEG化药物"}, [][]string{{}}, 1, true},
		{"zh 102: empty group, empty chunk list", nil, []string{"PEG化药物"}, [][]string{{}}, 1, true},
		{"zh 2478: a keyword that cleans to empty (☆) is always found",
			[]string{"国家科技进步特等奖的第一完成人，直接入选A类人才。"}, []string{"国家科技进步特等奖"},
			[][]string{{"福建省高层次人才认定和支持办法（试行）"}, {"第一完成人", "☆", "直接入选A类人才"}}, 0.5, false},
		{"zh 837: 一一 collapses in keyword and text alike",
			[]string{"第一联系人拥有最大权限；任何供应商只允许存在唯一 一个有效的第一联系人。"}, []string{"第一联系人"},
			[][]string{{"第一联系人拥有最大权限", "任何供应商只允许存在唯一一个有效的第一联系人"},
				{"同一个签约供应商或实际承包人或分公司 ，只允许有一个第一联系人", "只有第一联系人存在系统帐号"}},
			0.5, false},
		{"formula: S joins relevant chunks, so a keyword may span a boundary",
			[]string{"社保卡补", "办流程社保"}, []string{"社保"}, [][]string{{"补办"}}, 1, true},
		{"zero fine groups: not gold, score 0", []string{"社保卡"}, []string{"社保"}, nil, 0, false},
		{"empty coarse list: nothing relevant", []string{"社保卡"}, nil, [][]string{{"社保卡"}}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			score, gold := Match(c.chunks, c.coarse, c.fine)
			if score != c.score || gold != c.gold {
				t.Errorf("Match = %v, %v; want %v, %v", score, gold, c.score, c.gold)
			}
		})
	}
}

func TestFindExplains(t *testing.T) {
	v := Find([]string{Clean("RRD1 binds MIH1"), Clean("no keyword")}, []string{"rrd1"}, [][]string{{"MIH1"}, {"SWE1", "PTP-1"}})
	if v.Hits != 1 || v.Groups != 2 || v.Relevant != 1 || len(v.Missing) != 2 || v.Missing[0] != "swe1" || v.Missing[1] != "ptp1" {
		t.Errorf("Find = %+v", v)
	}
}

func TestEmptyKeywords(t *testing.T) {
	cases := []struct {
		coarse []string
		fine   [][]string
		want   bool
	}{
		{[]string{"a"}, [][]string{{"b"}}, false},
		{nil, [][]string{{"b"}}, true},
		{[]string{"a"}, nil, true},
		{[]string{"a"}, [][]string{{}}, true},
		{[]string{"a"}, [][]string{{}, {"b"}}, false},
	}
	for _, c := range cases {
		if got := EmptyKeywords(c.coarse, c.fine); got != c.want {
			t.Errorf("EmptyKeywords(%v, %v) = %v", c.coarse, c.fine, got)
		}
	}
}
