package report

import (
	"fmt"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
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
	p, err := w.comparisonPage()
	if err != nil {
		return err
	}
	return w.writePage(p)
}

// comparisonPage is the comparison sheet's model; building it stops when
// the report is cancelled (the regressions may be many).
func (w *writer) comparisonPage() (*sheetPage, error) {
	r := w.s.Comparison
	g := w.newPage(SheetComparison, 24, 12, 12, 12, 12, 12, 14, 20, 48, 48)
	g.at(1, 1, styled{fmt.Sprintf(w.say(compareBeforeAfter), w.sideB(r), w.sideA(r)), w.st.title})
	g.merge(1, "A", "J")
	g.height(1, 30)
	g.at(2, 1, styled{fmt.Sprintf(w.say(comparePairedQuestionsEvery),
		w.sideA(r), w.sideB(r), r.Paired, r.BootstrapB, r.Seed, r.Tolerance), w.st.subtitle})
	g.merge(2, "A", "J")
	v := compare.VerdictText(r.Verdict)
	g.at(cmpRowVerdict, 1, styled{w.say(glossaryName(glossary.Verdict)) + w.say(txtColon) + v.In(w.lang), w.comparisonVerdictStyle(r.Verdict)})
	g.merge(cmpRowVerdict, "A", "J")
	g.height(cmpRowVerdict, 48)
	g.wrap = true
	g.at(cmpRowHeadline, 1, r.Headline.In(w.lang))
	g.wrap = false
	g.merge(cmpRowHeadline, "A", "J")
	g.height(cmpRowHeadline, rowHeight(r.Headline.In(w.lang), 150))
	g.row = cmpRowHeadline + 2
	w.comparisonWarnings(g, r)
	w.comparisonDeltas(g, r)
	g.title(w.say(compareQuestions))
	g.header(w.say(compareBetter), w.say(compareWorse), w.say(compareAboutSame), w.say(compareNotComparable))
	g.line(r.Better, r.Worse, r.Same, r.NotComparable)
	g.skip(1)
	if err := w.comparisonRegressions(g, r); err != nil {
		return nil, err
	}
	return g, nil
}

// comparisonWarnings are what the comparison warns of, when anything.
func (w *writer) comparisonWarnings(g *sheetPage, r *compare.Result) {
	if len(r.Warnings) > 0 {
		g.title(w.say(compareWarnings))
		for _, m := range r.Warnings {
			g.wrap = true
			row := g.line(styled{w.say(compareWarning), w.st.sevHigh}, m.In(w.lang))
			g.wrap = false
			g.merge(row, "B", "J")
			g.height(row, rowHeight(m.In(w.lang), 150))
		}
		g.skip(1)
	}
}

// comparisonDeltas is the difference of every figure with its paired
// interval, the detectable difference and its verdict.
func (w *writer) comparisonDeltas(g *sheetPage, r *compare.Result) {
	g.title(w.say(compareDifferencesTheirPaired))
	g.header(w.say(compareFigure), w.sideA(r), w.sideB(r), "Δ (B − A)", w.say(compareLow95), w.say(compareHigh95),
		w.say(compareDetectable), w.say(compareVerdict))
	for _, row := range compare.Rows(r, w.lang) {
		d := row.Delta
		var lo, hi *float64
		if d.CI95 != nil {
			lo, hi = &d.CI95[0], &d.CI95[1]
		}
		g.line(row.Label, d.A, d.B, d.Diff, lo, hi, d.Detectable, compare.VerdictText(d.Verdict).In(w.lang))
	}
	g.wrap = true
	note := g.line(styled{w.say(compareUnitsNote), w.st.note})
	g.wrap = false
	g.merge(note, "A", "J")
	g.height(note, 30)
	g.skip(1)
}

// comparisonRegressions are the questions that got worse, worst first,
// with both answers; it stops when the report is cancelled.
func (w *writer) comparisonRegressions(g *sheetPage, r *compare.Result) error {
	g.title(w.say(compareRegressionsWorstFirst))
	if len(r.Regressions) == 0 {
		g.line(styled{w.say(compareNoQuestionGot), w.st.note})
		return nil
	}
	g.header(w.say(compareID), w.say(compareRow), w.say(compareRowB), "Δ", w.say(txtQuestion), "", "", "",
		w.say(compareAnswer)+w.sideA(r), w.say(compareAnswer)+w.sideB(r))
	for _, ch := range r.Regressions {
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		g.wrap = true
		row := g.row
		g.line(ch.ID, rowOrNil(ch.RowA), rowOrNil(ch.RowB), ch.Diff, ch.Question)
		g.at(row, 9, ch.AnswerA, ch.AnswerB)
		g.wrap = false
		g.merge(row, "E", "H")
		g.height(row, max(rowHeight(ch.AnswerA, 48), rowHeight(ch.AnswerB, 48), rowHeight(ch.Question, 60)))
	}
	return nil
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
	g := w.newPage(SheetSummary)
	row := rowHeadline + 1
	// Wrapped in its merged cells (the row is as tall as summary.go
	// measured): one unwrapped line ran off the printed page.
	g.wrap = true
	g.at(row, 1, fmt.Sprintf(w.say(txtComparedWith), w.sideA(r)))
	g.at(row, 2, "• "+r.Headline.In(w.lang)+w.say(txtSheet)+SheetComparison+w.say(compareCloseSheet))
	g.wrap = false
	g.merge(row, "B", "H")
	return w.writePage(g) // onto the Summary already written
}

// sideA and sideB name the compared sides in the report's language: the
// glossary's name of a set code (被测系统回答, not rag), the user's own else.
func (w *writer) sideA(r *compare.Result) string {
	a, _ := r.Names()
	return w.say(text.New(a.ZH, a.EN))
}
func (w *writer) sideB(r *compare.Result) string {
	_, b := r.Names()
	return w.say(text.New(b.ZH, b.EN))
}
