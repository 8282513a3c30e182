package judge

import (
	"errors"
	"testing"
)

func TestParseScore(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		min, max int
		want     float64
		code     string // "" when a score is expected
	}{
		{"bare", "8", 0, 10, 8, ""},
		{"bare decimal", "7.5", 0, 10, 7.5, ""},
		{"bare with newline", "\n 6 \n", 0, 10, 6, ""},
		{"label slash", "Score: 8/10", 0, 10, 8, ""},
		{"fen", "8分", 0, 10, 8, ""},
		{"zh label numeral", "评分：八", 0, 10, 8, ""},
		{"zh label fen", "评分：8分", 0, 10, 8, ""},
		{"zh label ten", "评分：十", 0, 10, 10, ""},
		{"zh label zero", "评分：零分", 0, 10, 0, ""},
		{"json", `{"score": 8}`, 0, 10, 8, ""},
		{"json fenced", "```json {\"score\":8}```", 0, 10, 8, ""},
		{"json fenced lines", "```json\n{\n  \"reason\": \"材料齐全\",\n  \"score\": 9\n}\n```", 0, 10, 9, ""},
		{"json string value", `{"score": "6"}`, 0, 10, 6, ""},
		{"markdown bold", "**Score:** 8", 0, 10, 8, ""},
		{"markdown bold value", "Final Score: **7**", 0, 10, 7, ""},
		{"out of", "I would give this a 7 out of 10.", 0, 10, 7, ""},
		{"reasoning with numbers", "The answer lists 3 materials and a 20-day deadline, but omits the fee of 50 yuan.\n\nScore: 6", 0, 10, 6, ""},
		{"zh final slash", "最终得分：7/10", 0, 10, 7, ""},
		{"zh reasoning then label", "回答列出了3项材料，并说明20个工作日内办结，但没有说明收费。\n评分：6", 0, 10, 6, ""},
		{"per-criterion then total", "1. Right matter: 2\n2. Right kind: 2\n3. Focus: 1\n4. Circumstances: 2\n5. Directness: 1\nScore: 8", 0, 10, 8, ""},
		{"zh per-criterion", "1. 事项对应：2分\n2. 问什么答什么：1分\n3. 内容聚焦：2分\n4. 尊重用户情况：2分\n5. 直截了当：1分\n评分：8", 0, 10, 8, ""},
		{"last labelled wins", "Score: 5\nOn reflection the fee is stated correctly.\nScore: 7", 0, 10, 7, ""},
		{"strong beats weak", "Score: 7\nA score of 3 would be too harsh here.", 0, 10, 7, ""},
		{"think removed", "<think>Maybe Score: 2? no...</think>\nScore: 9", 0, 10, 9, ""},
		{"lone close think", "the model thought Score: 3 here</think>评分：6", 0, 10, 6, ""},
		{"fullwidth", "评分：８", 0, 10, 8, ""},
		{"score is", "Overall, the score is 7.", 0, 10, 7, ""},
		{"rating", "Rating: 4", 0, 10, 4, ""},
		{"parenthetical scale", "Score (0-10): 6", 0, 10, 6, ""},
		{"zh parenthetical", "评分（0-10分）：5", 0, 10, 5, ""},
		{"zh wei", "综合评分为9分。", 0, 10, 9, ""},
		{"zh man fen aside", "评分：8分（满分10分）", 0, 10, 8, ""},
		{"zh give fen", "该回答较为完整，我给7分。", 0, 10, 7, ""},
		{"zh minutes ignored", "办理时间约30分钟，材料齐全，给8分。", 0, 10, 8, ""},
		{"zh shifen adverb", "回答十分准确，条理清楚。\n9", 0, 10, 9, ""},
		{"rate it", "I'd rate it 6 because the steps are vague.", 0, 10, 6, ""},
		{"llamaindex first line", "4.0\nThe generated answer matches the reference but is less concise.", 1, 5, 4, ""},
		{"correctness label", "The answer agrees with the reference on the fee.\nScore: 5", 1, 5, 5, ""},
		{"correctness slash", "评分：4/5", 1, 5, 4, ""},
		{"heading score", "## Score\n7", 0, 10, 7, ""},
		{"date ignored", "根据2024/10/1起施行的办法，回答正确。\n评分：9", 0, 10, 9, ""},
		{"bold zh", "**评分**：6", 0, 10, 6, ""},
		{"score dash", "Score - 4", 0, 10, 4, ""},

		// Rejected.
		{"empty", "", 0, 10, 0, ReasonEmpty},
		{"blank", "  \n\t", 0, 10, 0, ReasonEmpty},
		{"only think", "<think>评分：8</think>", 0, 10, 0, ReasonEmpty},
		{"open think", "<think>Let me weigh the criteria. First", 0, 10, 0, ReasonTruncated},
		{"eleven", "Score: 11", 0, 10, 0, ReasonOutOfRange},
		{"minus one", "Score: -1", 0, 10, 0, ReasonOutOfRange},
		{"twelve of ten", "12/10", 0, 10, 0, ReasonOutOfRange},
		{"bare eleven", "11", 0, 10, 0, ReasonOutOfRange},
		{"correctness zero", "Score: 0", 1, 5, 0, ReasonOutOfRange},
		{"correctness six", "6\nExcellent answer.", 1, 5, 0, ReasonOutOfRange},
		{"zh out of range", "评分：十二", 0, 10, 0, ReasonOutOfRange},
		{"range", "Score: 6-7", 0, 10, 0, ReasonAmbiguous},
		{"zh range", "评分：6到7分", 0, 10, 0, ReasonAmbiguous},
		{"other scale", "Score: 4/5", 0, 10, 0, ReasonAmbiguous},
		{"hundred scale", "Score: 85/100", 0, 10, 0, ReasonAmbiguous},
		{"disagreeing phrases", "Relevance deserves 8/10 and completeness 6/10.", 0, 10, 0, ReasonAmbiguous},
		{"no score", "The answer is good and covers the materials.", 0, 10, 0, ReasonNoScore},
		{"zh no score", "回答基本正确，但缺少办理地点。", 0, 10, 0, ReasonNoScore},
		{"zh yiban is a word", "评分：一般", 0, 10, 0, ReasonNoScore},
		{"placeholder", "Score: N", 0, 10, 0, ReasonNoScore},
		{"minutes only", "办理时间为20分钟。", 0, 10, 0, ReasonNoScore},
		{"shifen only", "这个回答十分详细。", 0, 10, 0, ReasonNoScore},
	}
	if len(cases) < 40 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		got, err := ParseScore(c.in, c.min, c.max)
		if c.code == "" {
			if err != nil || got != c.want {
				t.Errorf("%s: ParseScore(%q) = %v, %v; want %v", c.name, c.in, got, err, c.want)
			}
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Code != c.code {
			t.Errorf("%s: ParseScore(%q) = %v, %v; want error %s", c.name, c.in, got, err, c.code)
		}
	}
}

func TestParseYesNo(t *testing.T) {
	cases := []struct {
		in   string
		want bool
		code string
	}{
		{"YES", true, ""},
		{"no", false, ""},
		{"Verdict: YES", true, ""},
		{"The passages state the fee and the deadline.\nVerdict: NO", false, ""},
		{"结论：YES", true, ""},
		{"结论：否", false, ""},
		{"**Verdict:** yes", true, ""},
		{"<think>maybe NO</think>YES", true, ""},
		{"Answer: NO\nBecause the office named is not in any passage.", false, ""},
		{"Verdict: NO\nOn second look, passage 2 supports it.\nVerdict: YES", true, ""},
		{"The answer is supported, so YES.", true, ""},
		{"是", true, ""},
		{"", false, ReasonEmpty},
		{"<think>considering", false, ReasonTruncated},
		{"YES for the fee, NO for the office.", false, ReasonAmbiguous},
		{"The answer mentions the office.", false, ReasonNoScore},
		{"Answer: Nothing conclusive.", false, ReasonNoScore},
	}
	for _, c := range cases {
		got, err := ParseYesNo(c.in)
		if c.code == "" {
			if err != nil || got != c.want {
				t.Errorf("ParseYesNo(%q) = %v, %v; want %v", c.in, got, err, c.want)
			}
			continue
		}
		if !IsParseError(err, c.code) {
			t.Errorf("ParseYesNo(%q) = %v, %v; want error %s", c.in, got, err, c.code)
		}
	}
}

func TestChineseNumber(t *testing.T) {
	cases := map[string]float64{"零": 0, "一": 1, "两": 2, "九": 9, "十": 10, "十一": 11, "二十": 20, "二十五": 25, "七点五": 7.5}
	for in, want := range cases {
		if got, ok := chineseNumber(in); !ok || got != want {
			t.Errorf("chineseNumber(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "一二", "十十", "零十", "点"} {
		if v, ok := chineseNumber(bad); ok {
			t.Errorf("chineseNumber(%q) = %v, want failure", bad, v)
		}
	}
}

func TestReparse(t *testing.T) {
	q, _ := Builtin("quality")
	f, _ := Builtin("faithfulness")
	if s, ok, r := Reparse("评分：7", q); !ok || s != 7 || r != "" {
		t.Errorf("Reparse quality = %v %v %q", s, ok, r)
	}
	if s, ok, _ := Reparse("Verdict: YES", f); !ok || s != 1 {
		t.Errorf("Reparse faithfulness YES = %v %v", s, ok)
	}
	if s, ok, _ := Reparse("Verdict: NO", f); !ok || s != 0 {
		t.Errorf("Reparse faithfulness NO = %v %v", s, ok)
	}
	if _, ok, r := Reparse("Score: 12", q); ok || ReasonCode(r) != ReasonOutOfRange {
		t.Errorf("Reparse out of range = %v %q", ok, r)
	}
}
