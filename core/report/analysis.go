package report

import (
	"fmt"
	"maps"
	"slices"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/cofe"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/figures"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/querytype"
)

// correlationsSheet shows r(rank score, rag score) per judge × dimension over
// all cases and over retrieved cases (CuBE Figures 2–4), as tables with a
// colour scale and as heatmap images.
func (w *writer) correlationsSheet() error {
	g := w.grid(SheetCorrelations)
	widths := []float64{24}
	for range w.dims {
		widths = append(widths, 13)
	}
	g.widths(widths...)
	g.block()
	g.line(styled{w.t("Correlation of rank score and system-answer score (Pearson r)", "排名得分与被测系统回答得分的相关系数（Pearson r）"), w.st.title})
	g.line(styled{w.t("The positive part of the all-cases r gives the dimension weights; n/a where a variance is zero.",
		"全部案例 r 的正部即维度权重；方差为零时记为不适用。"), w.st.note})
	if w.s.Result == nil || len(w.s.Judges) == 0 {
		return g.first
	}
	blocks := []struct {
		title     string
		retrieved bool
	}{
		{w.t("All cases", "全部案例"), false},
		{w.t("Retrieved cases", "检索命中案例"), true},
	}
	scale := excelize.ConditionalFormatOptions{Type: "3_color_scale", Criteria: "=", MinType: "num", MidType: "num", MaxType: "num",
		MinValue: "-1", MidValue: "0", MaxValue: "1", MinColor: "#5B9BD5", MidColor: "#FFFFFF", MaxColor: "#F8696B"}
	for _, b := range blocks {
		g.skip(1)
		g.block()
		g.line(styled{b.title, w.st.label})
		head := []string{w.t("Judge", "评审模型")}
		for _, d := range w.dims {
			head = append(head, w.dimTitle(d))
		}
		g.headerN(2, head...)
		top := g.row
		// The same matrix the window's heatmap draws.
		mat := figures.Correlations(w.s.Result, b.retrieved, w.dimTitle)
		for r, j := range mat.Rows {
			cells := []any{w.judgeName(j)}
			for _, v := range mat.Values[r] {
				cells = append(cells, v)
			}
			g.line(cells...)
		}
		if len(w.dims) > 0 {
			g.err(w.f.SetConditionalFormat(g.name, fmt.Sprintf("B%d:%s%d", top, colName(1+len(w.dims)), g.row-1), []excelize.ConditionalFormatOptions{scale}))
		}
		g.skip(1)
		at := fmt.Sprintf("A%d", g.row)
		title := b.title
		if err := w.picture(g.name, at, func(o chart.Options) (*chart.Figure, error) {
			o.Title = w.t("Rank score × system-answer score · ", "排名得分 × 被测系统回答得分 · ") + title
			return chart.Heatmap(mat, o)
		}, title); err != nil {
			return err
		}
		g.skip(22 + 2*len(w.s.Judges))
	}
	return g.first
}

func (w *writer) humanSheet() error {
	h := w.s.Human
	g := w.grid(SheetHuman)
	g.widths(24, 10, 14, 12, 14, 12, 12, 12)
	g.block()
	g.line(styled{w.t("Agreement of the judges with expert ratings (0–100 scale)", "评审模型与专家评分的一致性（0–100 分制）"), w.st.title})
	g.line(styled{w.t("Items rated", "专家评分问题数"), w.st.label}, h.Items)
	g.line(styled{w.t("Ratings used", "采用的评分条数"), w.st.label}, h.Ratings)
	g.line(styled{w.t("Ratings ignored (unknown item or dimension)", "忽略的评分（未知问题或维度）"), w.st.label}, h.Ignored)
	g.line(styled{w.t("Raters", "评分人"), w.st.label}, fmt.Sprint(h.Raters))
	g.line(styled{w.t("Krippendorff's α (interval), all dimensions", "Krippendorff α（区间），全部维度"), w.st.label}, h.Alpha)
	for _, d := range w.humanDims() {
		hd := h.Dimensions[d]
		g.skip(1)
		g.block()
		g.line(styled{w.dimTitle(d), w.st.label}, styled{fmt.Sprintf(w.t("experts: n = %d, mean %s, α %s", "专家：n = %d，均值 %s，α %s"), hd.N, w.fmt2(hd.Mean)+" ± "+w.fmt2(hd.SD), w.fmt2(hd.Alpha)), w.st.note})
		g.headerN(2, w.t("Judge", "评审模型"), "n", w.t("Judge mean", "评审均值"), w.t("Judge SD", "评审标准差"), w.t("Expert mean", "专家均值"), w.t("Expert SD", "专家标准差"), "Pearson", "Spearman")
		for _, j := range w.judges {
			hj, ok := hd.Judges[j]
			if !ok {
				continue
			}
			g.line(w.judgeName(j), hj.N, hj.JudgeMean, hj.JudgeSD, hj.HumanMean, hj.HumanSD, hj.Pearson, hj.Spearman)
		}
	}
	return g.first
}

func (w *writer) humanDims() []string {
	var out []string
	for _, d := range w.dims {
		if _, ok := w.s.Human.Dimensions[d]; ok {
			out = append(out, d)
		}
	}
	for _, d := range slices.Sorted(maps.Keys(w.s.Human.Dimensions)) {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func (w *writer) fmt2(p *float64) string {
	if p == nil {
		return w.na()
	}
	return fmt.Sprintf("%.2f", *p)
}

// mfssFactors are the six factors in the order of formulas.md §2, with the
// accessor into mfss.Factors.
var mfssFactors = []struct {
	key    string
	en, zh string
	get    func(mfss.Factors) float64
}{
	{"accuracy", "Accuracy", "准确性", func(f mfss.Factors) float64 { return f.Accuracy }},
	{"factual_consistency", "Factual consistency", "事实一致性", func(f mfss.Factors) float64 { return f.FactualConsistency }},
	{"conciseness", "Conciseness", "简洁性", func(f mfss.Factors) float64 { return f.Conciseness }},
	{"readability", "Readability", "可读性", func(f mfss.Factors) float64 { return f.Readability }},
	{"coherence", "Coherence", "连贯性", func(f mfss.Factors) float64 { return f.Coherence }},
	{"rouge", "ROUGE", "ROUGE", func(f mfss.Factors) float64 { return f.Rouge }},
}

func (w *writer) mfssSheet() error {
	m := w.s.MFSS
	g := w.grid(SheetMFSS)
	g.widths(22, 18, 12, 12, 12, 12, 12, 12, 12, 10, 12)
	g.block()
	g.line(styled{w.t("MFSS · six factors against the reference answer (0–1)", "MFSS · 与参考答案对照的六项因子（0–1）"), w.st.title})
	g.line(styled{w.t("Embedder", "向量模型"), w.st.label}, m.Embedder)
	g.line(styled{w.t("Items without a reference (skipped)", "无参考答案的问题（跳过）"), w.st.label}, m.SkippedNoReference)
	g.skip(1)
	head := []string{w.t("System", "系统")}
	for _, fc := range mfssFactors {
		head = append(head, w.t(fc.en, fc.zh))
	}
	head = append(head, w.t("Total", "总分"), w.t("Scored", "已评分"), w.t("No answer", "无回答"))
	headRow := g.headerN(2, head...)
	systems := w.mfssSystems()
	first := g.row
	for _, sys := range systems {
		f := m.Systems[sys]
		cells := []any{sys}
		for _, fc := range mfssFactors {
			cells = append(cells, factor(f, fc.key, fc.get))
		}
		cells = append(cells, f.Total, m.Scored[sys], m.SkippedNoAnswer[sys])
		g.line(cells...)
	}
	if len(systems) > 0 {
		var series []excelize.ChartSeries
		for k := range systems {
			r := first + k
			series = append(series, excelize.ChartSeries{Name: fmt.Sprintf("'%s'!$A$%d", g.name, r),
				Categories: ref(g.name, 2, headRow, 1+len(mfssFactors), headRow), Values: ref(g.name, 2, r, 1+len(mfssFactors), r)})
		}
		w.charts++
		if err := w.f.AddChart(g.name, "M2", &excelize.Chart{
			Type:      excelize.Radar,
			Series:    series,
			Title:     chartTitle(w.t("MFSS factors per system", "各系统 MFSS 因子")),
			Legend:    excelize.ChartLegend{Position: "bottom"},
			XAxis:     excelize.ChartAxis{Font: tickFont},
			YAxis:     excelize.ChartAxis{Minimum: float(0), Maximum: float(1), MajorUnit: 0.2, Font: tickFont},
			Dimension: excelize.ChartDimension{Width: 480, Height: 360},
		}); err != nil {
			return fmt.Errorf("report: MFSS radar: %w", err)
		}
	}
	for _, b := range []struct {
		title string
		by    map[string]map[string]mfss.Factors
	}{{w.t("By category", "按类别"), m.ByCategory}, {w.t("By query type", "按问题类型"), m.ByQueryType}} {
		if len(b.by) == 0 {
			continue
		}
		g.skip(1)
		g.block()
		g.line(styled{b.title, w.st.label})
		head := []string{w.t("System", "系统"), b.title}
		for _, fc := range mfssFactors {
			head = append(head, w.t(fc.en, fc.zh))
		}
		head = append(head, w.t("Total", "总分"))
		g.headerN(3, head...)
		for _, sys := range systems {
			for _, cat := range slices.Sorted(maps.Keys(b.by[sys])) {
				f := b.by[sys][cat]
				cells := []any{sys, w.queryType(cat)}
				for _, fc := range mfssFactors {
					cells = append(cells, factor(f, fc.key, fc.get))
				}
				cells = append(cells, f.Total)
				g.line(cells...)
			}
		}
	}
	return g.first
}

// factor is one MFSS factor's value, or n/a when no answer measured it
// (mfss.Factors reads 0 there; a zero-vector answer is not scored 0).
func factor(f mfss.Factors, key string, get func(mfss.Factors) float64) *float64 {
	if !f.Has(key) {
		return nil
	}
	v := get(f)
	return &v
}

// mfssSystems lists the scored systems: rag first, then by name.
func (w *writer) mfssSystems() []string {
	all := slices.Sorted(maps.Keys(w.s.MFSS.Systems))
	if i := slices.Index(all, "rag"); i > 0 {
		all = append([]string{"rag"}, slices.Delete(all, i, i+1)...)
	}
	return all
}

// queryType names a query type (core/querytype) in Chinese reports; English
// reports show the canonical name.
func (w *writer) queryType(t string) string {
	if w.lang != "zh" {
		return t
	}
	if qt, ok := querytype.Lookup(t); ok {
		return qt.TitleZH
	}
	if t == "unknown" { // cofe.UnknownType: items without a query type
		return "未标注"
	}
	return t
}

// cofeSheet shows CoFE-RAG's keyword retrieval figures and, when one ran,
// the chunking × retriever sweep.
func (w *writer) cofeSheet() error {
	c := w.s.CoFE
	var rows []cofe.Result
	if w.s.Sweep != nil {
		rows = w.s.Sweep.Rows
	}
	if c == nil {
		c = &cofe.Result{}
		if len(rows) > 0 {
			c.K = rows[0].K
		}
	}
	g := w.grid(SheetCoFE)
	g.widths(26, 12, 14, 12, 12, 14, 10, 10)
	g.block()
	g.line(styled{w.t("CoFE-RAG · retrieval judged by multi-granularity keywords", "CoFE-RAG · 基于多粒度关键词的检索评估"), w.st.title})
	g.skip(1)
	kv := [][2]any{
		{fmt.Sprintf(w.t("Keyword accuracy@%d", "关键词准确率@%d"), c.K), pct{c.AccuracyAtK}},
		{w.t("Keyword recall (whole retrieved list)", "关键词召回率（完整检索列表）"), pct{c.Recall}},
		{w.t("Keyword coverage (every chunk; upper bound)", "关键词覆盖率（全部分块，上限）"), pct{c.Coverage}},
		{w.t("Mean hit score at k", "前 k 个的平均命中率"), pct{c.MeanHitScore}},
		{w.t("Queries", "查询数"), c.Queries},
		{w.t("Queries with empty keyword lists (counted)", "关键词为空的查询（计入分母）"), c.EmptyKeywordQueries},
		{w.t("Chunker", "分块方式"), c.Chunker},
		{w.t("Chunks", "分块数"), c.Chunks},
		{w.t("Retriever", "检索方式"), c.Retriever},
		{w.t("Reranked", "重排序"), w.t(yesNo(c.Reranked))},
		{w.t("Retrieved list length", "检索列表长度"), c.RecallN},
	}
	for _, x := range kv {
		g.line(styled{x[0], w.st.label}, x[1])
	}
	if len(c.ByQueryType) > 0 {
		g.skip(1)
		g.block()
		g.line(styled{w.t("By query type", "按问题类型"), w.st.label})
		head := g.headerN(2, w.t("Query type", "问题类型"), fmt.Sprintf(w.t("Keyword accuracy@%d", "关键词准确率@%d"), c.K), w.t("Keyword recall", "关键词召回率"), w.t("Keyword coverage", "关键词覆盖率"), w.t("Mean hit score", "平均命中率"), w.t("Queries", "查询数"))
		first := g.row
		for _, t := range slices.Sorted(maps.Keys(c.ByQueryType)) {
			m := c.ByQueryType[t]
			g.line(w.queryType(t), pctBlank(m.AccuracyAtK), pctBlank(m.Recall), pctBlank(m.Coverage), pctBlank(m.MeanHitScore), m.Queries)
		}
		last := g.row - 1
		var series []excelize.ChartSeries
		for k := range 4 {
			series = append(series, excelize.ChartSeries{Name: fmt.Sprintf("'%s'!$%s$%d", g.name, colName(2+k), head),
				Categories: ref(g.name, 1, first, 1, last), Values: ref(g.name, 2+k, first, 2+k, last)})
		}
		w.charts++
		if err := w.f.AddChart(g.name, "J3", &excelize.Chart{
			Type:       excelize.Col,
			Series:     series,
			Title:      chartTitle(w.t("CoFE-RAG metrics by query type", "按问题类型的 CoFE-RAG 指标")),
			Legend:     excelize.ChartLegend{Position: "bottom"},
			XAxis:      excelize.ChartAxis{Font: tickFont},
			YAxis:      excelize.ChartAxis{MajorGridLines: true, Minimum: float(0), Maximum: float(1), NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0%"}, Font: tickFont},
			VaryColors: boolp(false),
			Dimension:  excelize.ChartDimension{Width: 520, Height: 300},
		}); err != nil {
			return fmt.Errorf("report: CoFE chart: %w", err)
		}
	}
	if len(rows) > 0 {
		g.skip(1)
		g.block()
		g.line(styled{w.t("Chunking × retriever sweep", "分块 × 检索方式对比"), w.st.label})
		g.headerN(3, w.t("Chunker", "分块方式"), w.t("Retriever", "检索方式"), w.t("Chunks", "分块数"), fmt.Sprintf(w.t("Keyword accuracy@%d", "关键词准确率@%d"), c.K), w.t("Keyword recall", "关键词召回率"), w.t("Keyword coverage", "关键词覆盖率"), w.t("Mean hit score", "平均命中率"))
		for _, r := range rows {
			g.line(r.Chunker, r.Retriever, r.Chunks, pct{r.AccuracyAtK}, pct{r.Recall}, pct{r.Coverage}, pct{r.MeanHitScore})
		}
	}
	return g.first
}

// pctBlank is a percentage for chart data: blank when undefined.
func pctBlank(p *float64) any {
	if p == nil {
		return nil
	}
	return pct{p}
}

// problemsSheet lists what did not go as planned: skipped rows, run
// problems, unscorable judgements with reasons, flags, cut cells.
func (w *writer) problemsSheet() error {
	s, err := w.stream(SheetProblems, []float64{22, 12, 10, 16, 14, 8, 50, 50}, false)
	if err != nil {
		return err
	}
	s.wrap = true
	p := problemsPage{w: w, s: s}
	for _, part := range []func() error{p.problemsSkipped, p.problemsWarnings, p.problemsRun, p.problemsUnscorable, p.problemsFlags, p.problemsCut} {
		if err := part(); err != nil {
			return err
		}
	}
	return s.flush()
}

// problemsPage writes the Problems sheet's sections to its stream.
type problemsPage struct {
	w *writer
	s *stream
}

// section starts a section: a blank row after the one before, then its title.
func (p problemsPage) section(title string) error {
	if p.s.row > 1 {
		p.s.row++
	}
	return p.s.line(styled{title, p.w.st.title})
}

// none says a section has nothing to list.
func (p problemsPage) none() error {
	return p.s.line(styled{p.w.t("None.", "无。"), p.w.st.note})
}

// firstErr is the first error of errs that is not nil.
func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// problemsSkipped writes the rows skipped when reading the workbook.
func (p problemsPage) problemsSkipped() error {
	w, s := p.w, p.s
	if err := p.section(w.t("Rows skipped when reading the workbook", "读取工作簿时跳过的行")); err != nil {
		return err
	}
	if sk := w.s.Skipped; len(sk) == 0 {
		if err := p.none(); err != nil {
			return err
		}
	} else {
		for _, x := range sk {
			if err := s.line(x); err != nil {
				return err
			}
		}
	}
	return nil
}

// problemsWarnings writes the findings about the input the run went on despite, from every package that reports them (result.Warning.Source says which).
func (p problemsPage) problemsWarnings() error {
	w, s := p.w, p.s
	// Findings about the input the run went on despite, from every package
	// that reports them (result.Warning.Source says which).
	if err := p.section(w.t("Warnings about the input", "关于输入数据的警告")); err != nil {
		return err
	}
	if len(w.s.Warnings) == 0 {
		if err := p.none(); err != nil {
			return err
		}
	} else {
		if err := s.header(w.t("Source", "来源"), w.t("Code", "代码"), w.t("Where", "位置"), "", "", "", w.t("Message", "说明")); err != nil {
			return err
		}
		for _, x := range w.s.Warnings {
			if err := s.line(x.Source, x.Code, x.Where, nil, nil, nil, x.In(w.lang)); err != nil {
				return err
			}
		}
	}
	return nil
}

// problemsRun writes the problems during the run.
func (p problemsPage) problemsRun() error {
	w, s := p.w, p.s
	if err := p.section(w.t("Problems during the run", "运行中的问题")); err != nil {
		return err
	}
	if len(w.s.Problems) == 0 {
		if err := p.none(); err != nil {
			return err
		}
	} else {
		if err := s.header(w.t("Step", "步骤"), w.t("id", "编号"), w.t("Set", "答案集"), w.t("Judge", "评审模型"), w.t("Dimension", "维度"), "", w.t("Reason", "原因")); err != nil {
			return err
		}
		for _, pr := range w.s.Problems {
			if err := s.line(pr.Step, pr.ItemID, pr.Set, pr.Judge, pr.Dim, nil, pr.Reason); err != nil {
				return err
			}
		}
	}
	return nil
}

// problemsUnscorable writes the unscorable judgements, at most 10,000 of them.
func (p problemsPage) problemsUnscorable() error {
	w, s := p.w, p.s
	if err := p.section(w.t("Unscorable judgements (left out of every mean)", "无法评分的判断（不计入任何平均）")); err != nil {
		return err
	}
	const maxListed = 10000
	listed, total := 0, 0
	for j := range w.wb.Scores.Values() {
		if j.OK() {
			continue
		}
		total++
		if listed == maxListed {
			continue
		}
		if listed == 0 {
			if err := s.header(w.t("id", "编号"), w.t("Set", "答案集"), w.t("Judge", "评审模型"), w.t("Dimension", "维度"), w.t("Status", "状态"), w.t("Repeat", "重复"), w.t("Reason", "原因"), w.t("Reply", "原始回复")); err != nil {
				return err
			}
		}
		listed++
		if err := s.line(j.ItemID, j.Set, j.Judge, j.Dimension, j.Status, max(1, j.Repeat), w.t(judge.ReasonText(j.Reason).EN, judge.ReasonText(j.Reason).ZH), j.Raw); err != nil {
			return err
		}
	}
	switch {
	case total == 0:
		if err := p.none(); err != nil {
			return err
		}
	case total > listed:
		if err := s.line(styled{fmt.Sprintf(w.t("… and %d more: filter the scores sheet on status = unscorable.", "……另有 %d 条：在 scores 表中按 status = unscorable 筛选。"), total-listed), w.st.note}); err != nil {
			return err
		}
	}
	return nil
}

// problemsFlags writes the judges' flags and the counts of what a method left out.
func (p problemsPage) problemsFlags() error {
	w, s := p.w, p.s
	if err := p.section(w.t("Flags and counts", "标记与计数")); err != nil {
		return err
	}
	n := 0
	if w.s.Result != nil {
		for _, j := range w.s.Judges {
			for _, fl := range j.Flags {
				n++
				if err := s.line(j.Judge, nil, nil, nil, nil, nil, cube.FlagText(fl, w.lang)); err != nil {
					return err
				}
			}
		}
		if w.s.UnknownGold > 0 {
			n++
			if err := s.line(w.t("Items without a gold document (left out of Recall@k)", "无标准文档的问题（不计入召回率）"), w.s.UnknownGold); err != nil {
				return err
			}
		}
		if w.s.IgnoredJudgements > 0 {
			n++
			if err := s.line(w.t("Judgements CuBE does not read (unknown item, dimension or set)", "CuBE 未使用的评分（未知问题、维度或答案集）"), w.s.IgnoredJudgements); err != nil {
				return err
			}
		}
	}
	if m := w.s.MFSS; m != nil {
		if m.SkippedNoReference > 0 {
			n++
			if err := s.line(w.t("MFSS: items without a reference answer", "MFSS：无参考答案的问题"), m.SkippedNoReference); err != nil {
				return err
			}
		}
		for _, sys := range slices.Sorted(maps.Keys(m.SkippedNoAnswer)) {
			if k := m.SkippedNoAnswer[sys]; k > 0 {
				n++
				if err := s.line(fmt.Sprintf(w.t("MFSS: items without an answer of %s", "MFSS：%s 无回答的问题"), sys), k); err != nil {
					return err
				}
			}
		}
	}
	if c := w.s.CoFE; w.s.HasCoFERetrieval() && c != nil && c.EmptyKeywordQueries > 0 {
		n++
		if err := s.line(w.t("CoFE-RAG: queries with empty keyword lists", "CoFE-RAG：关键词为空的查询"), c.EmptyKeywordQueries); err != nil {
			return err
		}
	}
	if n == 0 {
		if err := p.none(); err != nil {
			return err
		}
	}
	return nil
}

// problemsCut writes the cells cut to Excel's limit and the judgements beyond one sheet.
func (p problemsPage) problemsCut() error {
	w, s := p.w, p.s
	if err := p.section(w.t("Cells cut to Excel's 32,767-character limit (full text in the run store)", "超过 Excel 32,767 字符上限而截断的单元格（全文见运行记录）")); err != nil {
		return err
	}
	if len(w.truncated) == 0 {
		if err := p.none(); err != nil {
			return err
		}
	} else {
		if err := s.header(w.t("Sheet", "工作表"), w.t("Cell", "单元格"), w.t("Characters", "字符数")); err != nil {
			return err
		}
		for i, t := range w.truncated {
			if i == 1000 {
				if err := s.line(styled{fmt.Sprintf(w.t("… and %d more", "……另有 %d 个"), len(w.truncated)-i), w.st.note}); err != nil {
					return err
				}
				break
			}
			if err := s.line(t.sheet, t.cell, t.chars); err != nil {
				return err
			}
		}
	}
	if len(w.overflow) > 0 {
		if err := firstErr(p.section(w.t("Judgements beyond one sheet", "超出单表行数的评分")),
			s.line(fmt.Sprintf(w.t("%d judgements exceed Excel's 1,048,575 rows per sheet; they continue on %v. CuBE Workbench reads them all; other tools that take only the scores sheet see the first part.",
				"共有 %d 条评分，超过 Excel 单表 1,048,575 行；其余在 %v 中。CuBE Workbench 会全部读取；只读取 scores 表的其他工具只能看到第一部分。"), w.wb.Scores.Len(), w.overflow))); err != nil {
			return err
		}
	}
	return nil
}
