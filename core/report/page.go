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
	Lang    string
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

// NewPage builds the page of s in lang ("zh" or English) under profile p.
func NewPage(s *result.Summary, p profile.Profile, lang string) Page {
	if lang != "zh" {
		lang = "en"
	}
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
	pg := Page{Lang: w.lang, Title: w.t("CuBE evaluation — can the RAG assistant be deployed?", "CuBE 评估报告 —— 智能问答系统能否上线？")}
	pg.About = w.about()
	pg.Notices = w.notices()
	v := s.Verdict
	pg.VerdictCode = v.Code
	pg.Verdict = v.Text.In(text.Lang(w.lang))
	if pg.Verdict == "" {
		pg.Verdict = result.Undetermined.Words(text.Lang(w.lang))
	}
	pg.VerdictRule = w.verdictRule()
	pg.Headline = w.headlineWords()
	pg.Figures = w.pageFigures()
	pg.Why, pg.Advice = w.whyAndAdvice()
	pg.Judges = w.pageJudges()
	pg.Charts = w.pageCharts()
	pg.Footer = w.t("Method, every judge, every question (worst first) and the problems met follow on the next sheets. The sheets guides, qa, scores and human are the data for re-opening the report and are not printed.",
		"方法、各评审模型、逐题结果（最差的排在最前）和运行中的问题见后面各表。guides、qa、scores、human 四张表是重新打开报告所需的数据，不打印。")
	return pg
}

// about names what was evaluated in one line: workbook, system under test,
// judges, date, tool version.
func (w *writer) about() string {
	s := w.s
	var parts []string
	if s.Run.Workbook != "" {
		parts = append(parts, w.t("Workbook ", "数据：")+filepath.Base(s.Run.Workbook))
	}
	parts = append(parts, w.t("system under test: ", "被测系统：")+w.systemUnderTest())
	var judges []string
	for _, j := range w.judgeInfos() {
		name := w.judgeName(j.Name)
		if j.Kind == "lexical" || j.Kind == "semantic" { // the offline baselines
			name += w.t(" (not an LLM)", "（非大模型）")
		} else if j.Model != "" && j.Model != j.Name {
			name += " (" + j.Model + ")"
		}
		judges = append(judges, name)
	}
	if len(judges) == 0 {
		judges = w.judges
	}
	if len(judges) > 0 {
		parts = append(parts, w.t("judges: ", "评审模型：")+strings.Join(judges, w.t(", ", "、")))
	}
	if !s.Run.Finished.IsZero() {
		parts = append(parts, w.t("date ", "日期：")+s.Run.Finished.Format("2006-01-02"))
	}
	if s.ToolVersion != "" {
		parts = append(parts, "CuBE Workbench "+s.ToolVersion)
	}
	return strings.Join(parts, w.t(" · ", " · "))
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
			out = append(out, w.t(b.EN, b.ZH))
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
			out = append(out, w.t("Only the "+glossary.Term(glossary.BaselineJudge, "en")+" scored this run: it scores word overlap; the verdict shows the method only and is no ground for deployment.",
				"仅有"+glossary.Term(glossary.BaselineJudge, "zh")+"：按词语重合打分；本结论只能用于演示流程，不能作为部署依据。"))
		}
	}
	if dm := s.DocMapping; dm != nil && (dm.Loud() || dm.RecallMissing()) {
		msgs := dm.Messages(w.lang, 1)
		if len(msgs) > 0 {
			out = append(out, msgs[0])
		}
	}
	if s.Result != nil && s.RecallNA != nil {
		out = append(out, w.t(s.RecallNA.EN, s.RecallNA.ZH))
	} else if s.Result != nil && s.RecallAtK == nil && (s.DocMapping == nil || !s.DocMapping.RecallMissing()) {
		out = append(out, w.t("Guide recall@k is missing (not 0): no question has a known gold guide and a retrieved list, so the CuBE score cannot be computed.",
			"指南召回率@k 缺失（不是 0）：没有一个问题同时具有已知的标准指南和检索结果，因此无法计算 CuBE 得分。"))
	}
	return append(out, w.spotCheckNotice()...)
}

// verdictRule says which thresholds the verdict was read against, as one
// complete sentence.
func (w *writer) verdictRule() string {
	v := w.s.Verdict
	c := w.t("no CuBE score", "没有 CuBE 得分")
	if v.Cube != nil {
		c = fmt.Sprintf(w.t("CuBE score %.2f", "CuBE 得分 %.2f"), *v.Cube)
	}
	return fmt.Sprintf(w.t("%[1]s; %[2]g or more is deployable, %[3]g up to %[2]g needs work, below %[3]g is not ready (thresholds of the evaluation profile).",
		"%[1]s；得分 ≥ %[2]g 为%[4]s，%[3]g 至 %[2]g 之间为%[5]s，低于 %[3]g 为%[6]s（阈值来自评估配置）。"),
		c, v.Deployable, v.NeedsWork, result.Deployable.Words(text.Lang(w.lang)), result.NeedsWork.Words(text.Lang(w.lang)), result.NotReady.Words(text.Lang(w.lang)))
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
	return glossary.Interval95With(w.resamples(), text.Lang(w.lang))
}

// headlineWords is the score with its interval and recall in one sentence.
func (w *writer) headlineWords() string {
	s := w.s
	if s.Result == nil || s.Aggregate.Cube.Mean == nil {
		return w.t("No CuBE score could be computed, so there is no verdict; the notices above and the Problems sheet say why.",
			"未能算出 CuBE 得分，因此无法判定；原因见上方提示和“异常 Problems”表。")
	}
	agg := s.Aggregate
	out := fmt.Sprintf(w.t("The CuBE score is %.1f out of 100", "CuBE 得分为 %.1f（满分 100）"), *agg.Cube.Mean)
	if agg.CubeCI95 != nil {
		out += fmt.Sprintf(w.t("; its %s runs from %.1f to %.1f", "，%s为 %.1f 至 %.1f"), w.intervalName(), agg.CubeCI95[0], agg.CubeCI95[1])
	}
	if s.RecallAtK != nil {
		out += fmt.Sprintf(w.t("; the gold guide was among the first %d retrieved for %.0f %% of the questions", "；%.0f %% 的问题在前 %d 个检索结果中找到了标准指南"), w.recallArgs(*s.RecallAtK)...)
	}
	if agg.Cube.N == 1 {
		out += w.t(" (one judge only)", "（仅 1 个评审模型）")
	}
	return out + w.t(".", "。")
}

func (w *writer) recallArgs(r float64) []any {
	if w.lang == "zh" {
		return []any{100 * r, w.s.TopN}
	}
	return []any{w.s.TopN, 100 * r}
}

// onlyOneJudge is what stands where a spread across judges would be.
func (w *writer) onlyOneJudge() string { return w.t("1 judge only", "仅 1 个评审模型") }

// term is the glossary's name of a thing in the report's language.
func (w *writer) term(id glossary.ID) string { return glossary.Term(id, text.Lang(w.lang)) }

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
	sd := PageFigure{Label: w.t("Spread across judges (SD)", "评审模型之间的标准差"), Short: w.t("Spread (SD)", "评审间标准差"), Value: agg.Cube.SD,
		Meaning: fmt.Sprintf(w.t("how far the %d judges with a score differ from each other", "%d 个有得分的评审模型彼此相差多少"), agg.Cube.N)}
	if agg.Cube.SD == nil && agg.Cube.N == 1 {
		sd.Text, sd.Meaning = w.onlyOneJudge(), w.t("add a second judge to see how far judges differ", "增加第二个评审模型，才能看出评审之间的差异")
	}
	effName := w.t("Effectiveness when the guide was retrieved", "检索命中时的回答有效性")
	if subsetAll {
		effName = w.t("Effectiveness on all questions", "全部问题的回答有效性")
	}
	recallMeaning := fmt.Sprintf(w.t("%d of the %d questions with a known gold guide found it among the first %d retrieved (%d questions have none and are left out)",
		"%d / %d 个已知标准指南的问题在前 %d 个检索结果中找到了它（另有 %d 个问题没有标准指南，不计入）"), retrieved, items-unknownGold, topN, unknownGold)
	recallFig := PageFigure{Label: fmt.Sprintf(w.t("Guide recall@%d", "指南召回率@%d"), topN), Value: recall, Percent: true, Meaning: recallMeaning}
	if recall == nil && s.Result != nil {
		recallFig.Text = w.t("missing (not 0)", "缺失（不是 0）")
		recallFig.Meaning = w.t("no question had both a known gold guide and a retrieved list; see the notice above", "没有问题同时具有已知的标准指南和检索结果；见上方提示")
	}
	return []PageFigure{
		{Label: w.t("CuBE score (mean across judges)", "CuBE 得分（各评审模型均值）"), Short: w.term(glossary.CubeScore), Value: agg.Cube.Mean, Bold: true,
			Meaning: w.t("0–100: where the system sits between the bare model without documents (0) and the model given the right guide (100), times the guide recall",
				"0–100：被测系统介于“不给文档的裸模型”（0）与“给定正确指南的模型”（100）之间的位置，再乘以指南召回率")},
		sd,
		{Label: w.intervalName(), Short: w.intervalName(), Value: lo, Hi: hi, Interval: true,
			Meaning: w.t("the range the score would likely fall in with other questions of the same kind (low – high)",
				"换一批同类问题时，得分大概率落在的范围（下限 – 上限）")},
		recallFig,
		{Label: effName, Short: w.t("Effectiveness", "回答有效性"), Value: agg.Normalized[cube.Weighted].Mean,
			Meaning: w.t("0–100: the bounded score, averaged over the judges, of the answers whose guide was retrieved",
				"0–100：检索到标准指南时，被测系统回答的上下界归一化得分（各评审模型均值）")},
		{Label: w.t("Questions evaluated", "评估的问题数"), Short: w.t("Questions", "问题数"), Value: floatp(float64(items)), Int: true,
			Meaning: w.t("questions of the workbook the evaluation read", "本次评估读取的工作簿问题数")},
		{Label: w.t("Unscorable judgements", "无法评分的评分"), Short: capitalize(w.term(glossary.Unscorable)), Value: floatp(float64(s.Run.Unscorable)), Int: true,
			Meaning: w.t("judge replies that could not be read as a score; left out of every mean, never counted as 0", "无法解析为分数的评审回复；不计入任何平均，也不按 0 分处理")},
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
			why = append(why, w.t(b.EN, b.ZH))
		}
	}
	for _, r := range s.Recommendations() { // the one list, as SUMMARY.json has it
		recs = append(recs, rec{r.Severity, r.EN, r.ZH})
	}
	var adv []PageAdvice
	for _, r := range recs {
		a := PageAdvice{Severity: r.sev, Text: w.t(r.en, r.zh)}
		switch r.sev {
		case "high":
			a.Priority = w.t("high", "高")
		case "medium":
			a.Priority = w.t("medium", "中")
		default:
			a.Severity, a.Priority = "low", w.t("low", "低")
		}
		adv = append(adv, a)
	}
	return why, adv
}

func (w *writer) pageJudges() PageJudges {
	s := w.s
	pj := PageJudges{Header: []string{w.t("Judge", "评审模型"), w.t("Kind", "类型"), w.t("CuBE score", "CuBE 得分"),
		w.t("95 % low", "区间下限"), w.t("95 % high", "区间上限"), w.t("Note", "说明")}}
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
			r.Note = w.t("no score: ", "没有得分：") + w.flags(j.Flags)
		}
		if !j.Counted() {
			var why []string
			for _, t := range j.QualificationReasons {
				why = append(why, t.In(text.Lang(w.lang)))
			}
			r.NotCounted = strings.Join(why, w.t("; ", "；"))
			r.Note = glossary.Term(glossary.JudgeNotCounted, text.Lang(w.lang)) + w.t(": ", "：") + r.NotCounted
		}
		pj.Rows = append(pj.Rows, r)
	}
	agg := s.Aggregate
	m := PageJudge{Name: w.t("Mean across judges", "各评审模型均值"), Cube: agg.Cube.Mean}
	if agg.CubeCI95 != nil {
		m.Lo, m.Hi = &agg.CubeCI95[0], &agg.CubeCI95[1]
	}
	switch {
	case agg.Cube.SD != nil:
		m.Note = fmt.Sprintf(w.t("SD %.2f", "标准差 %.2f"), *agg.Cube.SD)
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
		{Alt: w.t("CuBE score per judge with its 95 % interval", "各评审模型的 CuBE 得分及 95 % 置信区间"),
			Build: func(o chart.Options) (*chart.Figure, error) { return chart.CuBEBars(figures.JudgeScores(r), o) }},
		{Alt: w.t("Where the system sits between its bounds", "被测系统在上下界之间的位置"),
			Build: func(o chart.Options) (*chart.Figure, error) {
				o.Title = w.t("Trimmed means of the three answer sets", "三组答案的截尾均值")
				if len(r.Judges) > 1 {
					o.Title += w.t(" (mean of judges)", "（各评审模型均值）")
				}
				return chart.BoundsBars(bounds, o)
			}},
	}
}

// shortKind names a judge's kind in a narrow column.
func (w *writer) shortKind(k string) string {
	switch k {
	case "llm":
		return w.t("LLM", "大模型")
	case "lexical", "semantic":
		return w.t("baseline", "基线评审")
	case "imported":
		return w.t("imported", "导入")
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
