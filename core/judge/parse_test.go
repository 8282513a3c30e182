package judge

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// none marks a reply that means no score (or cannot be read as one).
const none = -1.0

// fiveItems is a reply's per-criterion points before its verdict line:
// the verdict must never be read from them (issue 22).
const fiveItems = "FIVE"

// TestReplyCorpus is a corpus of reply shapes after what real judges send
// (DeepSeek, Qwen, GLM, Kimi, ERNIE, Doubao, Hunyuan, Llama, GPT), each with
// the score it truly means or none. The bar is 0 misread: no reply may be
// read as another number than it means, and every shape written as the
// prompt asks (评分：N / Score: N last) is read.
func TestReplyCorpus(t *testing.T) {
	cases := []struct {
		who, shape string
		in         string
		min, max   int
		want       float64
	}{
		// Written as the prompt asks.
		{"gpt", "compliant en", "The answer names the right service and gives the fee.\nScore: 8", 0, 10, 8},
		{"qwen", "compliant zh", "回答对应正确，列出了3项材料和20个工作日的时限。\n评分：6", 0, 10, 6},
		{"glm", "bold verdict", "回答基本正确。\n**评分：8**", 0, 10, 8},
		{"glm", "bold label", "**评分**：6", 0, 10, 6},
		{"llama", "bold en", "**Score:** 7", 0, 10, 7},
		{"ernie", "sentence fen", "综合以上分析，评分：7分。", 0, 10, 7},
		{"hunyuan", "trailing blank lines", "评分：8\n\n", 0, 10, 8},
		{"kimi", "per-criterion lines then verdict", "1. 事项对应：2分\n2. 问什么答什么：1分\n3. 内容聚焦：2分\n4. 尊重用户情况：2分\n5. 直截了当：1分\n评分：8", 0, 10, 8},
		{"gpt", "per-criterion en then verdict", "1. Right matter: 2\n2. Right kind: 2\n3. Focus: 1\n4. Circumstances: 2\n5. Directness: 1\nScore: 8", 0, 10, 8},
		{"qwen", "reasoning with numbers and a date", "根据2024/10/1起施行的办法，回答说明了3项材料、收费50元。\n评分：9", 0, 10, 9},
		{"deepseek", "think block", "<think>第一项2分，第二项……评分：3？不对。</think>\n\n**评分：7**", 0, 10, 7},
		{"qwen", "empty think", "<think>\n\n</think>\n\n评分：8", 0, 10, 8},
		{"doubao", "seed:think", "<seed:think>用户问的是护照，回答对应。评分：2</seed:think>评分：6", 0, 10, 6},
		{"kimi", "◁think▷", "◁think▷先看相关性。Score: 1◁/think▷评分：5", 0, 10, 5},
		{"deepseek", "orphan closing think", "the model thought Score: 3 here</think>评分：6", 0, 10, 6},
		{"qwen", "full-width digit", "评分：８", 0, 10, 8},
		{"qwen", "full-width colon and space", "评分：　8", 0, 10, 8},
		{"gpt", "no-break space", "Score:\u00a07", 0, 10, 7},
		{"hunyuan", "traditional", "評分：8", 0, 10, 8},
		{"hunyuan", "traditional full-width", "回答正確。\n評分：９", 0, 10, 9},
		{"ernie", "评分结果", "评分结果：8", 0, 10, 8},
		{"hunyuan", "【评分】", "【评分】8", 0, 10, 8},
		{"gpt", "MT-bench brackets", "Rating: [[8]]", 0, 10, 8},
		{"deepseek", "boxed", "综上所述，\n$\\boxed{8}$", 0, 10, 8},
		{"qwen", "label boxed", "评分：\\boxed{7}", 0, 10, 7},
		{"glm", "label 【N】", "评分：【8】", 0, 10, 8},
		{"ernie", "label quotes", "评分：“8”", 0, 10, 8},
		{"doubao", "label about", "评分：约8分", 0, 10, 8},
		{"llama", "slash ten", "Score: 7/10", 0, 10, 7},
		{"llama", "out of ten", "Score: 7 out of 10", 0, 10, 7},
		{"qwen", "man fen aside", "评分：8分（满分10分）", 0, 10, 8},
		{"qwen", "zh final slash", "最终得分：7/10", 0, 10, 7},
		{"glm", "zh numeral", "评分：八", 0, 10, 8},
		{"glm", "zh numeral ten", "评分：十分", 0, 10, 10},
		{"ernie", "zh zero", "评分：零分", 0, 10, 0},
		{"gpt", "decimal", "Score: 7.5", 0, 10, 7.5},
		{"gpt", "final score", "Final Score: **7**", 0, 10, 7},
		{"llama", "score is", "Overall, the score is 7.", 0, 10, 7},
		{"llama", "parenthetical scale", "Score (0-10): 6", 0, 10, 6},
		{"qwen", "zh parenthetical scale", "评分（0-10分）：5", 0, 10, 5},
		{"ernie", "zh wei", "综合评分为9分。", 0, 10, 9},
		{"llama", "score dash", "Score - 4", 0, 10, 4},
		{"gpt", "heading then number", "## Score\n7", 0, 10, 7},
		{"gpt", "bare number", "8", 0, 10, 8},
		{"gpt", "bare number with blanks", "\n 6 \n", 0, 10, 6},
		{"gpt", "bare brackets last line", "The answer is relevant and direct.\n[[9]]", 0, 10, 9},
		{"qwen", "bare fen last line", "回答完整。\n8分", 0, 10, 8},
		{"qwen", "sum on the verdict line", "评分：2+2+1+2+1=8", 0, 10, 8},
		{"kimi", "per-item 得分 then total in a sentence", "1. 事项对应：对应正确（得分：2）\n2. 问什么答什么：给出材料（得分：2）\n3. 内容聚焦：（得分：1）\n4. 尊重用户情况：（得分：2）\n5. 直截了当：（得分：1）\n综上，总分为8分。", 0, 10, 8},
		{"glm", "total then verdict agree", "五项合计：总分：8\n评分：8", 0, 10, 8},
		{"qwen", "injected score quoted before the verdict", "回答末尾写有“评分：10”，这是回答里的指令，应忽略。\n评分：3", 0, 10, 3},
		{"gpt", "json", `{"score": 8}`, 0, 10, 8},
		{"gpt", "json fenced", "```json {\"score\":8}```", 0, 10, 8},
		{"qwen", "json fenced lines, reason with numbers", "```json\n{\n  \"reason\": \"列出了3项材料\",\n  \"score\": 9\n}\n```", 0, 10, 9},
		{"gpt", "json string", `{"score": "6"}`, 0, 10, 6},
		{"deepseek", "json total_score", `{"total_score": 7}`, 0, 10, 7},
		{"glm", "json criteria with total", `{"criteria": [{"name": "事项对应", "score": 2}, {"name": "聚焦", "score": 1}], "total": 8}`, 0, 10, 8},
		{"qwen", "json zh key", "```json\n{\"评分\": 7}\n```", 0, 10, 7},
		{"gpt", "correctness 1-5", "The answer agrees with the reference on the fee.\nScore: 5", 1, 5, 5},
		{"gpt", "correctness slash", "评分：4/5", 1, 5, 4},
		// After five per-item 得分 lines, every way of writing the verdict.
		{"kimi", "items + [[8]]", fiveItems + "[[8]]", 0, 10, 8},
		{"deepseek", "items + boxed", fiveItems + "\\boxed{8}", 0, 10, 8},
		{"glm", "items + 【8】", fiveItems + "评分：【8】", 0, 10, 8},
		{"ernie", "items + quotes", fiveItems + "评分：“8”", 0, 10, 8},
		{"doubao", "items + about", fiveItems + "评分：约8分", 0, 10, 8},
		{"qwen", "items + full-width space", fiveItems + "评分：\u30008", 0, 10, 8},
		{"qwen", "items + no-break space", fiveItems + "评分：\u00a08", 0, 10, 8},
		{"hunyuan", "items + traditional", fiveItems + "評分：8", 0, 10, 8},
		{"hunyuan", "items + 【评分】", fiveItems + "【评分】8", 0, 10, 8},
		{"ernie", "items + 评分结果", fiveItems + "评分结果：8", 0, 10, 8},
		{"qwen", "items + 总分", fiveItems + "总分：8分", 0, 10, 8},
		{"qwen", "items + 最终得分", fiveItems + "最终得分：8", 0, 10, 8},
		{"glm", "items + bold", fiveItems + "**评分：8**", 0, 10, 8},
		{"gpt", "items + /10", fiveItems + "评分：8/10", 0, 10, 8},
		{"qwen", "items + sum", fiveItems + "评分：2+2+1+2+1=8", 0, 10, 8},
		{"qwen", "items + full-width digit", fiveItems + "评分：８", 0, 10, 8},
		{"qwen", "items + zh numeral", fiveItems + "评分：八分", 0, 10, 8},
		{"llama", "items + score is", fiveItems + "The final score is 8.", 0, 10, 8},

		// No score, or none that can be trusted.
		{"gpt", "empty", "", 0, 10, none},
		{"gpt", "blank", "  \n\t", 0, 10, none},
		{"deepseek", "only think", "<think>评分：8</think>", 0, 10, none},
		{"deepseek", "cut inside think", "<think>Let me weigh the criteria. First", 0, 10, none},
		{"doubao", "cut inside seed:think", "<seed:think>先看第一项，评分：", 0, 10, none},
		{"qwen", "only per-item 得分", fiveItems, 0, 10, none},
		{"kimi", "per-item 得分, total in words only", fiveItems + "以上五项相加即为总分。", 0, 10, none},
		{"qwen", "self-correction after the verdict", "评分：6\n更正：第3项应得2分，评分：7", 0, 10, none},
		{"qwen", "injected score quoted after the verdict", "回答提到的材料正确。\n评分：2\n注意：回答中写有“评分：10”，已忽略。", 0, 10, none},
		{"gpt", "two verdict lines disagree", "Score: 5\nOn reflection the fee is stated correctly.\nScore: 7", 0, 10, none},
		{"gpt", "number after the verdict", "Score: 7\nA score of 3 would be too harsh here.", 0, 10, none},
		{"ernie", "reason with numbers after the verdict", "评分：8\n理由：回答列出了3项材料。", 0, 10, none},
		{"glm", "total and verdict disagree", "总分：8\n评分：7", 0, 10, none},
		{"qwen", "sum without result", "评分：2+2+1", 0, 10, none},
		{"gpt", "unlabelled sentence", "I would give this a 7 out of 10.", 0, 10, none},
		{"llama", "rate it", "I'd rate it 6 because the steps are vague.", 0, 10, none},
		{"ernie", "zh give fen", "该回答较为完整，我给7分。", 0, 10, none},
		{"gpt", "disagreeing phrases", "Relevance deserves 8/10 and completeness 6/10.", 0, 10, none},
		{"gpt", "eleven", "Score: 11", 0, 10, none},
		{"gpt", "minus one", "Score: -1", 0, 10, none},
		{"gpt", "twelve of ten", "12/10", 0, 10, none},
		{"gpt", "bare eleven", "11", 0, 10, none},
		{"gpt", "correctness zero", "Score: 0", 1, 5, none},
		{"glm", "zh out of range", "评分：十二", 0, 10, none},
		{"gpt", "range", "Score: 6-7", 0, 10, none},
		{"qwen", "zh range", "评分：6到7分", 0, 10, none},
		{"gpt", "other scale", "Score: 4/5", 0, 10, none},
		{"llama", "hundred scale", "Score: 85/100", 0, 10, none},
		{"gpt", "no score", "The answer is good and covers the materials.", 0, 10, none},
		{"qwen", "zh no score", "回答基本正确，但缺少办理地点。", 0, 10, none},
		{"ernie", "评分：一般", "评分：一般", 0, 10, none},
		{"gpt", "placeholder", "Score: N", 0, 10, none},
		{"qwen", "minutes only", "办理时间为20分钟。", 0, 10, none},
		{"qwen", "shifen adverb only", "这个回答十分详细。", 0, 10, none},
		{"glm", "list under a heading", "## 评分\n1. 事项对应：对应正确", 0, 10, none},
		{"gpt", "json without a score", `{"reason": "good"}`, 0, 10, none},
		{"gpt", "json score out of range", `{"score": 12}`, 0, 10, none},
		{"llama", "first line number, reason after", "4.0\nThe generated answer matches the reference but is less concise.", 1, 5, none},
	}
	if len(cases) < 60 {
		t.Fatalf("only %d shapes", len(cases))
	}
	misread, lost := 0, 0
	for _, c := range cases {
		in := strings.ReplaceAll(c.in, fiveItems, "1. 事项对应：回答讲的是护照办理。得分：2\n2. 问什么答什么：给出了材料。得分：2\n3. 内容聚焦：少量套话。得分：1\n4. 尊重用户情况：得分：2\n5. 直截了当：得分：1\n")
		got, err := ParseScore(in, c.min, c.max)
		switch {
		case c.want == none && err == nil:
			misread++
			t.Errorf("MISREAD %s, %s: %q read as %v, it means no score", c.who, c.shape, in, got)
		case c.want != none && err == nil && got != c.want:
			misread++
			t.Errorf("MISREAD %s, %s: %q read as %v, it means %v", c.who, c.shape, in, got, c.want)
		case c.want != none && err != nil:
			lost++
			t.Errorf("lost %s, %s: %q: %v; it means %v", c.who, c.shape, in, err, c.want)
		case c.want == none && err != nil:
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Detail == "" {
				t.Errorf("%s, %s: %v is not a ParseError with a reason", c.who, c.shape, err)
			}
		}
	}
	t.Logf("%d shapes, %d misread, %d lost", len(cases), misread, lost)
}

// The reason codes of the replies that mean no score.
func TestParseScoreReasons(t *testing.T) {
	cases := []struct {
		in   string
		code string
	}{
		{"", ReasonEmpty},
		{"<think>评分：8</think>", ReasonEmpty},
		{"<think>Let me weigh", ReasonTruncated},
		// A tag with attributes (some wrappers write them; core/reasoning
		// reads the same forms in the system's answers): the score inside
		// the unclosed block is thinking, never the verdict.
		{`<think type="reasoning">评分：9？还要再看`, ReasonTruncated},
		{`<THINK id="1">Score: 9`, ReasonTruncated},
		{`<think type="r">评分：8</think>`, ReasonEmpty},
		{"Score: 11", ReasonOutOfRange},
		{"Score: 6-7", ReasonAmbiguous},
		{"Score: 85/100", ReasonAmbiguous},
		{"评分：6\n更正：评分：7", ReasonAmbiguous},
		{"评分：2\n回答中写有“评分：10”。", ReasonAmbiguous},
		{"回答基本正确。", ReasonNoScore},
	}
	for _, c := range cases {
		if _, err := ParseScore(c.in, 0, 10); !IsParseError(err, c.code) {
			t.Errorf("ParseScore(%q) = %v, want %s", c.in, err, c.code)
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

// TestReasonTextBothLanguages: an unscorable reason is stored with its code
// (ReasonCode reads it) and its detail in both languages, and ReasonText
// gives people each language without the code; reasons stored before (one
// English detail, or the semantic judge's "zh | en") stay readable, and a
// judge's own words come back as they are.
func TestReasonTextBothLanguages(t *testing.T) {
	score, _ := Builtin("relevance")
	yesno, _ := Builtin("faithfulness")
	cases := []struct {
		stored string
		code   string
		zh, en string
	}{
		{reparseReason(t, "回答很好。", yesno), ReasonNoScore, "无法评分：回复中没有“是/否”结论：“回答很好。”", `unscorable: no YES/NO verdict in "回答很好。"`},
		{reparseReason(t, "评分：15", score), ReasonOutOfRange, "无法评分（超出评分范围）：分数 15 超出 0–10", "unscorable (out of range): score 15 is outside 0–10"},
		{reparseReason(t, "", score), ReasonEmpty, "无法评分（回复为空）：回复没有内容", "unscorable (empty reply): the reply has no content"},
		// Stored by earlier versions.
		{`no_score: no YES/NO verdict in "x"`, ReasonNoScore, `无法评分：no YES/NO verdict in "x"`, `unscorable: no YES/NO verdict in "x"`},
		{"no_score: 问题没有文字 | the question has no text", ReasonNoScore, "无法评分：问题没有文字", "unscorable: the question has no text"},
		{"semantic 相关性：余弦 0.50 | relevance: cosine 0.50", "", "相关性：余弦 0.50", "relevance: cosine 0.50"},
		// A judge's own words.
		{"The answer is fine.", "The answer is fine.", "The answer is fine.", "The answer is fine."},
	}
	for _, c := range cases {
		if got := ReasonCode(c.stored); c.code != "" && got != c.code { // "": a raw reply, no code
			t.Errorf("%q: code %q, want %q", c.stored, got, c.code)
		}
		got := ReasonText(c.stored)
		if got.ZH != c.zh || got.EN != c.en {
			t.Errorf("%q:\n got %q / %q\nwant %q / %q", c.stored, got.ZH, got.EN, c.zh, c.en)
		}
	}
	// The offline judges' notes and refusals, in both languages.
	for _, s := range []Scorer{Lexical{}, NewSemantic()} {
		for _, in := range []Inputs{{Question: "？", Answer: "好"}, {Question: "办理护照需要什么", Answer: "需要身份证", Document: "办理护照需要身份证和照片。"}} {
			out, err := s.Score(context.Background(), score, in, 1)
			if err != nil {
				t.Fatal(err)
			}
			stored := out.Raw
			if !out.OK {
				stored = out.Reason
			}
			got := ReasonText(stored)
			if got.ZH == got.EN || strings.Contains(got.ZH, "no_score") || strings.ContainsFunc(got.EN, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }) {
				t.Errorf("%T %q reads %q / %q", s, stored, got.ZH, got.EN)
			}
		}
	}
}

func reparseReason(t *testing.T, raw string, d Dimension) string {
	t.Helper()
	_, ok, reason := Reparse(raw, d)
	if ok {
		t.Fatalf("%q scored", raw)
	}
	return reason
}

// TestReasonTextKeepsReplies: an LLM judge's reply with a Markdown table
// is its own words, not "zh | en".
func TestReasonTextKeepsReplies(t *testing.T) {
	reply := "| 维度 | 得分 |\n|---|---|\n| 相关性 | 8 |\n评分：8"
	if got := ReasonText(reply); got.ZH != reply || got.EN != reply {
		t.Errorf("%q read as %q / %q", reply, got.ZH, got.EN)
	}
}
