package report

import (
	"fmt"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/result"
)

// SheetComparison is the before/after comparison (Summary.Comparison).
const SheetComparison = "版本对比 Comparison"

// comparisonSheets names the comparison's sheet when the summary has one.
func (w *writer) comparisonSheets() []string {
	if w.s.Comparison == nil {
		return nil
	}
	return []string{SheetComparison}
}

// comparisonSteps writes the comparison's sheet and its bullet on Summary
// when the summary has one.
func (w *writer) comparisonSteps() []func() error {
	if w.s.Comparison == nil {
		return nil
	}
	return []func() error{w.comparisonSheet, w.comparisonBullet}
}

// verdictStyle maps a comparison verdict onto the Summary verdict colours.
func (w *writer) comparisonVerdictStyle(v string) int {
	switch v {
	case compare.VerdictBetter:
		return w.st.verdict[result.Deployable]
	case compare.VerdictWorse:
		return w.st.verdict[result.NotReady]
	case compare.VerdictNone:
		return w.st.verdict[result.NeedsWork]
	}
	return w.st.verdict[result.Undetermined]
}

// Rows of the Comparison sheet read by tests.
const (
	cmpRowVerdict  = 4
	cmpRowHeadline = 5
)

// comparisonSheet: the verdict, the warnings, the delta table with the
// paired intervals and the detectable difference, the per-question counts
// and the regressions worst first with both answers side by side.
func (w *writer) comparisonSheet() error {
	r := w.s.Comparison
	g := w.grid(SheetComparison)
	g.widths(24, 12, 12, 12, 12, 12, 14, 20, 48, 48)
	f := g.w.f
	g.at(1, 1, styled{w.t("Before and after: did "+w.sideB(r)+" really get better than "+w.sideA(r)+"?",
		"版本对比："+w.sideB(r)+" 是否真的比 "+w.sideA(r)+" 更好？"), w.st.title})
	g.err(f.MergeCell(g.name, "A1", "J1"))
	g.err(f.SetRowHeight(g.name, 1, 30))
	g.at(2, 1, styled{fmt.Sprintf(w.t("%s → %s · %d paired questions · every Δ is B − A · paired bootstrap, %d resamples, seed %d · per-question tolerance ±%.1f points",
		"%s → %s · %d 个配对问题 · Δ 均为 B − A · 配对自助法，重抽样 %d 次，种子 %d · 逐题容差 ±%.1f 分"),
		w.sideA(r), w.sideB(r), r.Paired, r.BootstrapB, r.Seed, r.Tolerance), w.st.subtitle})
	g.err(f.MergeCell(g.name, "A2", "J2"))
	v := compare.VerdictText(r.Verdict)
	g.at(cmpRowVerdict, 1, styled{w.t("Verdict: ", "结论：") + v.In(w.lang), w.comparisonVerdictStyle(r.Verdict)})
	g.err(f.MergeCell(g.name, fmt.Sprintf("A%d", cmpRowVerdict), fmt.Sprintf("J%d", cmpRowVerdict)))
	g.err(f.SetRowHeight(g.name, cmpRowVerdict, 48))
	g.wrap = true
	g.at(cmpRowHeadline, 1, r.Headline.In(w.lang))
	g.wrap = false
	g.err(f.MergeCell(g.name, fmt.Sprintf("A%d", cmpRowHeadline), fmt.Sprintf("J%d", cmpRowHeadline)))
	g.err(f.SetRowHeight(g.name, cmpRowHeadline, rowHeight(r.Headline.In(w.lang), 150)))
	g.row = cmpRowHeadline + 2

	if len(r.Warnings) > 0 {
		g.line(styled{w.t("Warnings", "警告"), w.st.title})
		for _, m := range r.Warnings {
			g.wrap = true
			row := g.line(styled{w.t("warning", "警告"), w.st.sevHigh}, m.In(w.lang))
			g.wrap = false
			g.err(f.MergeCell(g.name, fmt.Sprintf("B%d", row), fmt.Sprintf("J%d", row)))
			g.err(f.SetRowHeight(g.name, row, rowHeight(m.In(w.lang), 150)))
		}
		g.skip(1)
	}

	g.line(styled{w.t("Differences with their paired 95 % intervals", "差异及其配对 95% 区间"), w.st.title})
	g.header(w.t("Figure", "指标"), w.sideA(r), w.sideB(r), "Δ (B − A)", w.t("95 % low", "下限"), w.t("95 % high", "上限"),
		w.t("Detectable", "可检测差异"), w.t("Verdict", "结论"))
	for _, row := range compare.Rows(r, w.lang) {
		d := row.Delta
		var lo, hi *float64
		if d.CI95 != nil {
			lo, hi = &d.CI95[0], &d.CI95[1]
		}
		g.line(row.Label, d.A, d.B, d.Diff, lo, hi, d.Detectable, compare.VerdictText(d.Verdict).In(w.lang))
	}
	g.wrap = true
	note := g.line(styled{w.t("CuBE, the weighted total and the dimensions are points on 0–100; Recall@k and the CoFE pass rate are percentage points; MFSS is the total × 100. "+
		"Detectable: the smallest true difference these questions would show as significant four times in five.",
		"CuBE、加权总分与各维度为 0–100 分；召回率与 CoFE 正确率为百分点；MFSS 为总分 × 100。可检测差异：在这些问题上，真实差异至少这么大时，五次中有四次能被判为显著。"), w.st.note})
	g.wrap = false
	g.err(f.MergeCell(g.name, fmt.Sprintf("A%d", note), fmt.Sprintf("J%d", note)))
	g.err(f.SetRowHeight(g.name, note, 30))
	g.skip(1)

	g.line(styled{w.t("Questions", "逐题变化"), w.st.title})
	g.header(w.t("Better", "变好"), w.t("Worse", "变差"), w.t("About the same", "基本不变"), w.t("Not comparable", "无法比较"))
	g.line(r.Better, r.Worse, r.Same, r.NotComparable)
	g.skip(1)

	g.line(styled{w.t("Regressions, worst first", "回退的问题（最严重的在前）"), w.st.title})
	if len(r.Regressions) == 0 {
		g.line(styled{w.t("No question got worse beyond the tolerance.", "没有问题的得分下降超过容差。"), w.st.note})
		return g.first
	}
	g.header(w.t("ID", "编号"), w.t("Row in A", "A 中行号"), w.t("Row in B", "B 中行号"), "Δ", w.t("Question", "问题"), "", "", "",
		w.t("Answer of ", "回答：")+w.sideA(r), w.t("Answer of ", "回答：")+w.sideB(r))
	for _, ch := range r.Regressions {
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		g.wrap = true
		row := g.row
		g.line(ch.ID, rowOrNil(ch.RowA), rowOrNil(ch.RowB), ch.Diff, ch.Question)
		g.at(row, 9, ch.AnswerA, ch.AnswerB)
		g.wrap = false
		g.err(f.MergeCell(g.name, fmt.Sprintf("E%d", row), fmt.Sprintf("H%d", row)))
		g.err(f.SetRowHeight(g.name, row, max(rowHeight(ch.AnswerA, 48), rowHeight(ch.AnswerB, 48), rowHeight(ch.Question, 60))))
	}
	return g.first
}

func rowOrNil(r int) any {
	if r <= 0 {
		return nil
	}
	return r
}

// comparisonBullet is the comparison's one line on Summary, under the
// evaluation's own headline.
func (w *writer) comparisonBullet() error {
	r := w.s.Comparison
	g := w.grid(SheetSummary)
	row := rowHeadline + 1
	// Wrapped in its merged cells (the row is as tall as summary.go
	// measured): one unwrapped line ran off the printed page.
	g.wrap = true
	g.at(row, 1, w.t("Compared with ", "与 ")+w.sideA(r)+w.t("", " 比较"))
	g.at(row, 2, "• "+r.Headline.In(w.lang)+w.t(" (sheet ", "（见“")+SheetComparison+w.t(")", "”表）"))
	g.wrap = false
	g.err(w.f.MergeCell(g.name, fmt.Sprintf("B%d", row), fmt.Sprintf("H%d", row)))
	return g.first
}

// sideA and sideB name the compared sides in the report's language: the
// glossary's name of a set code (被测系统回答, not rag), the user's own else.
func (w *writer) sideA(r *compare.Result) string { a, _ := r.Names(); return w.t(a.EN, a.ZH) }
func (w *writer) sideB(r *compare.Result) string { _, b := r.Names(); return w.t(b.EN, b.ZH) }
