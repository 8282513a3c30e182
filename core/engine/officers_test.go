package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/ingest"
	"cubeworkbench/internal/testbook"
)

// officeRun writes a workbook of n questions with filled scores (two judges,
// the four dimensions, the rag answer between its bounds) whose retrieved
// column is headed retrievedHeader and holds list(i), reads it and runs it
// offline under the test profile with minQuestions.
func officeRun(t *testing.T, n int, retrievedHeader string, list func(i int) string, minQuestions int) *Result {
	t.Helper()
	b := testbook.New()
	guides := b.Sheet("guides", "doc_id", "title", "text")
	qa := b.Sheet("qa", "id", "question", "doc_id", "answer", retrievedHeader)
	scores := b.Sheet("scores", "id", "set", "judge", "dimension", "score")
	for i := range n {
		g := fmt.Sprintf("G%02d", i+1)
		guides.Row(g, "事项"+g, "事项"+g+"：持身份证办理。")
		id := fmt.Sprintf("q%02d", i+1)
		qa.Row(id, "事项"+g+"怎么办？", g, "答"+id, list(i))
		for _, judge := range []string{"A", "B"} {
			for _, dim := range fourDims {
				scores.Row(id, "zero", judge, dim, 2).Row(id, "rag", judge, dim, 5+i%3).Row(id, "full", judge, dim, 9)
			}
		}
	}
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "book.xlsx"))
	wb, rep, err := ingest.Open(context.Background(), path, ingest.Options{})
	if err != nil || rep.HasErrors() {
		t.Fatalf("open: %v %v", err, rep.Problems)
	}
	p := testProfile()
	p.Thresholds.MinQuestions = minQuestions
	res, err := Run(context.Background(), wb, Options{Profile: p, Store: openStore(t, ""), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func gold(i int) string { return fmt.Sprintf("G%02d", i+1) }

// 8. Retrieval that was not read (an unrecognised column, or lists naming
// no guide) gives Recall@k and CuBE null with the reason, never 0, and no
// advice to raise TOP-N.
func TestRecallNotReadIsNull(t *testing.T) {
	cases := map[string]struct {
		header string
		list   func(int) string
	}{
		"unrecognised column": {"检索结果", gold},
		"lists name no guide": {"检索文档", func(i int) string { return fmt.Sprintf("chunk-%d|chunk-%d", i, i+1) }},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			sum := officeRun(t, 12, c.header, c.list, 0).Summary
			if sum.Result == nil || sum.RecallAtK != nil || sum.Aggregate.Cube.Mean != nil || sum.Verdict.Code != "undetermined" {
				t.Fatalf("recall %v, cube %v, verdict %s", sum.RecallAtK, sum.Aggregate.Cube.Mean, sum.Verdict.Code)
			}
			if sum.RecallNA == nil || !strings.Contains(sum.RecallNA.EN, "n/a (not 0)") || !strings.Contains(sum.RecallNA.ZH, "不是 0") {
				t.Fatalf("reason = %+v", sum.RecallNA)
			}
			found := false
			for _, w := range sum.Warnings {
				found = found || w.Code == "retrieval_unread"
			}
			for _, r := range sum.Recommendations() {
				if r.Code == "recall_low" || strings.Contains(r.EN, "TOP-N") {
					t.Errorf("advice for retrieval never read: %s", r.EN)
				}
			}
			if !found {
				t.Errorf("no retrieval_unread warning among %+v", sum.Warnings)
			}
		})
	}
	// Read retrieval with misses is still a measured Recall@k.
	sum := officeRun(t, 12, "检索文档", func(i int) string {
		if i%2 == 0 {
			return gold(i)
		}
		return "G99"
	}, 0).Summary
	if sum.RecallAtK == nil || *sum.RecallAtK != 0.5 || sum.RecallNA != nil {
		t.Fatalf("read retrieval: recall %v, reason %+v", sum.RecallAtK, sum.RecallNA)
	}
}

// 5. Below the minimum number of questions the verdict is undetermined and
// says how many more are needed; at the minimum it is read from the score.
func TestTooFewQuestionsUndetermined(t *testing.T) {
	sum := officeRun(t, 2, "检索文档", gold, 30).Summary
	v := sum.Verdict
	if v.Code != "undetermined" || v.Cube != nil || sum.Aggregate.Cube.Mean == nil || len(v.Reasons) != 1 ||
		v.Text.ZH != "无法判定：问题太少，还需 28 个" || v.Text.EN != "Undetermined: too few questions, 28 more needed" ||
		!strings.Contains(v.Reasons[0].Detail.ZH, "还需 28 个") || !strings.Contains(v.Reasons[0].Detail.EN, "28 more are needed") {
		t.Fatalf("verdict = %+v", v)
	}
	sum = officeRun(t, 6, "检索文档", gold, 6).Summary
	if sum.Verdict.Code == "undetermined" || len(sum.Verdict.Reasons) != 0 {
		t.Fatalf("6 of 6 questions: %+v", sum.Verdict)
	}
}
