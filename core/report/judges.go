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
		base := sheetSafe(w.say(judgesJudge) + j)
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
		return w.say(judgesZeroNoContext)
	case dataset.SetRAG:
		return w.say(judgesRagSystem)
	case dataset.SetFull:
		return w.say(judgesFullGoldDoc)
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
	return w.writePage(w.judgePage(name, j))
}

// judgePage is one judge's Tables 2–4: its qualification, the trimmed means
// of the three answer sets, the weights and correlations, the bounded
// scores and CuBE, what it could not score, and the bounds chart.
func (w *writer) judgePage(name string, j cube.JudgeResult) *sheetPage {
	g := w.newPage(name, 26, 14, 14, 14, 14, 14, 14, 14)
	cols := append(append([]string{}, w.dims...), cube.Weighted)
	titles := make([]string, len(cols))
	for i, d := range cols {
		titles[i] = w.dimTitle(d)
	}
	g.block()
	g.title(fmt.Sprintf(w.say(judgesJudgeDetailedResults), w.judgeName(j.Judge)))
	g.skip(1)
	w.qualificationBlock(g, j)
	head, first := w.judgeTrimmedMeans(g, j, cols, titles)
	w.judgeWeights(g, j, titles)
	w.judgeBounded(g, j, cols, titles)
	w.judgeUnscorable(g, j)

	// Zero, rag and full per dimension as a native chart over Table 2.
	var series []excelize.ChartSeries
	colors := []string{"A5A5A5", "4472C4", "70AD47"}
	for k := range sets {
		r := first + k
		series = append(series, excelize.ChartSeries{Name: fmt.Sprintf("'%s'!$A$%d", name, r),
			Categories: ref(name, 2, head, 1+len(cols), head), Values: ref(name, 2, r, 1+len(cols), r),
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{colors[k]}}})
	}
	g.chart("J3", &excelize.Chart{
		Type:       excelize.Col,
		Series:     series,
		Title:      chartTitle(fmt.Sprintf(w.say(judgesBoundsDimension), w.judgeName(j.Judge))),
		Legend:     excelize.ChartLegend{Position: "bottom"},
		XAxis:      excelize.ChartAxis{Font: tickFont},
		YAxis:      excelize.ChartAxis{Title: chartTitle(w.say(judgesTrimmedMean010)), MajorGridLines: true, Minimum: float(0), Maximum: float(10), Font: tickFont},
		VaryColors: boolp(false),
		Dimension:  excelize.ChartDimension{Width: 520, Height: 300},
	})
	return g
}

// judgeTrimmedMeans is Table 2: the trimmed means of the three answer sets
// per dimension, and how many items each dimension's subset holds. It
// returns the header row and the first set's row, which the chart reads.
func (w *writer) judgeTrimmedMeans(g *sheetPage, j cube.JudgeResult, cols, titles []string) (head, first int) {
	g.block()
	g.label(fmt.Sprintf(w.say(judgesTrimmedMeansThree), 100*w.s.Trim))
	head = g.headerN(2, append([]string{w.say(judgesAnswerSet)}, titles...)...)
	first = g.row
	for _, set := range sets {
		cells := []any{w.setName(set)}
		for _, d := range cols {
			cells = append(cells, j.TrimmedMeans[set][d])
		}
		g.line(cells...)
	}
	nCells := []any{w.say(judgesItemsSubset)}
	for _, d := range w.dims {
		nCells = append(nCells, j.SubsetN[d])
	}
	g.line(nCells...)
	g.skip(1)
	return head, first
}

// judgeWeights is Table 3: the dimensions' weights, where they came from,
// and the correlations behind them.
func (w *writer) judgeWeights(g *sheetPage, j cube.JudgeResult, titles []string) {
	g.block()
	g.label(w.say(judgesDimensionWeightsCorrelations))
	g.headerN(2, append([]string{w.say(txtSource)}, titles[:len(w.dims)]...)...)
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
		g.line(styled{j.WeightNote.In(w.lang), w.st.note})
	}
	cc := []any{w.say(judgesRAllCases)}
	cr := []any{w.say(judgesRRetrievedCases)}
	for _, d := range w.dims {
		cc = append(cc, j.CorrelationAll[d])
		cr = append(cr, j.CorrelationRetrieved[d])
	}
	g.line(cc...)
	g.line(cr...)
	g.skip(1)
}

// judgeBounded is Table 4: the bounded scores, Recall@k and the CuBE score
// with its interval.
func (w *writer) judgeBounded(g *sheetPage, j cube.JudgeResult, cols, titles []string) {
	g.block()
	g.label(w.say(judgesBoundedScores100))
	g.headerN(2, append([]string{""}, titles...)...)
	nc := []any{w.say(judgesBoundedScore)}
	for _, d := range cols {
		nc = append(nc, j.Normalized[d])
	}
	g.line(nc...)
	g.line(styled{glossary.GuideRecallAt(w.s.TopN, w.lang), w.st.label}, pct{w.s.RecallAtK})
	g.line(styled{w.say(judgesCuBEScoreWeighted), w.st.label}, j.Cube)
	var lo, hi *float64
	if j.CubeCI95 != nil {
		lo, hi = &j.CubeCI95[0], &j.CubeCI95[1]
	}
	g.line(styled{w.intervalName(), w.st.label}, lo, hi)
	g.skip(1)
}

// judgeUnscorable is how many judgements the judge made, which it could
// not score, and its flags.
func (w *writer) judgeUnscorable(g *sheetPage, j cube.JudgeResult) {
	g.line(styled{w.say(judgesJudgements), w.st.label}, j.Judgements)
	g.line(styled{w.say(judgesWhichUnscorable), w.st.label}, j.Unscorable)
	for _, set := range sets {
		for _, d := range w.dims {
			if n := j.UnscorableBy[set][d]; n > 0 {
				g.line(fmt.Sprintf("  %s · %s", set, w.dimTitle(d)), n)
			}
		}
	}
	if len(j.Flags) > 0 {
		g.line(styled{w.say(judgesFlags), w.st.label}, styled{w.flags(j.Flags), w.st.note})
	}
}

func (w *writer) weightSource(s string) string {
	t, ok := judgesWeightSources[s]
	if !ok {
		return s
	}
	return w.say(t)
}

// judgesSheet is all judges side by side with the mean ± SD row (the
// paper's Table 4, last row), and the score histograms.
func (w *writer) judgesSheet() error { return w.writePage(w.judgesPage()) }

// judgesPage is every judge side by side, the CuBE score per judge as a
// native chart with its intervals, and the score histograms.
func (w *writer) judgesPage() *sheetPage {
	g := w.newPage(SheetJudges)
	if w.s.Result == nil || len(w.s.Judges) == 0 {
		g.line(styled{w.say(judgesNoJudgeScored), w.st.note})
		return g
	}
	cols := append(append([]string{}, w.dims...), cube.Weighted)
	widths := []float64{24}
	for range cols {
		widths = append(widths, 13)
	}
	g.Widths = append(widths, 12, 12, 12, 12, 12, 40)
	g.block()
	g.title(w.say(judgesAllJudgesSide))
	g.skip(1)
	head := []string{w.say(txtJudge)}
	for _, d := range cols {
		head = append(head, w.dimTitle(d))
	}
	head = append(head, w.say(txtCuBEScore), w.say(txtLow95), w.say(txtHigh95), w.say(judgesJudgementCount), w.say(judgesUnscorable), w.say(judgesFlags))
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
	mean, sd, both := []any{styled{w.say(txtMeanAcrossJudges), w.st.label}}, []any{styled{w.say(txtSpreadAcrossJudges), w.st.label}}, []any{styled{w.say(judgesMeanPMSD), w.st.label}}
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
	w.judgesCubeChart(g)
	w.judgesHistograms(g)
	return g
}

// judgesCubeChart is the CuBE score per judge as a native chart over its
// table, its intervals as error bars.
func (w *writer) judgesCubeChart(g *sheetPage) {
	// CuBE per judge as a native chart with its intervals as error bars
	// (plus/minus distances in the two columns beside it), for readers who
	// restyle charts in Excel.
	g.block()
	g.label(w.say(judgesCuBEScoreJudge))
	g.headerN(2, w.say(txtJudge), w.say(txtCuBEScore), w.say(txtLow95), w.say(txtHigh95),
		w.say(judgesHigh), w.say(judgesLow))
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
	g.chartWithErrBars(fmt.Sprintf("A%d", chartRow), &excelize.Chart{
		Type:       excelize.Col,
		Series:     []excelize.ChartSeries{{Name: "CuBE", Categories: ref(g.Name, 1, cubeFirst, 1, cubeLast), Values: ref(g.Name, 2, cubeFirst, 2, cubeLast), Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"0072B2"}}}},
		Title:      chartTitle(w.say(judgesCuBEScoreJudgeError)),
		Legend:     excelize.ChartLegend{Position: "none"},
		XAxis:      excelize.ChartAxis{Title: chartTitle(w.say(txtJudge)), Font: tickFont},
		YAxis:      excelize.ChartAxis{Title: chartTitle(w.say(txtCuBEScore)), MajorGridLines: true, Minimum: float(0), Font: tickFont},
		PlotArea:   excelize.ChartPlotArea{ShowVal: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0.0"}},
		VaryColors: boolp(false),
		Dimension:  excelize.ChartDimension{Width: 520, Height: 320},
	}, ref(g.Name, 5, cubeFirst, 5, cubeLast), ref(g.Name, 6, cubeFirst, 6, cubeLast))
	g.skip(19)
}

// judgesHistograms are the score histograms per judge and dimension.
func (w *writer) judgesHistograms(g *sheetPage) {
	// Histograms of the rag scores per judge × dimension (CuBE Figure 1),
	// from the data the window draws them from.
	samples := figures.Histograms(w.s.Result, w.dimTitle)
	g.block()
	g.label(w.say(judgesDistributionSystemS))
	g.picture(fmt.Sprintf("A%d", g.row), func(o chart.Options) (*chart.Figure, error) {
		return chart.Histograms(samples, o)
	}, w.say(judgesHistogramsRagScores))
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
		return fmt.Sprintf(w.say(judgesValueWith), *m.Mean, w.onlyOneJudge())
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
func (w *writer) qualificationBlock(g *sheetPage, j cube.JudgeResult) {
	if j.Qualification == nil {
		return
	}
	g.block()
	head := w.say(judgesJudgeQualificationCounted)
	if !j.Counted() {
		head = w.say(judgesQualificationNotCounted)
	}
	g.label(head)
	status := map[string]string{cube.CheckPass: w.say(judgesPass), cube.CheckFail: w.say(judgesFail), cube.CheckShown: w.say(judgesShownOnly)}
	for _, c := range j.Qualification {
		g.line(status[c.Status], c.Reason.In(w.lang))
	}
	g.skip(1)
}
