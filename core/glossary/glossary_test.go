package glossary

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// Every id has a Chinese and an English name, and no Chinese name carries
// a Latin word beyond the method names and Recall@k's "@k".
func TestEveryTermBothLanguages(t *testing.T) {
	ids := IDs()
	if len(ids) < 60 {
		t.Fatalf("%d ids: the table lost entries", len(ids))
	}
	for _, id := range ids {
		zh, en := Term(id, "zh"), Term(id, "en")
		if strings.TrimSpace(zh) == "" || strings.TrimSpace(en) == "" {
			t.Errorf("%s: zh %q en %q", id, zh, en)
		}
		if !strings.ContainsFunc(zh, func(r rune) bool { return unicode.Is(unicode.Han, r) }) &&
			!allowedASCII[zh] {
			t.Errorf("%s: Chinese name %q has no Chinese character", id, zh)
		}
		if bad := UnexpectedASCII(zh); len(bad) > 0 {
			t.Errorf("%s: Chinese name %q carries %q", id, zh, bad)
		}
		if strings.ContainsFunc(en, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			t.Errorf("%s: English name %q carries Chinese", id, en)
		}
	}
}

// Names the officer must never see, found in the window before the glossary.
func TestForbiddenNames(t *testing.T) {
	for _, id := range IDs() {
		zh, en := Term(id, "zh"), Term(id, "en")
		for _, bad := range []string{"评委", "bootstrap", "自助法", "零分答案", "满分答案", "N_J", "1e-9"} {
			if strings.Contains(zh, bad) || strings.Contains(en, bad) {
				t.Errorf("%s: %q / %q contains %q", id, zh, en, bad)
			}
		}
	}
	// Two recalls, two names: CoFE's keyword recall is never plain 召回率.
	if Term(GuideRecall, "zh") == Term(KeywordRecall, "zh") || !strings.HasPrefix(Term(KeywordRecall, "zh"), "关键词") {
		t.Errorf("guide recall %q vs keyword recall %q", Term(GuideRecall, "zh"), Term(KeywordRecall, "zh"))
	}
}

func TestLookups(t *testing.T) {
	cases := []struct {
		lookup func(string) (ID, bool)
		code   string
		zh, en string
	}{
		{SetID, "rag", "被测系统回答", "system answers"},
		{SetID, "zero", "零上下文回答（下界）", "no-context answers (lower bound)"},
		{SetID, "full", "标准指南回答（上界）", "gold-guide answers (upper bound)"},
		{SetID, "系统B", "系统B", "系统B"},
		{DimensionID, "specificity", "具体性", "specificity"},
		{DimensionID, "politeness", "politeness", "politeness"},
		{VerdictID, "needs_work", "需改进后部署", "Needs work before deployment"},
		{VerdictID, "", "", ""},
		{CompareID, "none", "没有可检测的差异", "no detectable difference"},
		{QueryTypeID, "tutorial", "教程类", "tutorial"},
		{MFSSFactorID, "factual_consistency", "事实一致性", "factual consistency"},
		{JudgeID, "lexical", "词汇基线评审", "lexical baseline"},
		{JudgeID, "semantic", "语义基线评审", "semantic baseline"},
		{JudgeID, "qwen2.5:32b", "qwen2.5:32b", "qwen2.5:32b"},
		{JudgeID, "baseline", "baseline", "baseline"}, // not judge.baseline's name
	}
	for _, c := range cases {
		if zh, en := Name(c.lookup, c.code, "zh"), Name(c.lookup, c.code, "en"); zh != c.zh || en != c.en {
			t.Errorf("%q: %q / %q, want %q / %q", c.code, zh, en, c.zh, c.en)
		}
	}
	if got := Term("no.such", "zh"); got != "[no.such]" {
		t.Errorf("unknown id shows as %q", got)
	}
	if GuideRecallAt(8, "zh") != "指南召回率@8" || GuideRecallAt(8, "en") != "guide recall@8" {
		t.Error(GuideRecallAt(8, "zh"), GuideRecallAt(8, "en"))
	}
	if Interval95With(1000, "zh") != Term(Interval95, "zh") || Interval95With(1000, "en") != Term(Interval95, "en") {
		t.Errorf("%q / %q differ from the glossary's default", Interval95With(1000, "zh"), Interval95With(1000, "en"))
	}
	if got := Interval95With(12345678, "en"); got != "95 % interval (12,345,678 resamples)" {
		t.Error(got)
	}
}

func TestUnexpectedASCII(t *testing.T) {
	cases := []struct {
		text  string
		allow []string
		want  []string
	}{
		{"CuBE 53.48 · 指南召回率@8 80 %", nil, nil},
		{"MFSS 与 CoFE-RAG 结果；ROUGE-L 0.41，BLEU-4 0.2，BM25 检索", nil, nil},
		{"指南召回率@k：12 个问题（20 %）未检索到", nil, nil},
		{"用时 12.5 s，写入 200 KiB，1280x800，v1.2.0，2026-12-01T10:00:00Z", nil, nil},
		{"已写入 /home/officer/Documents/CuBE/report.xlsx 和 C:\\Users\\x\\SUMMARY.json", nil, nil},
		{"文件 cube-sample.xlsx", nil, nil},
		{"评审模型 qwen2.5-72b-instruct 与 gpt-4o mini", []string{"qwen2.5-72b-instruct", "gpt-4o mini"}, nil},
		{"RAGFlow 助手 ID，或 OpenAI 兼容接口；密钥变量如 DEEPSEEK_API_KEY", nil, nil},
		{"共 1200 个 token", nil, []string{"token"}},
		// What the window showed before issue 14.
		{"zero/rag/full", nil, []string{"zero/rag/full"}},
		{"95% CI [40, 60]", nil, []string{"CI"}},
		{"(Select one)", nil, []string{"Select", "one"}},
		{"分母 ≤ 1e-9，N_J", nil, []string{"1e-9", "N_J"}},
		{"retrieved：只用…；all：全部题目", nil, []string{"retrieved", "all"}},
		{"提示词语言 zh zh", nil, []string{"zh"}},
		{"1/18 question words in the answer", nil, []string{"question", "words", "in", "the", "answer"}},
		{"Home Computer", []string{"Home"}, []string{"Computer"}},
		{"n = 60", nil, []string{"n"}},
		{"12 s 与 s", nil, []string{"s"}}, // a unit only after a number
		{"零上下文 zero", nil, []string{"zero"}},
	}
	for _, c := range cases {
		if got := UnexpectedASCII(c.text, c.allow...); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}
