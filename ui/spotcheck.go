package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/humancheck"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// spotTab is the human spot check (人工抽检): after an evaluation it shows
// people's ratings beside the judges' (the paper's Table 5, the agreement
// of each judge with people, which judge to trust), draws a sample for
// people to rate, and swaps itself for the blind rating screen while they
// rate. Everything it computes comes from core/session.
type spotTab struct {
	sh   shell
	sess func() *session.Session
	root *fyne.Container // the results view or the rating screen

	status  *widget.Label
	size    *widget.Entry
	rater   *widget.Entry
	draw    *widget.Button
	rate    *widget.Button
	results *fyne.Container
	view    fyne.CanvasObject

	shown *humancheck.Result
	// cells are the results' figures by key, for the tests: "t5|row|col"
	// (col "people" or a judge) and "ag|judge|dimension|alpha|rho|mad".
	cells  map[string]*widget.Label
	rating *ratingScreen
	// confirmed skips the question before a new draw replaces a rated one.
	confirmed bool
}

func (t *spotTab) lang() text.Lang { return t.sh.lang() }

func (t *spotTab) t(zh, en string) string { return text.New(zh, en).In(t.lang()) }

func newSpotTab(sh shell, sess func() *session.Session) *spotTab {
	t := &spotTab{sh: sh, sess: sess, cells: map[string]*widget.Label{}}
	t.status = wrapLabel("")
	t.size = widget.NewEntry()
	t.size.SetText(strconv.Itoa(humancheck.DefaultN))
	t.rater = widget.NewEntry()
	t.rater.SetPlaceHolder(t.t("评分人姓名", "your name"))
	t.draw = widget.NewButtonWithIcon(t.t("抽取样本", "Draw a sample"), theme.ViewRefreshIcon(), t.drawSample)
	t.rate = widget.NewButtonWithIcon(t.t("开始评分", "Rate answers"), theme.DocumentCreateIcon(), t.startRating)
	t.rate.Importance = widget.HighImportance
	t.results = container.NewVBox()
	form := container.NewHBox(widget.NewLabel(t.t("抽取回答数", "Answers to draw")), container.NewGridWrap(fyne.NewSize(70, 36), t.size), t.draw,
		widget.NewLabel(t.t("评分人", "Rater")), container.NewGridWrap(fyne.NewSize(140, 36), t.rater), t.rate)
	about := wrapLabel(t.t("由人员对分层抽取的回答进行盲评：只看到问题、"+glossary.Term(glossary.GoldGuide, "zh")+"和一个回答（"+glossary.Term(glossary.SetRAG, "zh")+"、"+glossary.Term(glossary.SetZeroShort, "zh")+"或"+glossary.Term(glossary.SetFullShort, "zh")+"，不标来源、随机顺序），按与评审模型相同的"+glossary.Term(glossary.Rubric, "zh")+"打分。评分录入即保存到"+glossary.Term(glossary.RunStore, "zh")+"，并在此处和报告中与评审模型对照。",
		"People rate a stratified sample of answers blind — the question, the gold guide and one answer (the system's, the no-context or the gold-guide one, unlabelled, in random order) — with the judges' own rubric. Their ratings are stored in the run store as they are entered and set beside the judges here and in the report."))
	// The tables scroll sideways (showResults): six columns of figures with
	// intervals must not widen the window past a 1024-pixel screen.
	t.view = container.NewBorder(container.NewVBox(about, container.NewHScroll(form), t.status), nil, nil, nil, container.NewVScroll(t.results))
	t.root = container.NewStack(t.view)
	return t
}

// refresh shows the session's spot check (UI thread); the figures are
// computed off it.
func (t *spotTab) refresh() {
	s := t.sess()
	ready := s != nil && s.Result() != nil
	if !ready {
		t.draw.Disable()
		t.rate.Disable()
		t.status.SetText(t.t("请先完成评估：人工抽检是把人工评分与某次评估的评审模型对照。", "Evaluate first: the spot check sets people beside the judges of an evaluation."))
		t.showResults(nil)
		return
	}
	t.draw.Enable()
	t.rate.Enable()
	t.status.SetText("")
	t.showResults(s.SpotCheck())
}

// drawSample draws a new sample from the last evaluation.
func (t *spotTab) drawSample() {
	s := t.sess()
	if s == nil {
		return
	}
	n, err := strconv.Atoi(strings.TrimSpace(t.size.Text))
	if err != nil || n < 1 {
		t.status.SetText(t.t("抽取回答数须为不小于 1 的整数。", "The number of answers to draw must be a whole number of at least 1."))
		return
	}
	if s.SpotRatings(context.Background()) > 0 && t.sh.win != nil && !t.confirmed {
		dialog.ShowConfirm(t.t("重新抽取样本？", "Draw a new sample?"),
			t.t("当前样本已有评分。新样本从零开始：需重新评分，当前评分仍保存在运行记录库中，但不再显示。",
				"The current sample has ratings. A new sample starts empty: its answers are rated afresh and the current ratings stay in the run store, no longer shown."),
			func(ok bool) {
				if ok {
					t.confirmed = true
					t.drawSample()
					t.confirmed = false
				}
			}, t.sh.win)
		return
	}
	d, err := s.DrawSpotCheck(context.Background(), humancheck.DrawOptions{N: n, Seed: s.Seed()})
	if err != nil {
		t.status.SetText(errText(err))
		return
	}
	var parts []string
	for _, st := range d.Strata {
		if st.Drawn > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", stratumTitle(st.Name, t.lang()), st.Drawn, st.Population))
		}
	}
	t.status.SetText(fmt.Sprintf(t.t("已抽取 %d 个回答：%s。请填写评分人姓名后开始评分。", "Drew %d answers: %s. Enter your name and rate them."), len(d.Tasks), strings.Join(parts, t.t("，", ", "))))
}

func stratumTitle(name string, lang text.Lang) string {
	switch name {
	case humancheck.StratumNotRetrieved:
		return glossary.Term(glossary.NotRetrieved, lang)
	case humancheck.StratumLow:
		return glossary.Term(glossary.LowScore, lang)
	case humancheck.StratumDisagreement:
		return glossary.Term(glossary.JudgesDisagree, lang)
	}
	return text.New("其他", "other").In(lang)
}

// startRating swaps the tab for the blind rating screen, resumed where
// this rater stopped.
func (t *spotTab) startRating() {
	s := t.sess()
	if s == nil {
		return
	}
	name := strings.TrimSpace(t.rater.Text)
	if name == "" {
		t.status.SetText(t.t("请先填写评分人姓名：评分按评分人分别保存。", "Enter the rater's name first: ratings are kept per rater."))
		return
	}
	ctx := context.Background()
	cards, err := s.SpotCards(ctx)
	if err == nil && len(cards) == 0 {
		if _, err = s.DrawSpotCheck(ctx, humancheck.DrawOptions{Seed: s.Seed()}); err == nil {
			cards, err = s.SpotCards(ctx)
		}
	}
	if err != nil {
		t.status.SetText(errText(err))
		return
	}
	done, err := s.RatingsBy(ctx, name)
	if err != nil {
		t.status.SetText(errText(err))
		return
	}
	t.rating = newRatingScreen(t, s, name, cards, done)
	t.root.Objects = []fyne.CanvasObject{t.rating.content}
	t.root.Refresh()
	t.rating.focus()
}

// stopRating goes back to the results, recomputed with the new ratings.
func (t *spotTab) stopRating() {
	t.root.Objects = []fyne.CanvasObject{t.view}
	t.root.Refresh()
	t.rating = nil
	s := t.sess()
	if s == nil {
		return
	}
	go func() {
		sc, err := s.HumanAgreement(context.Background())
		t.sh.do(func() {
			if err != nil {
				t.status.SetText(errText(err))
				return
			}
			t.showResults(sc)
		})
	}()
}

// showResults lays out the comparison (UI thread).
func (t *spotTab) showResults(sc *humancheck.Result) {
	t.shown = sc
	t.cells = map[string]*widget.Label{}
	t.results.Objects = nil
	if sc == nil || sc.Ratings == 0 {
		t.results.Add(wrapLabel(t.t("尚无人工评分：工作簿没有人工评分表，也还没有人员对抽取的样本评分。", "No ratings yet: the workbook has no human sheet and nobody has rated a drawn sample.")))
		t.results.Refresh()
		return
	}
	lang := t.lang()
	t.results.Add(wrapHeading(sc.SummaryLine().In(lang)))
	t.results.Add(wrapLabel(sc.TrustText.In(lang)))
	for _, n := range sc.Notes {
		t.results.Add(wrapLabel(n.In(lang)))
	}
	judges := t.judges()
	t.results.Add(wrapHeading(t.t("人工与评审模型评分对照（0–100 分，"+glossary.Term(glossary.SetRAG, "zh")+"，被评回答的均值 ± 标准差；CuBE 论文表 5 样式）",
		"People and judges side by side (0–100, "+glossary.Term(glossary.SetRAG, "en")+", mean ± SD over the answers rated; Table 5 of the CuBE paper)")))
	grid := container.NewGridWithColumns(2 + len(judges))
	grid.Add(cellLabel(glossary.Term(glossary.Dimension, lang), true))
	grid.Add(cellLabel(t.t("人工", "people"), true))
	for _, j := range judges {
		grid.Add(cellLabel(judgeLabel(j), true))
	}
	for _, row := range sc.Table {
		grid.Add(widget.NewLabel(t.rowTitle(row.Key)))
		grid.Add(t.cell("t5|"+row.Key+"|people", t.meanSD(row.Human)))
		for _, j := range judges {
			grid.Add(t.cell("t5|"+row.Key+"|"+j, t.meanSD(row.Judges[j])))
		}
	}
	t.results.Add(container.NewHScroll(grid))
	t.results.Add(wrapHeading(t.t("各评审模型与人工评分的一致性（0–10 分制，95 % 置信区间）", "Agreement of each judge with people (0–10, 95 % bootstrap intervals)")))
	ag := container.NewGridWithColumns(6)
	for _, h := range []string{glossary.Term(glossary.Judge, lang), glossary.Term(glossary.Dimension, lang), t.t("回答数", "answers"),
		glossary.Term(glossary.Krippendorff, lang), glossary.Term(glossary.Spearman, lang), t.t("平均绝对差", "mean absolute difference")} {
		ag.Add(cellLabel(h, true))
	}
	for _, a := range sc.Agreement {
		key := "ag|" + a.Judge + "|" + a.Dimension
		ag.Add(widget.NewLabel(judgeLabel(a.Judge)))
		ag.Add(widget.NewLabel(t.dimTitle(a.Dimension)))
		ag.Add(widget.NewLabel(strconv.Itoa(a.N)))
		ag.Add(t.cell(key+"|alpha", t.figure(a.Alpha)))
		ag.Add(t.cell(key+"|rho", t.figure(a.Spearman)))
		ag.Add(t.cell(key+"|mad", t.figure(a.MAD)))
	}
	t.results.Add(container.NewHScroll(ag))
	if sc.InterRaterAlpha != nil {
		t.results.Add(wrapLabel(fmt.Sprintf(t.t("人员之间的一致性：%s %.2f。", "Agreement among the people themselves: %s %.2f."), glossary.Term(glossary.Krippendorff, lang), *sc.InterRaterAlpha)))
	}
	t.results.Refresh()
}

// wrapHeading is a section title that wraps: long sentences (the summary
// line) must not set the window's width.
func wrapHeading(s string) *widget.Label {
	l := heading2(s)
	l.Wrapping = fyne.TextWrapWord
	return l
}

func (t *spotTab) judges() []string {
	var out []string
	if s := t.sess(); s != nil && s.Result() != nil && s.Result().Summary.Result != nil {
		for _, j := range s.Result().Summary.Judges {
			out = append(out, j.Judge)
		}
	}
	return out
}

func (t *spotTab) cell(key, text string) *widget.Label {
	l := widget.NewLabel(text)
	t.cells[key] = l
	return l
}

func (t *spotTab) na() string { return glossary.Term(glossary.NotApplicable, t.lang()) }

func (t *spotTab) meanSD(m humancheck.MeanSD) string {
	if m.Mean == nil {
		return t.na()
	}
	if m.SD == nil {
		return fmt.Sprintf("%.2f", *m.Mean)
	}
	return fmt.Sprintf("%.2f ± %.2f", *m.Mean, *m.SD)
}

func (t *spotTab) figure(f humancheck.Figure) string {
	if f.Value == nil {
		return t.na()
	}
	if f.CI95 == nil {
		return fmt.Sprintf("%.2f", *f.Value)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", *f.Value, f.CI95[0], f.CI95[1])
}

func (t *spotTab) dimTitle(d string) string {
	if d == "" {
		return t.t("全部维度", "all dimensions")
	}
	if x, ok := dimension.Lookup(d); ok {
		return x.Title(t.lang())
	}
	return d
}

func (t *spotTab) rowTitle(key string) string {
	switch key {
	case humancheck.RowOverall:
		return t.t("全部维度（均值）", "all dimensions (mean)")
	case humancheck.RowNormalized:
		return glossary.Term(glossary.BoundedScore, t.lang())
	case humancheck.RowCube:
		return glossary.Term(glossary.CubeScore, t.lang())
	}
	return t.dimTitle(key)
}

// ratingScreen is the blind rating screen: one drawn answer at a time
// with its question and gold guide, a 0–10 entry per dimension under the
// judges' rubric, Enter to store a score and move on. It is built from
// humancheck.Card, which holds no set, stratum or score, so it cannot
// show them.
type ratingScreen struct {
	tab    *spotTab
	sess   *session.Session
	rater  string
	cards  []humancheck.Card
	done   map[int]map[string]float64
	dims   []string
	pos    int
	scores []*widget.Entry

	content  fyne.CanvasObject
	progress *widget.Label
	question *widget.Label
	guide    *widget.Label
	answer   *widget.Label
	message  *widget.Label
}

func newRatingScreen(t *spotTab, s *session.Session, rater string, cards []humancheck.Card, done map[int]map[string]float64) *ratingScreen {
	r := &ratingScreen{tab: t, sess: s, rater: rater, cards: cards, done: done, dims: s.SpotDimensions()}
	r.progress = widget.NewLabel("")
	r.question = wrapLabel("")
	r.question.TextStyle = fyne.TextStyle{Bold: true}
	r.guide = wrapLabel("")
	r.answer = wrapLabel("")
	r.message = wrapLabel("")
	lang := t.lang()
	form := container.NewVBox()
	rubrics := widget.NewAccordion()
	for i, d := range r.dims {
		e := widget.NewEntry()
		e.SetPlaceHolder("0–10")
		e.OnSubmitted = func(text string) { r.submit(i, text) }
		r.scores = append(r.scores, e)
		form.Add(container.NewBorder(nil, nil, container.NewGridWrap(fyne.NewSize(120, 36), widget.NewLabel(t.dimTitle(d))), nil, e))
		rubrics.Append(widget.NewAccordionItem(t.dimTitle(d)+" · "+glossary.Term(glossary.Rubric, lang), wrapLabel(s.Rubric(d, lang))))
	}
	prev := widget.NewButtonWithIcon(t.t("上一个", "Previous"), theme.NavigateBackIcon(), func() { r.move(-1) })
	next := widget.NewButtonWithIcon(t.t("下一个", "Next"), theme.NavigateNextIcon(), func() { r.move(1) })
	finish := widget.NewButtonWithIcon(t.t("完成", "Done"), theme.ConfirmIcon(), t.stopRating)
	keys := wrapLabel(t.t("输入 0 到 10 的分数后按回车：立即保存，并转到下一个维度，再到下一个回答。",
		"Type a score from 0 to 10 and press Enter: it is stored at once and the next dimension, then the next answer, follows."))
	left := container.NewVBox(wrapHeading(t.t("问题", "Question")), r.question, wrapHeading(t.t("回答", "Answer")), r.answer,
		wrapHeading(glossary.Term(glossary.GoldGuide, lang)), r.guide)
	right := container.NewVBox(keys, form, r.message, rubrics)
	split := container.NewHSplit(container.NewVScroll(left), container.NewVScroll(right))
	split.Offset = 0.55
	r.content = container.NewBorder(container.NewHBox(r.progress, prev, next, finish), nil, nil, nil, split)
	r.pos = r.firstOpen()
	r.show()
	return r
}

// firstOpen is the first answer this rater has not rated on every
// dimension: where a resumed session starts.
func (r *ratingScreen) firstOpen() int {
	for i, c := range r.cards {
		if len(r.done[c.Seq]) < len(r.dims) {
			return i
		}
	}
	return max(0, len(r.cards)-1)
}

func (r *ratingScreen) show() {
	t := r.tab
	if len(r.cards) == 0 {
		r.progress.SetText(t.t("没有需要评分的回答。", "Nothing to rate."))
		return
	}
	c := r.cards[r.pos]
	rated := 0
	for _, cd := range r.cards {
		if len(r.done[cd.Seq]) >= len(r.dims) {
			rated++
		}
	}
	r.progress.SetText(fmt.Sprintf(t.t("第 %d 个，共 %d 个 · 已评 %d 个 · 评分人 %s", "Answer %d of %d · %d rated · rater %s"), r.pos+1, len(r.cards), rated, r.rater))
	r.question.SetText(c.Question)
	r.answer.SetText(c.Answer)
	guide := c.Guide
	if guide == "" {
		guide = t.t("（标准指南未知）", "(the gold guide is not known)")
	}
	r.guide.SetText(guide)
	for k, d := range r.dims {
		if v, ok := r.done[c.Seq][d]; ok {
			r.scores[k].SetText(strconv.FormatFloat(v, 'f', -1, 64))
		} else {
			r.scores[k].SetText("")
		}
	}
	r.message.SetText("")
}

func (r *ratingScreen) focus() {
	if len(r.scores) > 0 && r.tab.sh.win != nil {
		r.tab.sh.win.Canvas().Focus(r.scores[0])
	}
}

func (r *ratingScreen) move(step int) {
	if len(r.cards) == 0 {
		return
	}
	r.pos = min(max(r.pos+step, 0), len(r.cards)-1)
	r.show()
	r.focus()
}

// submit stores dimension k's score of the shown answer and moves on.
func (r *ratingScreen) submit(k int, text string) {
	if len(r.cards) == 0 {
		return
	}
	t := r.tab
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil || v < 0 || v > 10 {
		r.message.SetText(fmt.Sprintf(t.t("“%s”不是 0 到 10 之间的分数。", "%q is not a score from 0 to 10."), text))
		return
	}
	c := r.cards[r.pos]
	if err := r.sess.Rate(context.Background(), c.Seq, r.rater, r.dims[k], v); err != nil {
		r.message.SetText(errText(err))
		return
	}
	if r.done[c.Seq] == nil {
		r.done[c.Seq] = map[string]float64{}
	}
	r.done[c.Seq][r.dims[k]] = v
	r.message.SetText("")
	if k+1 < len(r.scores) {
		if r.tab.sh.win != nil {
			r.tab.sh.win.Canvas().Focus(r.scores[k+1])
		}
		return
	}
	if r.pos+1 < len(r.cards) {
		r.move(1)
		return
	}
	r.show()
	r.message.SetText(t.t("这是最后一个回答。按“完成”查看一致性。", "That was the last answer. Press Done to see the agreement."))
}
