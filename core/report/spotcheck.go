package report

import (
	"fmt"
	"strings"

	"cubeworkbench/core/glossary"

	"cubeworkbench/core/humancheck"
)

// SheetSpotCheck holds the people's ratings beside the judges (人工抽检).
const SheetSpotCheck = "人工抽检 Spot check"

// hasSpotCheck says the summary carries ratings to set beside the judges.
func (w *writer) hasSpotCheck() bool {
	return w.s.Result != nil && w.s.SpotCheck != nil && w.s.SpotCheck.Ratings > 0
}

// spotCheckNotice is the Summary page's one line on the spot check.
func (w *writer) spotCheckNotice() []string {
	if !w.hasSpotCheck() {
		return nil
	}
	return []string{w.s.SpotCheck.SummaryLine().In(w.lang)}
}

// spotCheckSheet writes the Table-5-style comparison, the agreement of each
// judge with people per dimension, and the draw's design.
func (w *writer) spotCheckSheet() error { return w.writePage(w.spotCheckPage()) }

// spotCheckPage is the people's ratings beside the judges: the paper's Table 5, each judge's agreement with people, and the draw's design.
func (w *writer) spotCheckPage() *sheetPage {
	sc := w.s.SpotCheck
	g := w.newPage(SheetSpotCheck)
	// Long sentences stay on one line and run into the empty cells beside
	// them; the tables' figures get columns wide enough for "a [lo, hi]".
	g.widths(44, 22, 14, 24, 24, 24, 22, 22)
	g.title(w.say(spotHumanSpotCheck))
	g.line(sc.SummaryLine().In(w.lang))
	g.line(sc.TrustText.In(w.lang))
	g.line(styled{w.say(txtRaters), w.st.label}, strings.Join(sc.Raters, ", "))
	g.line(styled{w.say(txtRatingsUsed), w.st.label}, sc.Ratings)
	g.line(styled{w.say(spotRatingsIgnoredDimension), w.st.label}, sc.Ignored)
	g.line(styled{w.say(spotAgreementAmongPeople) + w.term(glossary.Krippendorff) + w.say(spotCloseParen), w.st.label}, sc.InterRaterAlpha)
	for _, n := range sc.Notes {
		g.line(n.In(w.lang)) // one line, running into the empty cells beside it
	}
	g.skip(1)
	g.block()
	w.spotTable(g, sc)
	g.skip(1)
	g.block()
	w.spotAgreement(g, sc)
	if sc.Design != nil {
		g.skip(1)
		g.block()
		g.label(w.say(spotDrawStrataSizes))
		g.headerN(2, w.say(spotStratum), w.say(txtQuestions), w.say(spotDrawn), w.say(spotInclusionProbability))
		for _, s := range sc.Design.Strata {
			var pi any = w.na()
			if s.Population > 0 {
				pi = float64(s.Drawn) / float64(s.Population)
			}
			g.line(w.stratumTitle(s.Name), s.Population, s.Drawn, pi)
		}
		g.line(styled{fmt.Sprintf(w.say(spotSeedEachDrawn), sc.Design.Seed), w.st.note})
	}
	return g
}

// spotTable is the paper's Table 5: per dimension the people's mean ± SD
// beside each judge's, on 0–100.
func (w *writer) spotTable(g *sheetPage, sc *humancheck.Result) {
	g.label(w.say(spotPeopleJudgesSide) + w.term(glossary.SetRAG) + w.say(spotMeanPMSD))
	head := []string{w.say(txtDimension), w.say(spotPeople)}
	head = append(head, w.judges...)
	g.header(head...)
	for _, row := range sc.Table {
		cells := []any{w.spotRowTitle(row.Key) + fmt.Sprintf(w.say(spotAnswers), row.Human.N), w.meanSD(row.Human)}
		for _, j := range w.judges {
			cells = append(cells, w.meanSD(row.Judges[j]))
		}
		g.line(cells...)
	}
}

func (w *writer) meanSD(m humancheck.MeanSD) string {
	if m.Mean == nil {
		return w.na()
	}
	if m.SD == nil {
		return fmt.Sprintf("%.2f", *m.Mean)
	}
	return fmt.Sprintf("%.2f ± %.2f", *m.Mean, *m.SD)
}

func (w *writer) spotAgreement(g *sheetPage, sc *humancheck.Result) {
	g.label(w.say(spotAgreementEachJudge))
	g.header(w.say(txtJudge), w.say(txtDimension), w.say(spotAnswerCount), w.term(glossary.Krippendorff), w.term(glossary.Spearman), w.say(spotMeanAbsoluteDifference))
	for _, a := range sc.Agreement {
		dim := w.say(spotAllDimensions)
		if a.Dimension != "" {
			dim = w.dimTitle(a.Dimension)
		}
		g.line(w.judgeName(a.Judge), dim, a.N, w.figure(a.Alpha), w.figure(a.Spearman), w.figure(a.MAD))
	}
}

func (w *writer) figure(f humancheck.Figure) string {
	if f.Value == nil {
		return w.na()
	}
	if f.CI95 == nil {
		return fmt.Sprintf("%.2f", *f.Value)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", *f.Value, f.CI95[0], f.CI95[1])
}

func (w *writer) spotRowTitle(key string) string {
	switch key {
	case humancheck.RowOverall:
		return w.say(spotAllDimensionsMean)
	case humancheck.RowNormalized:
		return w.term(glossary.BoundedScore) + w.say(spotDimensionsAveraged)
	case humancheck.RowCube:
		return w.term(glossary.CubeScore)
	}
	return w.dimTitle(key)
}

func (w *writer) stratumTitle(name string) string {
	switch name {
	case humancheck.StratumNotRetrieved:
		return w.term(glossary.NotRetrieved)
	case humancheck.StratumLow:
		return w.term(glossary.LowScore)
	case humancheck.StratumDisagreement:
		return w.term(glossary.JudgesDisagree)
	}
	return w.say(spotOther)
}
