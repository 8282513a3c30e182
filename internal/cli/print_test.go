package cli

import (
	"strings"
	"testing"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/docmatch"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/explain"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// What evaluate prints beside the tables: the document-mapping report after
// the headline, MFSS factors no answer measured as n/a with MFSS's flags,
// and a run line with what the servers saw and what they refused.
func TestPrintMappingFlagsAndRunLine(t *testing.T) {
	recall := 0.5
	sum := &result.Summary{
		Result: &cube.Result{TopN: 8, RecallAtK: &recall},
		DocMapping: &docmatch.Report{Answers: 2, Retrieved: 4, Resolved: 1, ByMethod: map[docmatch.Method]int{docmatch.ByID: 1},
			Unmatched: []docmatch.Unresolved{{ID: "3f2a", Name: "scan_0001.pdf", Count: 3}}},
		MFSS: &mfss.Result{Embedder: "offline-hash",
			Systems:       map[string]mfss.Factors{"rag": {Accuracy: 0.5, Coherence: 0, Missing: []string{"coherence"}, Total: 0.6}},
			Uninformative: []mfss.Flag{{Factor: "conciseness", Reason: mfss.Text{EN: "conciseness: every answer scores 1", ZH: "简洁性：所有回答均得 1 分"}}}},
		Run: result.RunInfo{ID: 7, Calls: 10, Attempts: 13, Replies: 12, Throttled: 2, Cached: 5,
			Adaptations: []result.Adaptation{{Endpoint: "gpt5", Param: "temperature", Text: text.New("不再指定温度", "sent without temperature")}}},
	}
	res := &engine.Result{Workbook: &dataset.Workbook{}, Summary: sum}
	cases := []struct {
		lang text.Lang
		want []string
	}{
		{"en", []string{"Warning: most retrieved documents match no guide", "scan_0001.pdf / 3f2a (3×)", "n/a",
			"! conciseness: every answer scores 1", "Run 7: 10 calls (13 HTTP attempts, 12 replies, 2 throttled), 5 from the store", "gpt5 (temperature): sent without temperature"}},
		{"zh", []string{"警告：大多数检索到的文档对应不到办事指南", "未对应：scan_0001.pdf / 3f2a（3 次）", "n/a",
			"! 简洁性：所有回答均得 1 分", "运行 7：调用 10 次（HTTP 请求 13 次，收到回复 12 次，限流 2 次）", "gpt5 (temperature): 不再指定温度"}},
	}
	for _, c := range cases {
		var b strings.Builder
		printResults(&b, res, c.lang)
		runLine(&b, sum.Run, c.lang)
		out := b.String()
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s output lacks %q:\n%s", c.lang, w, out)
			}
		}
		if head, mapping := strings.Index(out, "CuBE"), strings.Index(out, "scan_0001"); head < 0 || mapping < head {
			t.Errorf("%s: the mapping report is not after the headline:\n%s", c.lang, out)
		}
	}
}

// A judge's flags and the why of the verdict are in the reader's language:
// the Chinese table never shows a flag's English id ("relevance: outside
// bounds", "weights: equal fallback"), and the bounds finding names the
// judge and the answer sets as the glossary does (词汇基线评审, 标准指南回答),
// never "lexical", "full 组" or "zero 组".
func TestChineseFlagsAndBoundsFindingHaveNoIDs(t *testing.T) {
	recall := 0.8
	flags := []string{"weights: equal fallback", "relevance: outside bounds", "weighted: outside bounds"}
	sum := &result.Summary{Result: &cube.Result{TopN: 8, RecallAtK: &recall, Dimensions: []string{"relevance"},
		Judges:   []cube.JudgeResult{{Judge: "lexical", Flags: flags, Qualified: true}},
		Findings: []cube.Finding{{Rule: cube.RuleBounds, Evidence: cube.Evidence{Judge: "lexical", Flags: flags}}}}}
	e := explain.Explain(explain.Input{Result: sum.Result})
	sum.Explanation = &e
	res := &engine.Result{Workbook: &dataset.Workbook{}, Summary: sum}
	var b strings.Builder
	printResults(&b, res, text.ZH)
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "!") || strings.Contains(l, "上下界") {
			if bad := glossary.UnexpectedASCII(l); len(bad) > 0 {
				t.Errorf("Chinese line with English ids %q: %q", bad, l)
			}
		}
	}
	if !strings.Contains(out, "词汇基线评审") {
		t.Errorf("the judge is not named by the glossary:\n%s", out)
	}
}
