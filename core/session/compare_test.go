package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/engine"
	"cubeworkbench/internal/testbook"
)

// countBounds counts the zero and full judgements of a workbook.
func countBounds(wb *dataset.Workbook) int {
	n := 0
	for j := range wb.Scores.Values() {
		if j.Set == dataset.SetZero || j.Set == dataset.SetFull {
			n++
		}
	}
	return n
}

// Comparing the sample with an identical copy of itself through the
// session: Δ = 0 on every figure, "no detectable difference", the bounds
// shared, and the copy judged nothing anew for its bounds (they were lent).
func TestCompareSelf(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := testbook.Sample(t, dir)
	data, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(t.TempDir(), "copy.xlsx")
	if err := os.WriteFile(b, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var steps []engine.Event
	o := CompareOptions{EvalOptions: EvalOptions{Offline: true, Progress: engine.ProgressFunc(func(e engine.Event) {
		if e.Step == StepCompare {
			steps = append(steps, e)
		}
	})}}
	c, err := CompareWorkbooks(ctx, lexicalProfile(), CompareSide{Path: a}, CompareSide{Path: b}, o)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Result
	d := r.Aggregate.Cube
	if d.Diff == nil || *d.Diff != 0 || d.CI95 == nil || d.CI95[0] != 0 || d.CI95[1] != 0 || r.Verdict != compare.VerdictNone {
		t.Fatalf("self-compare: Δ %v CI %v verdict %s", d.Diff, d.CI95, r.Verdict)
	}
	if !r.SharedBounds || r.Paired != 60 || r.Better+r.Worse != 0 || len(r.Regressions) != 0 {
		t.Fatalf("shared %v paired %d better %d worse %d", r.SharedBounds, r.Paired, r.Better, r.Worse)
	}
	for name, x := range r.Aggregate.Normalized {
		if x.Diff == nil || *x.Diff != 0 {
			t.Errorf("Δ%s = %v", name, x.Diff)
		}
	}
	// The copy's evaluation judged its bounds only through what A lent:
	// the same number of bound judgements, none made by its own run (its
	// run store has no judgement of zero or full).
	if got, want := countBounds(c.B.Result().Workbook), countBounds(c.A.Result().Workbook); got != want {
		t.Errorf("bound judgements: B %d, A %d", got, want)
	}
	if c.A.Comparison() != r {
		t.Error("the comparison is not kept in A's summary")
	}
	if len(steps) == 0 || !steps[len(steps)-1].Finished || steps[len(steps)-1].Done != 3 {
		t.Errorf("compare steps %+v", steps)
	}
}

// rag against 系统B of the sample's one workbook: every question paired,
// the bounds shared and judged once (the B run makes no bound judgement),
// and the figures equal compare.Compare's of the same judgements.
func TestCompareSetsSample(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, testbook.Sample(t, t.TempDir()), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := OtherSystems(s.Workbook); len(got) != 1 || got[0] != "系统B" {
		t.Fatalf("other systems %v", got)
	}
	p := lexicalProfile()
	r, err := s.CompareSets(ctx, p, "", "", CompareOptions{EvalOptions: EvalOptions{Offline: true}})
	if err != nil {
		t.Fatal(err)
	}
	if r.SetA != dataset.SetRAG || r.SetB != "系统B" || r.Paired != 60 || !r.SharedBounds || r.NotComparable != 0 {
		t.Fatalf("sets %s/%s paired %d shared %v not comparable %d", r.SetA, r.SetB, r.Paired, r.SharedBounds, r.NotComparable)
	}
	d := r.Aggregate.Cube
	if d.Diff == nil || d.CI95 == nil || d.Detectable == nil || r.Verdict == compare.VerdictUndefined {
		t.Fatalf("ΔCuBE %+v", d)
	}
	if r.Better+r.Worse+r.Same+r.NotComparable != r.Paired {
		t.Errorf("better %d worse %d same %d of %d", r.Better, r.Worse, r.Same, r.Paired)
	}
	// Again on the same session: the same figures (the store and the
	// result answer everything; nothing is judged twice).
	r2, err := s.CompareSets(ctx, p, dataset.SetRAG, "系统B", CompareOptions{EvalOptions: EvalOptions{Offline: true}})
	if err != nil {
		t.Fatal(err)
	}
	if *r2.Aggregate.Cube.Diff != *d.Diff || *r2.Aggregate.Cube.CI95 != *d.CI95 {
		t.Errorf("second comparison %v %v, first %v %v", *r2.Aggregate.Cube.Diff, *r2.Aggregate.Cube.CI95, *d.Diff, *d.CI95)
	}
	if s.Comparison() != r2 {
		t.Error("the summary does not hold the last comparison")
	}
}

// Loud refusals: a SUMMARY.json side, a set the workbook lacks, the same
// set twice; and two workbooks whose question differs get their own bounds
// and a warning naming the id.
func TestCompareRefusesAndWarns(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := testbook.Sample(t, dir)
	if _, err := CompareWorkbooks(ctx, lexicalProfile(), CompareSide{Path: a}, CompareSide{Path: filepath.Join(dir, "SUMMARY.json")}, CompareOptions{}); !errors.Is(err, ErrSummaryOnly) {
		t.Errorf("summary side: %v", err)
	}
	s, err := Open(ctx, a, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sets := range [][2]string{{"rag", "系统C"}, {"rag", "rag"}, {"zero", "rag"}} {
		if _, err := s.CompareSets(ctx, lexicalProfile(), sets[0], sets[1], CompareOptions{EvalOptions: EvalOptions{Offline: true}}); err == nil || !strings.Contains(err.Error(), "/") {
			t.Errorf("sets %v: %v", sets, err)
		}
	}
	// B: the sample with one question reworded.
	other, err := Open(ctx, a, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	changed := other.Workbook.Items[0].ID
	other.Workbook.Items[0].Question += "（改）"
	bsess := New(filepath.Join(t.TempDir(), "b.xlsx"), other.Workbook, other.Report)
	if _, err := bsess.Evaluate(ctx, lexicalProfile(), EvalOptions{Offline: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Evaluate(ctx, lexicalProfile(), EvalOptions{Offline: true}); err != nil {
		t.Fatal(err)
	}
	lent := lendBounds(s.Result().Workbook, Clone(other.Workbook), lexicalProfile().Judges)
	if lent != len(other.Workbook.Items)-1 {
		t.Errorf("lent %d of %d (one question differs)", lent, len(other.Workbook.Items))
	}
	cfgA := s.Result().Workbook
	A, B := compare.Side{Name: "A", Items: cfgA.Items, Judgements: cfgA.Scores, Guides: cfgA.Guides, DocKey: guideKey(cfgA)},
		compare.Side{Name: "B", Items: bsess.Result().Workbook.Items, Judgements: bsess.Result().Workbook.Scores, Guides: cfgA.Guides, DocKey: guideKey(cfgA)}
	cfg, err := engine.CubeConfig(lexicalProfile(), cfgA)
	if err != nil {
		t.Fatal(err)
	}
	r, err := compare.Compare(A, B, compare.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if r.SharedBounds || len(r.BoundsDiffer) != 1 || r.BoundsDiffer[0] != changed {
		t.Errorf("shared %v differ %v (changed %s)", r.SharedBounds, r.BoundsDiffer, changed)
	}
}

// smallBook is eight questions with their bounds; reword changes the text
// of question q3, and answer changes every rag answer's wording.
func smallBook(t *testing.T, dir string, reword bool, answer string) string {
	b := testbook.New()
	guides := b.Sheet("guides", "doc_id", "title", "text")
	qa := b.Sheet("qa", "id", "question", "doc_id", "retrieved", "answer", "answer_zero", "answer_full")
	for i := 1; i <= 8; i++ {
		g := fmt.Sprintf("G%d", i)
		guides.Row(g, "事项"+g, fmt.Sprintf("事项%d：持身份证和户口簿到窗口办理，%d个工作日办结，不收费。", i, i+2))
		q := fmt.Sprintf("事项%d怎么办？", i)
		if reword && i == 3 {
			q = "事项3要带什么材料？"
		}
		qa.Row(fmt.Sprintf("q%d", i), q, g, g, fmt.Sprintf(answer, i+2), "请咨询有关部门。", fmt.Sprintf("持身份证和户口簿到窗口办理，%d个工作日办结，不收费。", i+2))
	}
	return b.WriteXLSX(t, filepath.Join(dir, "book.xlsx"))
}

// Two workbooks through the whole flow: B's answers are better on every
// question by construction, so ΔCuBE is positive with an interval above 0;
// when one question is reworded, the bounds are not shared, a warning
// names the question, and B's evaluation judged that question's bounds
// itself (the others were lent).
func TestCompareWorkbooksBoundsDiffer(t *testing.T) {
	ctx := context.Background()
	for _, reword := range []bool{false, true} {
		a := smallBook(t, t.TempDir(), false, "请咨询窗口（%d）。")
		b := smallBook(t, t.TempDir(), reword, "持身份证和户口簿到窗口办理，%d个工作日办结，不收费。")
		var mu sync.Mutex // the engine reports from its workers
		var msgs []string
		prog := engine.ProgressFunc(func(e engine.Event) {
			if e.Message != "" {
				mu.Lock()
				msgs = append(msgs, e.Message)
				mu.Unlock()
			}
		})
		c, err := CompareWorkbooks(ctx, lexicalProfile(), CompareSide{Path: a}, CompareSide{Path: b}, CompareOptions{EvalOptions: EvalOptions{Offline: true, Progress: prog}})
		if err != nil {
			t.Fatal(err)
		}
		r := c.Result
		lent := "8 questions are the same"
		if reword {
			lent = "7 questions are the same"
		}
		mu.Lock()
		all := strings.Join(msgs, "\n")
		mu.Unlock()
		if !strings.Contains(all, lent) {
			t.Errorf("reword %v: no %q in %q", reword, lent, msgs)
		}
		d := r.Aggregate.Cube
		if d.Diff == nil || *d.Diff <= 0 || d.CI95 == nil || d.CI95[0] <= 0 || r.Verdict != compare.VerdictBetter {
			t.Errorf("reword %v: ΔCuBE %v CI %v verdict %s", reword, d.Diff, d.CI95, r.Verdict)
		}
		differ := false
		for _, w := range r.Warnings {
			differ = differ || w.Code == compare.CodeBoundsDiffer && strings.Contains(w.EN, "q3")
		}
		if r.SharedBounds == reword || differ != reword || (len(r.BoundsDiffer) == 1) != reword {
			t.Errorf("reword %v: shared %v, differ %v, warning %v", reword, r.SharedBounds, r.BoundsDiffer, differ)
		}
	}
}
