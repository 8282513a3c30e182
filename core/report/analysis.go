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
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/querytype"
	"cubeworkbench/core/text"
)

// correlationsSheet shows r(rank score, rag score) per judge × dimension over
// all cases and over retrieved cases (CuBE Figures 2–4), as tables with a
// colour scale and as heatmap images.
func (w *writer) correlationsSheet() error { return w.writePage(w.correlationsPage()) }

// correlationsPage is r(rank score, rag score) per judge × dimension, all cases and retrieved cases, as colour-scaled tables and heatmaps.
func (w *writer) correlationsPage() *sheetPage {
	g := w.newPage(SheetCorrelations)
	widths := []float64{24}
	for range w.dims {
		widths = append(widths, 13)
	}
	g.widths(widths...)
	g.block()
	g.title(w.say(analysisCorrelationRankScore))
	g.line(styled{w.say(analysisPositivePartAll), w.st.note})
	if w.s.Result == nil || len(w.s.Judges) == 0 {
		return g
	}
	blocks := []struct {
		title     string
		retrieved bool
	}{
		{w.say(analysisAllCases), false},
		{w.say(analysisRetrievedCases), true},
	}
	scale := excelize.ConditionalFormatOptions{Type: "3_color_scale", Criteria: "=", MinType: "num", MidType: "num", MaxType: "num",
		MinValue: "-1", MidValue: "0", MaxValue: "1", MinColor: "#5B9BD5", MidColor: "#FFFFFF", MaxColor: "#F8696B"}
	for _, b := range blocks {
		g.skip(1)
		g.block()
		g.label(b.title)
		head := []string{w.say(txtJudge)}
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
			g.format(fmt.Sprintf("B%d:%s%d", top, colName(1+len(w.dims)), g.row-1), scale)
		}
		g.skip(1)
		at := fmt.Sprintf("A%d", g.row)
		title := b.title
		g.picture(at, func(o chart.Options) (*chart.Figure, error) {
			o.Title = w.say(analysisRankScoreSystem) + title
			return chart.Heatmap(mat, o)
		}, title)
		g.skip(22 + 2*len(w.s.Judges))
	}
	return g
}

func (w *writer) humanSheet() error { return w.writePage(w.humanPage()) }

// humanPage is the agreement of the judges with the experts per dimension.
func (w *writer) humanPage() *sheetPage {
	h := w.s.Human
	g := w.newPage(SheetHuman)
	g.widths(24, 10, 14, 12, 14, 12, 16, 16)
	g.block()
	g.title(w.say(analysisAgreementJudgesExpert))
	g.line(styled{w.say(analysisItemsRated), w.st.label}, h.Items)
	g.line(styled{w.say(txtRatingsUsed), w.st.label}, h.Ratings)
	g.line(styled{w.say(analysisRatingsIgnoredUnknown), w.st.label}, h.Ignored)
	g.line(styled{w.say(txtRaters), w.st.label}, fmt.Sprint(h.Raters))
	g.line(styled{w.say(analysisKrippendorffSInterval), w.st.label}, h.Alpha)
	for _, d := range w.humanDims() {
		hd := h.Dimensions[d]
		g.skip(1)
		g.block()
		g.line(styled{w.dimTitle(d), w.st.label}, styled{fmt.Sprintf(w.say(analysisExpertsNMean), hd.N, w.fmt2(hd.Mean)+" ± "+w.fmt2(hd.SD), w.fmt2(hd.Alpha)), w.st.note})
		// Two lines for the glossary's names of the correlations.
		head := g.headerN(2, w.say(txtJudge), "n", w.say(analysisJudgeMean), w.say(analysisJudgeSD), w.say(analysisExpertMean), w.say(analysisExpertSD), w.say(glossaryName(glossary.Pearson)), w.say(glossaryName(glossary.Spearman)))
		g.height(head, 30)
		for _, j := range w.judges {
			hj, ok := hd.Judges[j]
			if !ok {
				continue
			}
			g.line(w.judgeName(j), hj.N, hj.JudgeMean, hj.JudgeSD, hj.HumanMean, hj.HumanSD, hj.Pearson, hj.Spearman)
		}
	}
	return g
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
	key string
	id  glossary.ID // its name
	get func(mfss.Factors) float64
}{
	{"accuracy", glossary.MFSSAccuracy, func(f mfss.Factors) float64 { return f.Accuracy }},
	{"factual_consistency", glossary.MFSSFactualConsistency, func(f mfss.Factors) float64 { return f.FactualConsistency }},
	{"conciseness", glossary.MFSSConciseness, func(f mfss.Factors) float64 { return f.Conciseness }},
	{"readability", glossary.MFSSReadability, func(f mfss.Factors) float64 { return f.Readability }},
	{"coherence", glossary.MFSSCoherence, func(f mfss.Factors) float64 { return f.Coherence }},
	{"rouge", glossary.MFSSRouge, func(f mfss.Factors) float64 { return f.Rouge }},
}

func (w *writer) mfssSheet() error { return w.writePage(w.mfssPage()) }

// mfssPage is MFSS's six factors per answer set, with a radar chart, and by category and query type.
func (w *writer) mfssPage() *sheetPage {
	m := w.s.MFSS
	g := w.newPage(SheetMFSS)
	g.widths(22, 18, 12, 12, 12, 12, 12, 12, 12, 10, 12)
	g.block()
	g.title(w.say(analysisMFSSSixFactors))
	g.line(styled{w.say(txtEmbedder), w.st.label}, m.Embedder)
	g.line(styled{w.say(analysisItemsWithoutReference), w.st.label}, m.SkippedNoReference)
	g.skip(1)
	head := []string{w.say(analysisSystem)}
	for _, fc := range mfssFactors {
		head = append(head, w.say(glossaryName(fc.id)))
	}
	head = append(head, w.say(analysisTotal), w.say(analysisScored), w.say(analysisNoAnswer))
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
			series = append(series, excelize.ChartSeries{Name: fmt.Sprintf("'%s'!$A$%d", g.Name, r),
				Categories: ref(g.Name, 2, headRow, 1+len(mfssFactors), headRow), Values: ref(g.Name, 2, r, 1+len(mfssFactors), r)})
		}
		g.chart("M2", &excelize.Chart{
			Type:      excelize.Radar,
			Series:    series,
			Title:     chartTitle(w.say(analysisMFSSFactorsSystem)),
			Legend:    excelize.ChartLegend{Position: "bottom"},
			XAxis:     excelize.ChartAxis{Font: tickFont},
			YAxis:     excelize.ChartAxis{Minimum: float(0), Maximum: float(1), MajorUnit: 0.2, Font: tickFont},
			Dimension: excelize.ChartDimension{Width: 480, Height: 360},
		})
	}
	w.mfssBy(g, systems)
	return g
}

// mfssBy is MFSS's factors per system by category and by query type.
func (w *writer) mfssBy(g *sheetPage, systems []string) {
	m := w.s.MFSS
	for _, b := range []struct {
		title string
		by    map[string]map[string]mfss.Factors
	}{{w.say(analysisCategory), m.ByCategory}, {w.say(analysisQueryType), m.ByQueryType}} {
		if len(b.by) == 0 {
			continue
		}
		g.skip(1)
		g.block()
		g.label(b.title)
		head := []string{w.say(analysisSystem), b.title}
		for _, fc := range mfssFactors {
			head = append(head, w.say(glossaryName(fc.id)))
		}
		head = append(head, w.say(analysisTotal))
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
	if t == cofe.UnknownType { // items without a query type
		return w.say(analysisNoQueryType)
	}
	if w.lang != text.ZH {
		return t
	}
	if qt, ok := querytype.Lookup(t); ok {
		return qt.TitleZH
	}
	return t
}

// cofeSheet shows CoFE-RAG's keyword retrieval figures and, when one ran,
// the chunking × retriever sweep.
func (w *writer) cofeSheet() error { return w.writePage(w.cofePage()) }

// cofePage is CoFE-RAG's keyword retrieval figures, by query type with a chart, and the chunking × retriever sweep.
func (w *writer) cofePage() *sheetPage {
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
	g := w.newPage(SheetCoFE)
	g.widths(26, 12, 14, 12, 12, 14, 10, 10)
	g.block()
	g.title(w.say(analysisCoFERAGRetrieval))
	g.skip(1)
	kv := [][2]any{
		{fmt.Sprintf(w.say(analysisKeywordAccuracyAt), c.K), pct{c.AccuracyAtK}},
		{w.say(analysisKeywordRecallWhole), pct{c.Recall}},
		{w.say(analysisKeywordCoverageEvery), pct{c.Coverage}},
		{w.say(analysisMeanHitScore), pct{c.MeanHitScore}},
		{w.say(analysisQueries), c.Queries},
		{w.say(analysisQueriesEmptyKeyword), c.EmptyKeywordQueries},
		{w.say(analysisChunker), c.Chunker},
		{w.say(analysisChunks), c.Chunks},
		{w.say(analysisRetriever), c.Retriever},
		{w.say(analysisReranked), w.say(yesNo(c.Reranked))},
		{w.say(analysisRetrievedListLength), c.RecallN},
	}
	for _, x := range kv {
		g.line(styled{x[0], w.st.label}, x[1])
	}
	if len(c.ByQueryType) > 0 {
		w.cofeByQueryType(g, c)
	}
	if len(rows) > 0 {
		g.skip(1)
		g.block()
		g.label(w.say(analysisChunkingRetrieverSweep))
		g.headerN(3, w.say(analysisChunker), w.say(analysisRetriever), w.say(analysisChunks), fmt.Sprintf(w.say(analysisKeywordAccuracyAt), c.K), w.say(analysisKeywordRecall), w.say(analysisKeywordCoverage), w.say(analysisMeanHitScoreAll))
		for _, r := range rows {
			g.line(r.Chunker, r.Retriever, r.Chunks, pct{r.AccuracyAtK}, pct{r.Recall}, pct{r.Coverage}, pct{r.MeanHitScore})
		}
	}
	return g
}

// cofeByQueryType is CoFE-RAG's figures per query type, with a chart.
func (w *writer) cofeByQueryType(g *sheetPage, c *cofe.Result) {
	g.skip(1)
	g.block()
	g.label(w.say(analysisQueryType))
	head := g.headerN(2, w.say(analysisQueryTypeName), fmt.Sprintf(w.say(analysisKeywordAccuracyAt), c.K), w.say(analysisKeywordRecall), w.say(analysisKeywordCoverage), w.say(analysisMeanHitScoreAll), w.say(analysisQueries))
	first := g.row
	for _, t := range slices.Sorted(maps.Keys(c.ByQueryType)) {
		m := c.ByQueryType[t]
		g.line(w.queryType(t), pctBlank(m.AccuracyAtK), pctBlank(m.Recall), pctBlank(m.Coverage), pctBlank(m.MeanHitScore), m.Queries)
	}
	last := g.row - 1
	var series []excelize.ChartSeries
	for k := range 4 {
		series = append(series, excelize.ChartSeries{Name: fmt.Sprintf("'%s'!$%s$%d", g.Name, colName(2+k), head),
			Categories: ref(g.Name, 1, first, 1, last), Values: ref(g.Name, 2+k, first, 2+k, last)})
	}
	g.chart("J3", &excelize.Chart{
		Type:       excelize.Col,
		Series:     series,
		Title:      chartTitle(w.say(analysisCoFERAGMetrics)),
		Legend:     excelize.ChartLegend{Position: "bottom"},
		XAxis:      excelize.ChartAxis{Font: tickFont},
		YAxis:      excelize.ChartAxis{MajorGridLines: true, Minimum: float(0), Maximum: float(1), NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0%"}, Font: tickFont},
		VaryColors: boolp(false),
		Dimension:  excelize.ChartDimension{Width: 520, Height: 300},
	})
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
	return p.s.line(styled{p.w.say(analysisNone), p.w.st.note})
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
	if err := p.section(w.say(analysisRowsSkippedWhen)); err != nil {
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
	if err := p.section(w.say(analysisWarningsAboutInput)); err != nil {
		return err
	}
	if len(w.s.Warnings) == 0 {
		if err := p.none(); err != nil {
			return err
		}
	} else {
		if err := s.header(w.say(txtSource), w.say(analysisCode), w.say(analysisWhere), "", "", "", w.say(analysisMessage)); err != nil {
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
	if err := p.section(w.say(analysisProblemsDuringRun)); err != nil {
		return err
	}
	if len(w.s.Problems) == 0 {
		if err := p.none(); err != nil {
			return err
		}
	} else {
		if err := s.header(w.say(analysisStep), w.say(txtID), w.say(analysisSet), w.say(txtJudge), w.say(txtDimension), "", w.say(analysisReason)); err != nil {
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
	if err := p.section(w.say(analysisUnscorableJudgementsLeft)); err != nil {
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
			if err := s.header(w.say(txtID), w.say(analysisSet), w.say(txtJudge), w.say(txtDimension), w.say(analysisStatus), w.say(analysisRepeat), w.say(analysisReason), w.say(analysisReply)); err != nil {
				return err
			}
		}
		listed++
		if err := s.line(j.ItemID, j.Set, j.Judge, j.Dimension, j.Status, max(1, j.Repeat), w.say(judge.ReasonText(j.Reason)), j.Raw); err != nil {
			return err
		}
	}
	switch {
	case total == 0:
		if err := p.none(); err != nil {
			return err
		}
	case total > listed:
		if err := s.line(styled{fmt.Sprintf(w.say(analysisMoreFilterScores), total-listed), w.st.note}); err != nil {
			return err
		}
	}
	return nil
}

// problemsFlags writes the judges' flags and the counts of what a method left out.
func (p problemsPage) problemsFlags() error {
	w, s := p.w, p.s
	if err := p.section(w.say(analysisFlagsCounts)); err != nil {
		return err
	}
	n := 0
	if w.s.Result != nil {
		for _, j := range w.s.Judges {
			for _, fl := range j.Flags {
				n++
				if err := s.line(j.Judge, nil, nil, nil, nil, nil, cube.FlagText(fl).In(w.lang)); err != nil {
					return err
				}
			}
		}
		if w.s.UnknownGold > 0 {
			n++
			if err := s.line(w.say(analysisItemsWithoutGold), w.s.UnknownGold); err != nil {
				return err
			}
		}
		if w.s.IgnoredJudgements > 0 {
			n++
			if err := s.line(w.say(analysisJudgementsCuBEDoes), w.s.IgnoredJudgements); err != nil {
				return err
			}
		}
	}
	if m := w.s.MFSS; m != nil {
		if m.SkippedNoReference > 0 {
			n++
			if err := s.line(w.say(analysisMFSSItemsWithout), m.SkippedNoReference); err != nil {
				return err
			}
		}
		for _, sys := range slices.Sorted(maps.Keys(m.SkippedNoAnswer)) {
			if k := m.SkippedNoAnswer[sys]; k > 0 {
				n++
				if err := s.line(fmt.Sprintf(w.say(analysisMFSSItemsWithoutAnswer), sys), k); err != nil {
					return err
				}
			}
		}
	}
	if c := w.s.CoFE; w.s.HasCoFERetrieval() && c != nil && c.EmptyKeywordQueries > 0 {
		n++
		if err := s.line(w.say(analysisCoFERAGQueries), c.EmptyKeywordQueries); err != nil {
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
	if err := p.section(w.say(analysisCellsCutExcel)); err != nil {
		return err
	}
	if len(w.truncated) == 0 {
		if err := p.none(); err != nil {
			return err
		}
	} else {
		if err := s.header(w.say(analysisSheet), w.say(analysisCell), w.say(analysisCharacters)); err != nil {
			return err
		}
		for i, t := range w.truncated {
			if i == 1000 {
				if err := s.line(styled{fmt.Sprintf(w.say(analysisMore), len(w.truncated)-i), w.st.note}); err != nil {
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
		if err := firstErr(p.section(w.say(analysisJudgementsBeyondOne)),
			s.line(fmt.Sprintf(w.say(analysisJudgementsExceedExcel), w.wb.Scores.Len(), w.overflow))); err != nil {
			return err
		}
	}
	return nil
}
