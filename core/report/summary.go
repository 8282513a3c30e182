package report

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/dimension"
)

// summaryRows are where the headline figures sit on the Summary sheet, for
// the tests and for anyone linking to them.
const (
	rowVerdict  = 4
	rowCube     = 8 // B: mean C_J
	rowCubeSD   = 9
	rowCubeLo   = 10
	rowCubeHi   = 11
	rowRecall   = 12
	rowEffect   = 13
	rowItems    = 14
	rowHeadline = 18
)

func (w *writer) summarySheet() error {
	g := w.grid(SheetSummary)
	g.widths(30, 14, 14, 14, 12, 12, 64, 3)
	f, s := w.f, w.s
	last := "H"
	g.at(1, 1, styled{w.t("CuBE evaluation report — can the RAG assistant be deployed?", "CuBE 评估报告 —— 智能问答系统能否上线？"), w.st.title})
	g.err(f.MergeCell(g.name, "A1", last+"1"))
	g.err(f.SetRowHeight(g.name, 1, 30))
	var sub []string
	if s.Run.Workbook != "" {
		sub = append(sub, w.t("workbook ", "数据 ")+filepath.Base(s.Run.Workbook))
	}
	if !s.Run.Finished.IsZero() {
		sub = append(sub, w.t("finished ", "完成于 ")+s.Run.Finished.Format("2006-01-02 15:04"))
	}
	if s.ToolVersion != "" {
		sub = append(sub, "CuBE Workbench "+s.ToolVersion)
	}
	g.at(2, 1, styled{strings.Join(sub, " · "), w.st.subtitle})
	g.err(f.MergeCell(g.name, "A2", last+"2"))

	// The verdict, big and coloured.
	v := s.Verdict
	code := v.Code
	if _, ok := w.st.verdict[code]; !ok {
		code = "undetermined"
	}
	text := v.EN
	if w.lang == "zh" {
		text = v.ZH
	}
	if text == "" {
		text = w.t("Undetermined", "无法判定")
	}
	g.at(rowVerdict, 1, styled{w.t("Verdict: ", "结论：") + text, w.st.verdict[code]})
	g.err(f.MergeCell(g.name, fmt.Sprintf("A%d", rowVerdict), fmt.Sprintf("%s%d", last, rowVerdict)))
	g.err(f.SetRowHeight(g.name, rowVerdict, 48))
	g.at(rowVerdict+1, 1, styled{w.verdictRule(), w.st.note})
	g.err(f.MergeCell(g.name, fmt.Sprintf("A%d", rowVerdict+1), fmt.Sprintf("%s%d", last, rowVerdict+1)))

	// The headline figures (the LTA line of SUMMARY.json).
	g.row = rowCube - 1
	g.header(w.t("Figure", "指标"), w.t("Value", "数值"), "", "", "", "", w.t("What it means", "含义"))
	var agg cube.Aggregate
	var recall *float64
	topN, items, retrieved, unknownGold, nJudges := w.in.Profile.TopN, 0, 0, 0, 0
	subsetAll := false
	if s.Result != nil {
		agg, recall, topN, items, retrieved, unknownGold, nJudges = s.Aggregate, s.RecallAtK, s.TopN, s.Items, s.Retrieved, s.UnknownGold, len(s.Judges)
		subsetAll = s.Subset == cube.SubsetAll
	}
	var lo, hi *float64
	if agg.CubeCI95 != nil {
		lo, hi = &agg.CubeCI95[0], &agg.CubeCI95[1]
	}
	eff := agg.Normalized[cube.Weighted].Mean
	effName := w.t("Effectiveness on retrieved cases", "检索命中时的有效性")
	if subsetAll {
		effName = w.t("Effectiveness on all cases", "全部案例的有效性")
	}
	g.line(w.t("CuBE score (mean across judges)", "CuBE 分数（各评审均值）"), agg.Cube.Mean, nil, nil, nil, nil,
		styled{w.t("0–100: where the system sits between the bare model (0) and the model given the right document (100), times Recall@k.",
			"0–100：系统介于“无检索的裸模型”(0) 与“给定正确文档的模型”(100) 之间的位置，再乘以召回率。"), w.st.note})
	g.line(w.t("Standard deviation across judges", "评审间标准差"), agg.Cube.SD, nil, nil, nil, nil,
		styled{fmt.Sprintf(w.t("sample SD over %d judges with a score", "基于 %d 个有分数的评审模型的样本标准差"), agg.Cube.N), w.st.note})
	g.line(w.t("95 % interval, low", "95% 置信区间下限"), lo, nil, nil, nil, nil, styled{w.t("bootstrap over items", "对问题做 bootstrap"), w.st.note})
	g.line(w.t("95 % interval, high", "95% 置信区间上限"), hi)
	g.line(fmt.Sprintf(w.t("Recall@%d", "召回率@%d"), topN), pct{recall}, nil, nil, nil, nil,
		styled{fmt.Sprintf(w.t("%d of %d items with a known gold document found it in the top %d (%d without one)",
			"%d / %d 个已知标准文档的问题在前 %d 个检索结果中找到了它（另有 %d 个问题无标准文档）"), retrieved, items-unknownGold, topN, unknownGold), w.st.note})
	g.line(effName, eff, nil, nil, nil, nil, styled{w.t("mean normalised weighted score N_J across judges (0–100)", "各评审加权归一化得分 N_J 的均值（0–100）"), w.st.note})
	g.line(w.t("Items", "问题数"), items)
	g.line(w.t("Judges", "评审模型数"), nJudges)
	g.line(w.t("Unscorable judgements", "无法评分的判断"), s.Run.Unscorable)
	for r := rowCube; r < rowHeadline; r++ {
		v, _ := f.GetCellValue(g.name, fmt.Sprintf("G%d", r))
		g.err(f.SetRowHeight(g.name, r, rowHeight(v, 60)))
	}
	g.at(rowHeadline, 1, styled{w.t("In one line", "一句话"), w.st.label})
	if s.Result != nil {
		g.at(rowHeadline, 2, styled{s.Headline(w.lang), w.st.label})
	}
	g.err(f.MergeCell(g.name, fmt.Sprintf("B%d", rowHeadline), fmt.Sprintf("%s%d", last, rowHeadline)))
	g.row = rowHeadline + 2

	// Recommendations.
	g.line(styled{w.t("Recommendations", "改进建议"), w.st.title})
	if s.Result == nil || len(s.Recommendations) == 0 {
		g.line(styled{w.t("No rule fired: nothing to recommend.", "未触发任何规则，暂无建议。"), w.st.note})
	} else {
		g.header(w.t("Severity", "优先级"), w.t("Recommendation", "建议"))
		for _, r := range s.Recommendations {
			sev, st := r.Severity, w.st.sevLow
			switch r.Severity {
			case "high":
				sev, st = w.t("high", "高"), w.st.sevHigh
			case "medium":
				sev, st = w.t("medium", "中"), w.st.sevMedium
			case "low":
				sev = w.t("low", "低")
			}
			msg := r.EN
			if w.lang == "zh" {
				msg = r.ZH
			}
			g.wrap = true
			row := g.line(styled{sev, st}, msg)
			g.wrap = false
			g.err(f.MergeCell(g.name, fmt.Sprintf("B%d", row), fmt.Sprintf("%s%d", last, row)))
			g.err(f.SetRowHeight(g.name, row, rowHeight(msg, 95)))
		}
	}
	g.skip(1)

	if s.Result == nil || len(s.Judges) == 0 {
		return g.first
	}
	// CuBE per judge: the chart's data, error bars as plus/minus columns.
	g.line(styled{w.t("CuBE per judge", "各评审模型的 CuBE 分数"), w.st.title})
	g.header(w.t("Judge", "评审模型"), "CuBE", w.t("95 % low", "下限"), w.t("95 % high", "上限"),
		w.t("+ error", "+ 误差"), w.t("− error", "− 误差"), w.t("Note", "说明"))
	first := g.row
	for _, j := range s.Judges {
		var plus, minus *float64
		if j.Cube != nil && j.CubeCI95 != nil {
			p, m := j.CubeCI95[1]-*j.Cube, *j.Cube-j.CubeCI95[0]
			plus, minus = &p, &m
		}
		var clo, chi *float64
		if j.CubeCI95 != nil {
			clo, chi = &j.CubeCI95[0], &j.CubeCI95[1]
		}
		note := ""
		if j.Cube == nil {
			note = w.t("n/a: ", "不适用：") + w.flags(j.Flags)
		}
		// Undefined values stay blank here so the chart shows no bar
		// rather than a zero one; the note says why.
		g.line(j.Judge, blankNil(j.Cube), blankNil(clo), blankNil(chi), blankNil(plus), blankNil(minus), styled{note, w.st.note})
	}
	cubeFirst, cubeLast := first, g.row-1
	g.skip(1)
	// The three sets per dimension, averaged over judges.
	g.line(styled{w.t("Trimmed means per answer set (mean across judges, 0–10)", "各答案集截尾均值（各评审均值，0–10 分）"), w.st.title})
	g.header(w.t("Dimension", "维度"), w.t("zero (no context)", "zero（无检索）"), w.t("rag (system)", "rag（被测系统）"), w.t("full (gold doc)", "full（标准文档）"))
	first = g.row
	for _, d := range append(append([]string{}, w.dims...), cube.Weighted) {
		cells := []any{w.dimTitle(d)}
		for _, set := range []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull} {
			var vals []*float64
			for _, j := range s.Judges {
				vals = append(vals, j.TrimmedMeans[set][d])
			}
			cells = append(cells, blankNil(meanDefined(vals)))
		}
		g.line(cells...)
	}
	lastRow := g.row - 1
	chartRow := g.row + 1
	w.charts++
	err := f.AddChart(g.name, fmt.Sprintf("A%d", chartRow), &excelize.Chart{
		Type:       excelize.Col,
		Series:     []excelize.ChartSeries{{Name: "CuBE", Categories: ref(g.name, 1, cubeFirst, 1, cubeLast), Values: ref(g.name, 2, cubeFirst, 2, cubeLast), Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"4472C4"}}}},
		Title:      chartTitle(w.t("CuBE score per judge (bars: 95 % interval)", "各评审模型的 CuBE 分数（误差线：95% 置信区间）")),
		Legend:     excelize.ChartLegend{Position: "none"},
		XAxis:      excelize.ChartAxis{Title: chartTitle(w.t("Judge", "评审模型"))},
		YAxis:      excelize.ChartAxis{Title: chartTitle("CuBE (0–100)"), MajorGridLines: true, Minimum: float(0)},
		PlotArea:   excelize.ChartPlotArea{ShowVal: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0.0"}},
		VaryColors: boolp(false),
		Dimension:  excelize.ChartDimension{Width: 520, Height: 320},
	})
	if err != nil {
		return fmt.Errorf("report: CuBE chart: %w", err)
	}
	w.errBars = append(w.errBars, errBars{chart: w.charts, plus: ref(g.name, 5, cubeFirst, 5, cubeLast), minus: ref(g.name, 6, cubeFirst, 6, cubeLast)})

	var series []excelize.ChartSeries
	colors := []string{"A5A5A5", "4472C4", "70AD47"}
	for k := range 3 {
		series = append(series, excelize.ChartSeries{Name: fmt.Sprintf("'%s'!$%s$%d", g.name, colName(2+k), first-1),
			Categories: ref(g.name, 1, first, 1, lastRow), Values: ref(g.name, 2+k, first, 2+k, lastRow),
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{colors[k]}}})
	}
	w.charts++
	err = f.AddChart(g.name, fmt.Sprintf("E%d", chartRow), &excelize.Chart{
		Type:       excelize.Col,
		Series:     series,
		Title:      chartTitle(w.t("Where the system sits between its bounds", "被测系统在上下界之间的位置")),
		Legend:     excelize.ChartLegend{Position: "bottom"},
		XAxis:      excelize.ChartAxis{Title: chartTitle(w.t("Dimension", "维度"))},
		YAxis:      excelize.ChartAxis{Title: chartTitle(w.t("Trimmed mean (0–10)", "截尾均值（0–10）")), MajorGridLines: true, Minimum: float(0), Maximum: float(10)},
		VaryColors: boolp(false),
		Dimension:  excelize.ChartDimension{Width: 520, Height: 320},
	})
	if err != nil {
		return fmt.Errorf("report: bounds chart: %w", err)
	}
	return g.first
}

// verdictRule says which threshold the verdict was read against.
func (w *writer) verdictRule() string {
	v := w.s.Verdict
	c := w.na()
	if v.Cube != nil {
		c = fmt.Sprintf("%.2f", *v.Cube)
	}
	return fmt.Sprintf(w.t("CuBE %s · deployable at ≥ %g, needs work at ≥ %g, not ready below (thresholds of the evaluation profile)",
		"CuBE %s · ≥ %g 可以部署，≥ %g 需改进，低于则尚不具备条件（阈值来自评估配置）"), c, v.Deployable, v.NeedsWork)
}

// flags renders a judge's flags in the report language.
func (w *writer) flags(fl []string) string {
	out := make([]string, len(fl))
	for i, x := range fl {
		out[i] = cube.FlagText(x, w.lang)
	}
	return strings.Join(out, w.t("; ", "；"))
}

// dimTitle names a built-in dimension (core/dimension) or the weighted
// total in the report language; other dimensions show as written.
func (w *writer) dimTitle(d string) string {
	if d == cube.Weighted {
		return w.t("Weighted", "加权")
	}
	if x, ok := dimension.Lookup(d); ok {
		return w.t(x.TitleEN, x.TitleZH)
	}
	return d
}

func meanDefined(vals []*float64) *float64 {
	var sum float64
	n := 0
	for _, v := range vals {
		if v != nil {
			sum += *v
			n++
		}
	}
	if n == 0 {
		return nil
	}
	m := sum / float64(n)
	return &m
}

// blankNil writes an undefined number as an empty cell (chart data).
func blankNil(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func chartTitle(s string) excelize.ChartTitle {
	return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s}}}
}

func float(v float64) *float64 { return &v }
func boolp(b bool) *bool       { return &b }

// rowHeight estimates the height in points a wrapped text needs in a cell
// about width characters wide (a Han character counts two).
func rowHeight(s string, width int) float64 {
	units := 0
	lines := 1
	for _, r := range s {
		switch {
		case r == '\n':
			lines++
			units = 0
			continue
		case r > 0x2E80:
			units += 2
		default:
			units++
		}
		if units >= width {
			lines++
			units = 0
		}
	}
	return float64(min(lines, 20))*15 + 3
}
