package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/figures"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// judgeSheetNames gives each judge a sheet name Excel accepts: no
// : \ / ? * [ ], at most 31 characters, unique ignoring case.
func (w *writer) judgeSheetNames() []string {
	taken := map[string]bool{}
	for _, n := range []string{SheetSummary, SheetMethod, SheetJudges, SheetItems, SheetCorrelations, SheetHuman, SheetMFSS,
		SheetCoFE, SheetProblems, SheetGuides, SheetQA, SheetScores, SheetRatings} {
		taken[strings.ToLower(n)] = true
	}
	var out []string
	for _, j := range w.judges {
		base := sheetSafe(w.t("Judge ", "评审 ") + j)
		name := base
		for k := 2; taken[strings.ToLower(name)]; k++ {
			suffix := fmt.Sprintf(" (%d)", k)
			name = truncRunes(base, 31-len(suffix)) + suffix
		}
		taken[strings.ToLower(name)] = true
		out = append(out, name)
	}
	return out
}

func sheetSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ':', '\\', '/', '?', '*', '[', ']', '\'':
			return '_'
		}
		if r < 0x20 {
			return ' '
		}
		return r
	}, s)
	return truncRunes(strings.TrimSpace(s), 31)
}

func truncRunes(s string, n int) string {
	// Excel counts UTF-16 units; a rune outside the BMP counts two.
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

var sets = []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull}

func (w *writer) setName(set string) string {
	switch set {
	case dataset.SetZero:
		return w.t("zero (no context)", "zero（无检索）")
	case dataset.SetRAG:
		return w.t("rag (system)", "rag（被测系统）")
	case dataset.SetFull:
		return w.t("full (gold doc)", "full（标准文档）")
	}
	return set
}

// perJudgeSheets write the paper's Tables 2–4 for each judge.
func (w *writer) perJudgeSheets(names []string) error {
	if w.s.Result == nil {
		return nil
	}
	for i, j := range w.s.Judges {
		if err := w.judgeSheet(names[i], j); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) judgeSheet(name string, j cube.JudgeResult) error {
	g := w.grid(name)
	g.widths(26, 14, 14, 14, 14, 14, 14, 14)
	cols := append(append([]string{}, w.dims...), cube.Weighted)
	titles := make([]string, len(cols))
	for i, d := range cols {
		titles[i] = w.dimTitle(d)
	}
	g.block()
	g.line(styled{fmt.Sprintf(w.t("Judge %s — detailed results (CuBE paper, Tables 2–4)", "评审模型 %s 的详细结果（对应 CuBE 方法论文中的表 2–4）"), w.judgeName(j.Judge)), w.st.title})
	g.skip(1)
	w.qualificationBlock(g, j)

	g.block()
	g.line(styled{fmt.Sprintf(w.t("Trimmed means of the three answer sets on the analysis subset (%.0f %% cut at each end)", "三组答案在分析子集上的截尾均值（两端各去掉 %.0f %%）"), 100*w.s.Trim), w.st.label})
	head := g.headerN(2, append([]string{w.t("Answer set", "答案组")}, titles...)...)
	first := g.row
	for _, set := range sets {
		cells := []any{w.setName(set)}
		for _, d := range cols {
			cells = append(cells, j.TrimmedMeans[set][d])
		}
		g.line(cells...)
	}
	last := g.row - 1
	nCells := []any{w.t("Items in the subset", "子集问题数")}
	for _, d := range w.dims {
		nCells = append(nCells, j.SubsetN[d])
	}
	g.line(nCells...)
	g.skip(1)

	g.block()
	g.line(styled{w.t("Dimension weights and the correlations they come from", "维度权重及其来源的相关系数"), w.st.label})
	g.headerN(2, append([]string{w.t("Source", "来源")}, titles[:len(w.dims)]...)...)
	wc := []any{w.weightSource(j.WeightSource)}
	for _, d := range w.dims {
		if v, ok := j.Weights[d]; ok {
			wc = append(wc, v)
		} else {
			wc = append(wc, (*float64)(nil))
		}
	}
	g.line(wc...)
	if j.WeightNote != nil {
		g.line(styled{j.WeightNote.In(text.Lang(w.lang)), w.st.note})
	}
	cc := []any{w.t("r (all cases)", "r（全部案例）")}
	cr := []any{w.t("r (retrieved cases)", "r（检索命中案例）")}
	for _, d := range w.dims {
		cc = append(cc, j.CorrelationAll[d])
		cr = append(cr, j.CorrelationRetrieved[d])
	}
	g.line(cc...)
	g.line(cr...)
	g.skip(1)

	g.block()
	g.line(styled{w.t("Bounded scores, 100 × (system − no-context) / (gold-guide − no-context), and the CuBE score", "上下界归一化得分 = 100 ×（被测系统 − 零上下文）/（标准指南 − 零上下文），以及 CuBE 得分"), w.st.label})
	g.headerN(2, append([]string{""}, titles...)...)
	nc := []any{w.t("Bounded score (0–100)", "上下界归一化得分（0–100）")}
	for _, d := range cols {
		nc = append(nc, j.Normalized[d])
	}
	g.line(nc...)
	g.line(styled{glossary.GuideRecallAt(w.s.TopN, text.Lang(w.lang)), w.st.label}, pct{w.s.RecallAtK})
	g.line(styled{w.t("CuBE score = weighted bounded score × guide recall", "CuBE 得分 = 加权上下界归一化得分 × 指南召回率"), w.st.label}, j.Cube)
	var lo, hi *float64
	if j.CubeCI95 != nil {
		lo, hi = &j.CubeCI95[0], &j.CubeCI95[1]
	}
	g.line(styled{w.intervalName(), w.st.label}, lo, hi)
	g.skip(1)

	g.line(styled{w.t("Judgements", "评分记录"), w.st.label}, j.Judgements)
	g.line(styled{w.t("of which unscorable", "其中无法评分"), w.st.label}, j.Unscorable)
	for _, set := range sets {
		for _, d := range w.dims {
			if n := j.UnscorableBy[set][d]; n > 0 {
				g.line(fmt.Sprintf("  %s · %s", set, w.dimTitle(d)), n)
			}
		}
	}
	if len(j.Flags) > 0 {
		g.line(styled{w.t("Flags", "标记"), w.st.label}, styled{w.flags(j.Flags), w.st.note})
	}

	// Zero, rag and full per dimension as a native chart over Table 2.
	var series []excelize.ChartSeries
	colors := []string{"A5A5A5", "4472C4", "70AD47"}
	for k := range sets {
		r := first + k
		series = append(series, excelize.ChartSeries{Name: fmt.Sprintf("'%s'!$A$%d", name, r),
			Categories: ref(name, 2, head, 1+len(cols), head), Values: ref(name, 2, r, 1+len(cols), r),
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{colors[k]}}})
	}
	_ = last
	w.charts++
	if err := w.f.AddChart(name, "J3", &excelize.Chart{
		Type:       excelize.Col,
		Series:     series,
		Title:      chartTitle(fmt.Sprintf(w.t("Bounds per dimension · %s", "各维度上下界 · %s"), w.judgeName(j.Judge))),
		Legend:     excelize.ChartLegend{Position: "bottom"},
		XAxis:      excelize.ChartAxis{Font: tickFont},
		YAxis:      excelize.ChartAxis{Title: chartTitle(w.t("Trimmed mean (0–10)", "截尾均值（0–10）")), MajorGridLines: true, Minimum: float(0), Maximum: float(10), Font: tickFont},
		VaryColors: boolp(false),
		Dimension:  excelize.ChartDimension{Width: 520, Height: 300},
	}); err != nil {
		return fmt.Errorf("report: chart of %q: %w", j.Judge, err)
	}
	return g.first
}

func (w *writer) weightSource(s string) string {
	zh := map[string]string{"correlation": "相关系数", "equal": "等权重", "hand": "人工设定", "judge": "评审专属权重"}[s]
	if zh == "" {
		return s
	}
	return w.t(s, zh)
}

// judgesSheet is all judges side by side with the mean ± SD row (the
// paper's Table 4, last row), and the score histograms.
func (w *writer) judgesSheet() error {
	g := w.grid(SheetJudges)
	if w.s.Result == nil || len(w.s.Judges) == 0 {
		g.line(styled{w.t("No judge scored this run.", "本次运行没有评审模型的评分。"), w.st.note})
		return g.first
	}
	cols := append(append([]string{}, w.dims...), cube.Weighted)
	widths := []float64{24}
	for range cols {
		widths = append(widths, 13)
	}
	g.widths(append(widths, 12, 12, 12, 12, 12, 40)...)
	g.block()
	g.line(styled{w.t("All judges side by side (bounded scores, 0–100)", "各评审模型对比（上下界归一化得分，0–100）"), w.st.title})
	g.skip(1)
	head := []string{w.t("Judge", "评审模型")}
	for _, d := range cols {
		head = append(head, w.dimTitle(d))
	}
	head = append(head, w.t("CuBE score", "CuBE 得分"), w.t("95 % low", "区间下限"), w.t("95 % high", "区间上限"), w.t("Judgements", "评分数"), w.t("Unscorable", "无法评分"), w.t("Flags", "标记"))
	g.headerN(2, head...)
	for _, j := range w.s.Judges {
		cells := []any{w.judgeName(j.Judge)}
		for _, d := range cols {
			cells = append(cells, j.Normalized[d])
		}
		var lo, hi *float64
		if j.CubeCI95 != nil {
			lo, hi = &j.CubeCI95[0], &j.CubeCI95[1]
		}
		cells = append(cells, j.Cube, lo, hi, j.Judgements, j.Unscorable, styled{w.flags(j.Flags), w.st.note})
		g.line(cells...)
	}
	agg := w.s.Aggregate
	mean, sd, both := []any{styled{w.t("Mean across judges", "各评审模型均值"), w.st.label}}, []any{styled{w.t("Spread across judges (SD)", "评审模型之间的标准差"), w.st.label}}, []any{styled{w.t("Mean ± SD", "均值 ± 标准差"), w.st.label}}
	for _, d := range cols {
		m := agg.Normalized[d]
		mean, sd, both = append(mean, m.Mean), append(sd, w.sdCell(m)), append(both, w.pm(m))
	}
	mean, sd, both = append(mean, agg.Cube.Mean), append(sd, w.sdCell(agg.Cube)), append(both, w.pm(agg.Cube))
	if agg.CubeCI95 != nil {
		mean = append(mean, agg.CubeCI95[0], agg.CubeCI95[1])
	}
	g.line(mean...)
	g.line(sd...)
	g.line(both...)
	g.skip(2)

	// CuBE per judge as a native chart with its intervals as error bars
	// (plus/minus distances in the two columns beside it), for readers who
	// restyle charts in Excel.
	g.block()
	g.line(styled{w.t("CuBE score per judge (chart data)", "各评审模型的 CuBE 得分（图表数据）"), w.st.label})
	g.headerN(2, w.t("Judge", "评审模型"), w.t("CuBE score", "CuBE 得分"), w.t("95 % low", "区间下限"), w.t("95 % high", "区间上限"),
		w.t("+ to high", "距上限"), w.t("− to low", "距下限"))
	cubeFirst := g.row
	for _, j := range w.s.Judges {
		var plus, minus, clo, chi *float64
		if j.Cube != nil && j.CubeCI95 != nil {
			p, m := j.CubeCI95[1]-*j.Cube, *j.Cube-j.CubeCI95[0]
			plus, minus = &p, &m
		}
		if j.CubeCI95 != nil {
			clo, chi = &j.CubeCI95[0], &j.CubeCI95[1]
		}
		// Undefined values stay blank so the chart shows no bar rather
		// than a zero one; the table above says n/a.
		g.line(w.judgeName(j.Judge), blankNil(j.Cube), blankNil(clo), blankNil(chi), blankNil(plus), blankNil(minus))
	}
	cubeLast := g.row - 1
	chartRow := g.row + 1
	w.charts++
	if err := w.f.AddChart(g.name, fmt.Sprintf("A%d", chartRow), &excelize.Chart{
		Type:       excelize.Col,
		Series:     []excelize.ChartSeries{{Name: "CuBE", Categories: ref(g.name, 1, cubeFirst, 1, cubeLast), Values: ref(g.name, 2, cubeFirst, 2, cubeLast), Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"0072B2"}}}},
		Title:      chartTitle(w.t("CuBE score per judge (error bars: 95 % interval)", "各评审模型的 CuBE 得分（误差线：95 % 置信区间）")),
		Legend:     excelize.ChartLegend{Position: "none"},
		XAxis:      excelize.ChartAxis{Title: chartTitle(w.t("Judge", "评审模型")), Font: tickFont},
		YAxis:      excelize.ChartAxis{Title: chartTitle(w.t("CuBE score", "CuBE 得分")), MajorGridLines: true, Minimum: float(0), Font: tickFont},
		PlotArea:   excelize.ChartPlotArea{ShowVal: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0.0"}},
		VaryColors: boolp(false),
		Dimension:  excelize.ChartDimension{Width: 520, Height: 320},
	}); err != nil {
		return fmt.Errorf("report: CuBE chart: %w", err)
	}
	w.errBars = append(w.errBars, errBars{chart: w.charts, plus: ref(g.name, 5, cubeFirst, 5, cubeLast), minus: ref(g.name, 6, cubeFirst, 6, cubeLast)})
	g.skip(19)

	// Histograms of the rag scores per judge × dimension (CuBE Figure 1),
	// from the data the window draws them from.
	samples := figures.Histograms(w.s.Result, w.dimTitle)
	g.block()
	g.line(styled{w.t("Distribution of the system's (rag) scores", "被测系统（rag）得分分布"), w.st.label})
	if err := w.picture(g.name, fmt.Sprintf("A%d", g.row), func(o chart.Options) (*chart.Figure, error) {
		return chart.Histograms(samples, o)
	}, w.t("Histograms of rag scores per judge and dimension", "各评审、各维度 rag 得分直方图")); err != nil {
		return err
	}
	return g.first
}

// sdCell is a spread across judges, or "1 judge only" where one judge
// leaves none.
func (w *writer) sdCell(m cube.MeanSD) any {
	if m.SD == nil && m.N == 1 {
		return styled{w.onlyOneJudge(), w.st.na}
	}
	return m.SD
}

// pm renders mean ± SD as text; with one judge, the mean and "1 judge
// only" instead of "± n/a".
func (w *writer) pm(m cube.MeanSD) string {
	if m.SD == nil && m.N == 1 && m.Mean != nil {
		return fmt.Sprintf(w.t("%.2f (%s)", "%.2f（%s）"), *m.Mean, w.onlyOneJudge())
	}
	f := func(p *float64) string {
		if p == nil {
			return w.na()
		}
		return fmt.Sprintf("%.2f", *p)
	}
	return f(m.Mean) + " ± " + f(m.SD)
}

// picture renders a core/chart figure as PNG and places it at cell. A chart
// with nothing to draw is left out (the tables say n/a).
func (w *writer) picture(sheet, cell string, fig func(chart.Options) (*chart.Figure, error), alt string) error {
	f, err := fig(chart.Options{Lang: w.lang})
	if err != nil {
		return nil //nolint:nilerr // no data: nothing to draw, the tables show it
	}
	png, err := f.PNG()
	if err != nil {
		return fmt.Errorf("report: %s: %w", alt, err)
	}
	scale := 1.0
	if wd := float64(f.Width) * float64(f.DPI) / 72; wd > 900 {
		scale = 900 / wd
	}
	if err := w.f.AddPictureFromBytes(sheet, cell, &excelize.Picture{Extension: ".png", File: png,
		Format: &excelize.GraphicOptions{AltText: alt, ScaleX: scale, ScaleY: scale, LockAspectRatio: true}}); err != nil {
		return fmt.Errorf("report: %s: %w", alt, err)
	}
	return nil
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02 15:04:05 MST")
}

// qualificationBlock says whether the judge counts in the verdict and each
// check behind it (cube's judge qualification), before its figures.
func (w *writer) qualificationBlock(g *grid, j cube.JudgeResult) {
	if j.Qualification == nil {
		return
	}
	g.block()
	head := w.t("Judge qualification: counted in the verdict", "评审资格：计入结论")
	if !j.Counted() {
		head = w.t("Judge qualification: NOT counted in the verdict — its figures below are shown, never averaged in",
			"评审资格：不计入结论——以下数字仅供查看，不参与任何平均")
	}
	g.line(styled{head, w.st.label})
	status := map[string]string{cube.CheckPass: w.t("pass", "通过"), cube.CheckFail: w.t("FAIL", "未通过"), cube.CheckShown: w.t("shown only", "仅供参考")}
	for _, c := range j.Qualification {
		g.line(status[c.Status], c.Reason.In(text.Lang(w.lang)))
	}
	g.skip(1)
}
