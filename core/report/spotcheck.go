package report

import (
	"fmt"
	"strings"

	"cubeworkbench/core/glossary"

	"cubeworkbench/core/humancheck"
	"cubeworkbench/core/text"
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
	return []string{w.s.SpotCheck.SummaryLine().In(text.Lang(w.lang))}
}

// spotCheckSheet writes the Table-5-style comparison, the agreement of each
// judge with people per dimension, and the draw's design.
func (w *writer) spotCheckSheet() error {
	sc := w.s.SpotCheck
	g := w.grid(SheetSpotCheck)
	// Long sentences stay on one line and run into the empty cells beside
	// them; the tables' figures get columns wide enough for "a [lo, hi]".
	g.widths(44, 22, 14, 24, 24, 24, 22, 22)
	g.line(styled{w.t("Human spot check: people's ratings beside the judges'", "人工抽检：人工评分与评审模型评分对照"), w.st.title})
	g.line(sc.SummaryLine().In(text.Lang(w.lang)))
	g.line(sc.TrustText.In(text.Lang(w.lang)))
	g.line(styled{w.t("Raters", "评分人"), w.st.label}, strings.Join(sc.Raters, ", "))
	g.line(styled{w.t("Ratings used", "采用的评分条数"), w.st.label}, sc.Ratings)
	g.line(styled{w.t("Ratings ignored (dimension not evaluated, or outside 0–10)", "忽略的评分（未评估的维度或不在 0–10 之间）"), w.st.label}, sc.Ignored)
	g.line(styled{w.t("Agreement among the people (", "人工评分人之间的一致性（") + w.term(glossary.Krippendorff) + w.t(")", "）"), w.st.label}, sc.InterRaterAlpha)
	for _, n := range sc.Notes {
		g.line(n.In(text.Lang(w.lang))) // one line, running into the empty cells beside it
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
		g.line(styled{w.t("The draw (strata, sizes, inclusion probability)", "抽样设计（分层、规模、入样概率）"), w.st.label})
		g.headerN(2, w.t("Stratum", "层"), w.t("Questions", "问题数"), w.t("Drawn", "抽取数"), w.t("Inclusion probability", "入样概率"))
		for _, s := range sc.Design.Strata {
			var pi any = w.na()
			if s.Population > 0 {
				pi = float64(s.Drawn) / float64(s.Population)
			}
			g.line(w.stratumTitle(s.Name), s.Population, s.Drawn, pi)
		}
		g.line(styled{fmt.Sprintf(w.t("Seed %d. Each drawn question shows one answer (system, no-context or gold-guide) chosen at random; means weight each answer by 1/(inclusion probability).",
			"随机种子 %d。每个抽中的问题随机展示一个回答（系统回答、零上下文回答或满分回答）；均值按 1/入样概率 加权。"), sc.Design.Seed), w.st.note})
	}
	return g.first
}

// spotTable is the paper's Table 5: per dimension the people's mean ± SD
// beside each judge's, on 0–100.
func (w *writer) spotTable(g *grid, sc *humancheck.Result) {
	g.line(styled{w.t("People and judges side by side (0–100, ", "人工与评审模型评分对照（0–100 分，") + w.term(glossary.SetRAG) + w.t(", mean ± SD over the answers rated; Table 5 of the CuBE paper)", "，被评回答的均值 ± 标准差；CuBE 论文表 5 样式）"), w.st.label})
	head := []string{w.t("Dimension", "维度"), w.t("People", "人工")}
	head = append(head, w.judges...)
	g.header(head...)
	for _, row := range sc.Table {
		cells := []any{w.spotRowTitle(row.Key) + fmt.Sprintf(w.t(" (%d answers)", "（%d 个回答）"), row.Human.N), w.meanSD(row.Human)}
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

func (w *writer) spotAgreement(g *grid, sc *humancheck.Result) {
	g.line(styled{w.t("Agreement of each judge with people (0–10 scale, 95 % bootstrap intervals)", "各评审模型与人工评分的一致性（0–10 分制，95% 自助法区间）"), w.st.label})
	g.header(w.t("Judge", "评审模型"), w.t("Dimension", "维度"), w.t("Answers", "回答数"), w.term(glossary.Krippendorff), w.term(glossary.Spearman), w.t("Mean absolute difference", "平均绝对差"))
	for _, a := range sc.Agreement {
		dim := w.t("All dimensions", "全部维度")
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
		return w.t("All dimensions (mean)", "全部维度（均值）")
	case humancheck.RowNormalized:
		return w.term(glossary.BoundedScore) + w.t(", dimensions averaged", "，各维度平均")
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
	return w.t("Other", "其他")
}
