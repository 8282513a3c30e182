package report

import (
	"fmt"
	"path/filepath"
	"strings"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/figures"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// Page is the one printed page a director reads: every word of the
// Summary sheet, built once so the sheet and the PDF brief (and anything
// else that shows the page) say the same thing.
type Page struct {
	Lang    text.Lang
	Title   string
	About   string   // what was evaluated, in one line
	Notices []string // sample data, baseline judge, Recall@k missing: shown loud
	// VerdictCode is the verdict's code (deployable, needs_work, not_ready,
	// undetermined), Verdict its words and VerdictRule the thresholds it
	// was read against, as one complete sentence.
	VerdictCode          result.VerdictCode
	Verdict, VerdictRule string
	// Headline is the score with its interval in words.
	Headline string
	Figures  []PageFigure
	// Why are the reasons behind the verdict, Advice what to do next, each
	// a complete sentence with its priority.
	Why    []string
	Advice []PageAdvice
	Judges PageJudges
	Charts []PageChart
	// Footer says where the rest of the report is and what is not printed.
	Footer string
}

// PageFigure is one headline figure: a label, its value (nil = n/a, or a
// text where no number applies) and what it means.
type PageFigure struct {
	Label   string
	Short   string // the name over the number in the key-numbers row
	Value   *float64
	Hi      *float64 // the upper end, for an interval
	Text    string   // shown instead of Value when set
	Percent bool
	Int     bool // a count
	// Interval marks the interval (two numbers, low and high, even when
	// undefined); Bold the score itself.
	Interval, Bold bool
	Meaning        string
}

// PageAdvice is one recommendation with its priority in words.
type PageAdvice struct {
	Severity string // high | medium | low
	Priority string // the severity in the page's language
	Text     string
}

// PageJudges is the small table of the judges.
type PageJudges struct {
	Header []string
	Rows   []PageJudge
	Mean   PageJudge
}

// PageJudge is one row of the judges table.
type PageJudge struct {
	Name, Kind string
	Cube       *float64
	Lo, Hi     *float64
	Note       string
	// NotCounted says why the judge is left out of the verdict (its
	// qualification failed); "" when it is counted.
	NotCounted string
}

// PageChart is a chart of the page, built at the size it is printed.
type PageChart struct {
	Alt   string
	Build func(o chart.Options) (*chart.Figure, error)
}

// NewPage builds the page of s in lang (English unless text.ZH) under
// profile p.
func NewPage(s *result.Summary, p profile.Profile, lang text.Lang) Page {
	lang = reportLang(lang)
	w := &writer{s: s, lang: lang, in: Input{Summary: s, Profile: p, Lang: lang}}
	if s.Result != nil {
		for _, j := range s.Judges {
			w.judges = append(w.judges, j.Judge)
		}
		w.dims = s.Dimensions
	}
	return w.page()
}

func (w *writer) page() Page {
	s := w.s
	pg := Page{Lang: w.lang, Title: w.say(pageCuBEEvaluationCan)}
	pg.About = w.about()
	pg.Notices = w.notices()
	v := s.Verdict
	pg.VerdictCode = v.Code
	pg.Verdict = v.Text.In(w.lang)
	if pg.Verdict == "" {
		pg.Verdict = result.Undetermined.Words(w.lang)
	}
	pg.VerdictRule = w.verdictRule()
	pg.Headline = w.headlineWords()
	pg.Figures = w.pageFigures()
	pg.Why, pg.Advice = w.whyAndAdvice()
	pg.Judges = w.pageJudges()
	pg.Charts = w.pageCharts()
	pg.Footer = w.say(pageMethodEveryJudge)
	return pg
}

// about names what was evaluated in one line: workbook, system under test,
// judges, date, tool version.
func (w *writer) about() string {
	s := w.s
	var parts []string
	if s.Run.Workbook != "" {
		parts = append(parts, w.say(glossaryName(glossary.Workbook))+w.say(pageLabelSep)+filepath.Base(s.Run.Workbook))
	}
	parts = append(parts, w.say(glossaryTerm(glossary.SystemUnderTest))+w.say(txtColon)+w.systemUnderTest())
	var judges []string
	for _, j := range w.judgeInfos() {
		name := w.judgeName(j.Name)
		if j.Kind == "lexical" || j.Kind == "semantic" { // the offline baselines
			name += w.say(pageNotLLM)
		} else if j.Model != "" && j.Model != j.Name {
			name += " (" + j.Model + ")"
		}
		judges = append(judges, name)
	}
	if len(judges) == 0 {
		judges = w.judges
	}
	if len(judges) > 0 {
		parts = append(parts, w.say(pageJudges)+strings.Join(judges, w.say(pageComma)))
	}
	if !s.Run.Finished.IsZero() {
		parts = append(parts, w.say(pageDate)+s.Run.Finished.Format("2006-01-02"))
	}
	if s.ToolVersion != "" {
		parts = append(parts, "CuBE Workbench "+s.ToolVersion)
	}
	return strings.Join(parts, w.say(pageDot))
}

// notices are the facts a reader must not miss: the data is the bundled
// fictional sample, the only judge is the offline baseline, Recall@k is
// missing or measures naming.
func (w *writer) notices() []string {
	s := w.s
	var out []string
	if e := s.Explanation; e != nil {
		// core/explain's banners: the same words as the window's.
		for _, b := range e.Banners {
			out = append(out, w.say(text.New(b.ZH, b.EN)))
		}
	} else {
		// A summary made before explanations (an old SUMMARY.json): the
		// baseline notice from the judges the run recorded.
		infos := w.judgeInfos()
		lexical := 0
		for _, j := range infos {
			if j.Kind == "lexical" || j.Kind == "semantic" { // the offline baselines
				lexical++
			}
		}
		if lexical > 0 && lexical == len(infos) {
			out = append(out, fmt.Sprintf(w.say(pageOnlyBaseline), w.term(glossary.BaselineJudge)))
		}
	}
	if dm := s.DocMapping; dm != nil && (dm.Loud() || dm.RecallMissing()) {
		msgs := dm.Messages(w.lang, 1)
		if len(msgs) > 0 {
			out = append(out, msgs[0])
		}
	}
	if s.Result != nil && s.RecallNA != nil {
		out = append(out, w.say(text.New(s.RecallNA.ZH, s.RecallNA.EN)))
	} else if s.Result != nil && s.RecallAtK == nil && (s.DocMapping == nil || !s.DocMapping.RecallMissing()) {
		out = append(out, w.say(pageGuideRecallAtK))
	}
	return append(out, w.spotCheckNotice()...)
}

// verdictRule says which thresholds the verdict was read against, as one
// complete sentence.
func (w *writer) verdictRule() string {
	v := w.s.Verdict
	c := w.say(pageNoCuBEScore)
	if v.Cube != nil {
		c = fmt.Sprintf(w.say(pageCuBEScore), *v.Cube)
	}
	return fmt.Sprintf(w.say(pageMoreDeployableUp),
		c, v.Deployable, v.NeedsWork, result.Deployable.Words(w.lang), result.NeedsWork.Words(w.lang), result.NotReady.Words(w.lang))
}

// resamples is the number of resamples behind the intervals.
func (w *writer) resamples() int {
	if w.s.Result != nil && w.s.BootstrapB > 0 {
		return w.s.BootstrapB
	}
	return w.in.Profile.Bootstrap
}

// intervalName is the 95 % interval in words a director uses.
func (w *writer) intervalName() string {
	return glossary.Interval95With(w.resamples(), w.lang)
}

// headlineWords is the score with its interval and recall in one sentence.
func (w *writer) headlineWords() string {
	s := w.s
	if s.Result == nil || s.Aggregate.Cube.Mean == nil {
		return w.say(pageNoCuBEScoreCould)
	}
	agg := s.Aggregate
	out := fmt.Sprintf(w.say(pageCuBEScoreOut), *agg.Cube.Mean)
	if agg.CubeCI95 != nil {
		out += fmt.Sprintf(w.say(pageRuns), w.intervalName(), agg.CubeCI95[0], agg.CubeCI95[1])
	}
	if s.RecallAtK != nil {
		out += fmt.Sprintf(w.say(pageGoldGuideAmong), w.recallArgs(*s.RecallAtK)...)
	}
	if agg.Cube.N == 1 {
		out += w.say(pageOneJudgeOnly)
	}
	return out + w.say(pageFullStop)
}

func (w *writer) recallArgs(r float64) []any {
	if w.lang == text.ZH {
		return []any{100 * r, w.s.TopN}
	}
	return []any{w.s.TopN, 100 * r}
}

// onlyOneJudge is what stands where a spread across judges would be.
func (w *writer) onlyOneJudge() string { return w.say(pageSingleJudge) }

// term is the glossary's name of a thing in the report's language.
func (w *writer) term(id glossary.ID) string { return glossary.Term(id, w.lang) }

func (w *writer) pageFigures() []PageFigure {
	s := w.s
	var agg cube.Aggregate
	var recall *float64
	topN, items, retrieved, unknownGold := w.in.Profile.TopN, 0, 0, 0
	subsetAll := false
	if s.Result != nil {
		agg, recall, topN, items, retrieved, unknownGold = s.Aggregate, s.RecallAtK, s.TopN, s.Items, s.Retrieved, s.UnknownGold
		subsetAll = s.Subset == cube.SubsetAll
	}
	var lo, hi *float64
	if agg.CubeCI95 != nil {
		lo, hi = &agg.CubeCI95[0], &agg.CubeCI95[1]
	}
	sd := PageFigure{Label: w.say(txtSpreadAcrossJudges), Short: w.say(pageSpreadSD), Value: agg.Cube.SD,
		Meaning: fmt.Sprintf(w.say(pageHowFarJudges), agg.Cube.N)}
	if agg.Cube.SD == nil && agg.Cube.N == 1 {
		sd.Text, sd.Meaning = w.onlyOneJudge(), w.say(pageAddSecondJudge)
	}
	effName := w.say(pageEffectivenessWhenGuide)
	if subsetAll {
		effName = w.say(pageEffectivenessAllQuestions)
	}
	recallMeaning := fmt.Sprintf(w.say(pageQuestionsKnownGold), retrieved, items-unknownGold, topN, unknownGold)
	recallFig := PageFigure{Label: fmt.Sprintf(w.say(pageGuideRecallAt), topN), Value: recall, Percent: true, Meaning: recallMeaning}
	if recall == nil && s.Result != nil {
		recallFig.Text = w.say(pageMissingNot0)
		recallFig.Meaning = w.say(pageNoQuestionHad)
	}
	return []PageFigure{
		{Label: w.say(pageCuBEScoreMean), Short: w.term(glossary.CubeScore), Value: agg.Cube.Mean, Bold: true,
			Meaning: w.say(pageCubeMeaning)},
		sd,
		{Label: w.intervalName(), Short: w.intervalName(), Value: lo, Hi: hi, Interval: true,
			Meaning: w.say(pageRangeScoreWould)},
		recallFig,
		{Label: effName, Short: w.say(pageEffectiveness), Value: agg.Normalized[cube.Weighted].Mean,
			Meaning: w.say(pageEffectivenessMeaning)},
		{Label: w.say(pageQuestionsEvaluated), Short: w.say(txtQuestions), Value: floatp(float64(items)), Int: true,
			Meaning: w.say(pageQuestionsWorkbookEvaluation)},
		{Label: w.say(pageUnscorableJudgements), Short: capitalize(w.term(glossary.Unscorable)), Value: floatp(float64(s.Run.Unscorable)), Int: true,
			Meaning: w.say(pageJudgeRepliesCould)},
	}
}

func floatp(v float64) *float64 { return &v }

// whyAndAdvice are the reasons (core/explain's bullets) and the
// recommendations (explain's, which carry CuBE's rules on; CuBE's own for
// a summary made before explanations).
func (w *writer) whyAndAdvice() ([]string, []PageAdvice) {
	s := w.s
	if s.Result == nil && s.Explanation == nil {
		return nil, nil
	}
	var why []string
	type rec struct{ sev, en, zh string }
	var recs []rec
	if e := s.Explanation; e != nil {
		for _, b := range e.Bullets {
			why = append(why, w.say(text.New(b.ZH, b.EN)))
		}
	}
	for _, r := range s.Recommendations() { // the one list, as SUMMARY.json has it
		recs = append(recs, rec{r.Severity, r.EN, r.ZH})
	}
	var adv []PageAdvice
	for _, r := range recs {
		a := PageAdvice{Severity: r.sev, Text: w.say(text.New(r.zh, r.en))}
		switch r.sev {
		case "high":
			a.Priority = w.say(pageHigh)
		case "medium":
			a.Priority = w.say(pageMedium)
		default:
			a.Severity, a.Priority = "low", w.say(pageLow)
		}
		adv = append(adv, a)
	}
	return why, adv
}

func (w *writer) pageJudges() PageJudges {
	s := w.s
	pj := PageJudges{Header: []string{w.say(txtJudge), w.say(txtKind), w.say(txtCuBEScore),
		w.say(txtLow95), w.say(txtHigh95), w.say(txtNote)}}
	if s.Result == nil {
		return pj
	}
	kinds := map[string]string{}
	for _, j := range s.Run.Judges {
		kinds[j.Name] = j.Kind
	}
	for _, j := range s.Judges {
		r := PageJudge{Name: w.judgeName(j.Judge), Kind: w.shortKind(kinds[j.Judge]), Cube: j.Cube}
		if j.CubeCI95 != nil {
			r.Lo, r.Hi = &j.CubeCI95[0], &j.CubeCI95[1]
		}
		if j.Cube == nil {
			r.Note = w.say(pageNoScore) + w.flags(j.Flags)
		}
		if !j.Counted() {
			var why []string
			for _, t := range j.QualificationReasons {
				why = append(why, t.In(w.lang))
			}
			r.NotCounted = strings.Join(why, w.say(txtSemicolon))
			r.Note = glossary.Term(glossary.JudgeNotCounted, w.lang) + w.say(txtColon) + r.NotCounted
		}
		pj.Rows = append(pj.Rows, r)
	}
	agg := s.Aggregate
	m := PageJudge{Name: w.say(txtMeanAcrossJudges), Cube: agg.Cube.Mean}
	if agg.CubeCI95 != nil {
		m.Lo, m.Hi = &agg.CubeCI95[0], &agg.CubeCI95[1]
	}
	switch {
	case agg.Cube.SD != nil:
		m.Note = fmt.Sprintf(w.say(pageSD), *agg.Cube.SD)
	case agg.Cube.N == 1:
		m.Note = w.onlyOneJudge()
	}
	pj.Mean = m
	return pj
}

// pageCharts are the CuBE score per judge and the three answer sets per
// dimension (mean across judges), drawn by core/chart as the window draws
// them.
func (w *writer) pageCharts() []PageChart {
	s := w.s
	if s.Result == nil || len(s.Judges) == 0 {
		return nil
	}
	r := s.Result
	// The dimensions only: the weighted total is the effectiveness figure
	// above, and four groups of bars stay legible at half a page wide.
	bounds := chart.Bounds{Dimensions: append([]string{}, r.Dimensions...)}
	for _, d := range bounds.Dimensions {
		for set, dst := range map[string]*[]*float64{dataset.SetZero: &bounds.Zero, dataset.SetRAG: &bounds.RAG, dataset.SetFull: &bounds.Full} {
			var vals []*float64
			for _, j := range r.Judges {
				vals = append(vals, j.TrimmedMeans[set][d])
			}
			*dst = append(*dst, meanDefined(vals))
		}
	}
	for i, d := range bounds.Dimensions {
		bounds.Dimensions[i] = w.dimTitle(d)
	}
	return []PageChart{
		{Alt: w.say(pageCuBEScoreJudge),
			Build: func(o chart.Options) (*chart.Figure, error) { return chart.CuBEBars(figures.JudgeScores(r), o) }},
		{Alt: w.say(pageWhereSystemSits),
			Build: func(o chart.Options) (*chart.Figure, error) {
				o.Title = w.say(pageTrimmedMeansThree)
				if len(r.Judges) > 1 {
					o.Title += w.say(pageMeanJudges)
				}
				return chart.BoundsBars(bounds, o)
			}},
	}
}

// shortKind names a judge's kind in a narrow column.
func (w *writer) shortKind(k string) string {
	switch k {
	case "llm":
		return w.say(pageLLM)
	case "lexical", "semantic":
		return w.say(pageBaseline)
	case "imported":
		return w.say(txtImported)
	}
	return k
}

// capitalize starts an English header with a capital (glossary terms are
// lower case for use inside sentences); Chinese is returned as it is.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
