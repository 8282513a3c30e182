package report

import (
	"strings"
	"testing"

	"cubeworkbench/core/docmatch"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// The Method sheet shows what the run adapted and counted, how documents
// were matched, and what MFSS can and cannot tell; the Summary says loud
// why Recall@k is missing or not a measurement; an MFSS factor no answer
// measured reads n/a, not 0.
func TestMethodAdditionsAndLoudMapping(t *testing.T) {
	uninf := mfss.Flag{Factor: "conciseness", Reason: mfss.Text{EN: "Conciseness is 1 for 98 % of the answers.", ZH: "98 % 的回答简洁性都是 1。"}}
	cases := []struct {
		name        string
		edit        func(*Input)
		method      []string // on the Method sheet
		summary     []string // on the Summary sheet
		noSummary   []string // not on the Summary sheet
		mfssNA      bool
		mfssFactors bool
	}{
		{"everything", func(in *Input) {
			s := in.Summary
			s.Run.Attempts, s.Run.Replies, s.Run.Throttled = 1234, 1200, 17
			s.Run.Adaptations = []result.Adaptation{{Endpoint: "http://10.0.0.5:11434/v1", Param: "think", Text: text.New("Ollama 拒绝了 think 参数，之后的请求不再带它。", "Ollama refused think; requests go without it.")}}
			s.DocMapping = &docmatch.Report{Answers: 24, Retrieved: 40, Resolved: 8, Unmatched: []docmatch.Unresolved{{Name: "养老保险.pdf", Count: 30}}}
			s.MFSS.Uninformative = []mfss.Flag{uninf}
			s.MFSS.ZeroVectors = mfss.ZeroVectors{Texts: 2, Examples: []string{"S."}, Touched: map[string]map[string]int{"accuracy": {"rag": 1}}}
			f := s.MFSS.Systems["rag"]
			f.Missing = []string{"coherence"}
			s.MFSS.Systems["rag"] = f
		}, []string{"1234", "1200", "17", "Ollama refused think; requests go without it.", "10.0.0.5:11434", "养老保险.pdf", uninf.Reason.EN,
			"The embedder returned a zero vector for 2 texts", mfss.FactorNotes("en")[0].Measures},
			[]string{"Warning: most retrieved documents match no guide"}, nil, true, true},
		{"recall missing", func(in *Input) {
			in.Summary.RecallAtK = nil
			in.Summary.DocMapping = &docmatch.Report{Answers: 24, NoDocs: 24, WarningCounts: map[string]int{"no_reference": 24}}
		}, nil, []string{"guide recall@k cannot be computed (it is not 0)", "missing (not 0)"}, []string{"Guide recall@k is missing (not 0): no question"}, false, true},
		{"quiet mapping", func(in *Input) {
			in.Summary.DocMapping = &docmatch.Report{Answers: 24, Retrieved: 40, Resolved: 39}
		}, []string{"39 of 40 retrieved documents"}, nil, []string{"Document mapping"}, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, f, _ := writeFixture(t, "en", c.edit)
			text := func(sheet string) string {
				rows, err := f.GetRows(sheet)
				if err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				for _, r := range rows {
					b.WriteString(strings.Join(r, "\t") + "\n")
				}
				return b.String()
			}
			method, summary, ms := text(SheetMethod), text(SheetSummary), text(SheetMFSS)
			for _, v := range c.method {
				if !strings.Contains(method, v) {
					t.Errorf("Method lacks %q", v)
				}
			}
			for _, v := range c.summary {
				if !strings.Contains(summary, v) {
					t.Errorf("Summary lacks %q", v)
				}
			}
			for _, v := range c.noSummary {
				if strings.Contains(summary, v) {
					t.Errorf("Summary holds %q", v)
				}
			}
			for _, l := range strings.Split(ms, "\n") {
				if strings.HasPrefix(l, "rag\t") {
					if got := strings.Contains(l, "n/a"); got != c.mfssNA {
						t.Errorf("MFSS rag row %q: n/a %v, want %v", l, got, c.mfssNA)
					}
					break
				}
			}
		})
	}
}
