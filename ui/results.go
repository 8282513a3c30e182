package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/result"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// resultIndex is what the item explorer looks up, built off the UI thread.
type resultIndex struct {
	order   []int            // item indexes, most disputed first
	scores  map[string][]int // item id → indexes into Workbook.Scores
	details map[string]*cube.ItemDetail
	guides  map[string]int
	grid    *gridModel // the question grid's model: 26–44 ms at 10,000 questions, too long for the UI thread
}

func newResultIndex(res *result.Outcome) *resultIndex {
	wb := res.Workbook
	idx := &resultIndex{scores: map[string][]int{}, details: map[string]*cube.ItemDetail{}, guides: wb.GuideIndex()}
	for i, j := range wb.Scores.All() {
		idx.scores[j.ItemID] = append(idx.scores[j.ItemID], i)
	}
	if s := res.Summary; s != nil && s.Result != nil {
		for i := range s.ItemDetails {
			idx.details[s.ItemDetails[i].ID] = &s.ItemDetails[i]
		}
	}
	idx.order = make([]int, len(wb.Items))
	for i := range idx.order {
		idx.order[i] = i
	}
	dis := func(i int) float64 {
		if d := idx.details[wb.Items[i].ID]; d != nil && d.DisagreementOverall != nil {
			return *d.DisagreementOverall
		}
		return -1
	}
	sort.SliceStable(idx.order, func(a, b int) bool { return dis(idx.order[a]) > dis(idx.order[b]) })
	idx.grid = buildGridModel(res)
	return idx
}

// resultsTab shows the headline card, the paper's tables per judge, the
// judges side by side and an item explorer.
type resultsTab struct {
	sh    shell
	sess  *session.Session // the session shown; nil before a workbook opened
	index *resultIndex     // its last result, indexed for the explorer
	item  *container.TabItem

	headline  *flowText
	cubeValue *canvas.Text
	verdict   *canvas.Text
	verdictBg *canvas.Rectangle
	details   *flowText
	recs      *flowText
	banners   *fyne.Container // baseline judge, bundled sample, loud mapping: above everything
	why       *flowText       // the explanation's bullets (core/explain)
	weakest   *fyne.Container // the weakest questions, each opening its detail
	found     *flowText       // what the run found: warnings, document mapping
	inner     *container.AppTabs
	itemsTab  *container.TabItem

	judge      *widget.Select
	trimmed    *fyne.Container // Table 2: trimmed means per set and dimension
	weights    *fyne.Container // Table 3: correlations and weights
	normalized *fyne.Container // Table 4: normalised scores and CuBE
	qualify    *flowText       // the judge's qualification: counted or not, and why
	compare    *fyne.Container // judges side by side
	other      *fyne.Container // MFSS and CoFE tables

	items    *widget.List
	itemView *fyne.Container
	grid     *questionGrid
	gridTab  *container.TabItem
}

func newResultsTab(sh shell) *resultsTab {
	t := &resultsTab{sh: sh}
	t.headline = newFlowText("")
	t.cubeValue = canvas.NewText("", theme.Color(theme.ColorNameForeground))
	t.cubeValue.TextSize = 34
	t.cubeValue.TextStyle.Bold = true
	t.verdict = canvas.NewText("", theme.Color(theme.ColorNameBackground))
	t.verdict.TextSize = 18
	t.verdictBg = canvas.NewRectangle(colorNeutral)
	t.verdictBg.CornerRadius = 6
	t.details = newFlowText("")
	t.recs = newFlowText("")
	t.banners = container.NewVBox()
	t.why = newFlowText("")
	t.weakest = container.NewVBox()
	t.found = newFlowText("")

	t.judge = widget.NewSelect(nil, func(string) { t.showJudge() })
	t.judge.PlaceHolder = tr("results.pick_judge")
	t.trimmed = container.NewGridWithColumns(4)
	t.weights = container.NewGridWithColumns(4)
	t.normalized = container.NewGridWithColumns(3)
	t.qualify = newFlowText("")
	t.compare = container.NewVBox()
	t.other = container.NewVBox()

	t.items = widget.NewList(
		func() int {
			if t.index == nil {
				return 0
			}
			return len(t.index.order)
		},
		func() fyne.CanvasObject { return newFitLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			rowsUpdated++
			if t.index == nil || id >= len(t.index.order) || t.result() == nil {
				return
			}
			it := t.result().Workbook.Items[t.index.order[id]]
			text := it.ID + "  " + oneLine(it.Question)
			if d := t.index.details[it.ID]; d != nil && d.DisagreementOverall != nil {
				text = fmt.Sprintf("[%s %.2f] %s", tr("results.sd"), *d.DisagreementOverall, text)
			}
			o.(*flowText).SetText(text)
		})
	t.items.OnSelected = func(id widget.ListItemID) { t.showItem(id) }
	t.itemView = container.NewVBox()
	t.grid = newQuestionGrid(sh, nil)

	badge := container.NewStack(t.verdictBg, container.NewPadded(t.verdict))
	card := container.NewVBox(
		container.NewHBox(t.cubeValue, container.NewCenter(badge), helpButton(t.sh.win, "help.cube")),
		t.banners)
	overview := container.NewVScroll(container.NewVBox(
		t.headline, t.details,
		heading("results.why"), t.why,
		heading("results.weakest"), t.weakest,
		heading("results.recs"), t.recs,
		heading("results.found"), t.found))
	perJudge := container.NewScroll(container.NewVBox(
		container.NewHBox(widget.NewLabel(tr("results.judge")), t.judge),
		t.qualify,
		heading("results.table2"), container.NewHBox(t.trimmed),
		container.NewHBox(heading("results.table3"), helpButton(t.sh.win, "help.weights")), container.NewHBox(t.weights),
		container.NewHBox(heading("results.table4"), helpButton(t.sh.win, "help.normalized")), container.NewHBox(t.normalized),
	))
	explorer := container.NewHSplit(t.items, container.NewVScroll(t.itemView))
	explorer.Offset = 0.35
	t.itemsTab = container.NewTabItem(tr("results.items"), explorer)
	t.gridTab = container.NewTabItem(tr("grid.tab"), t.grid.object())
	t.inner = newTabs(
		container.NewTabItem(tr("results.overview"), overview),
		container.NewTabItem(tr("results.per_judge"), perJudge),
		container.NewTabItem(tr("results.compare"), container.NewScroll(t.compare)),
		t.gridTab,
		t.itemsTab,
		container.NewTabItem(tr("results.other"), container.NewScroll(t.other)),
	)
	content := container.NewBorder(container.NewVBox(container.NewPadded(card), widget.NewSeparator()), nil, nil, nil, t.inner)
	t.item = container.NewTabItemWithIcon(tr("tab.results"), theme.InfoIcon(), content)
	return t
}

// heading is a section title. The CJK font has no bold face, so titles
// stand out by colour instead.
func heading(key string) *widget.Label {
	l := widget.NewLabelWithStyle(tr(key), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.Importance = widget.HighImportance
	return l
}

func cellLabel(s string, bold bool) fyne.CanvasObject {
	return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: bold})
}

// summary is the CuBE part of the last result, nil when there is none.
func (t *resultsTab) summary() *result.Summary {
	if t.result() == nil {
		return nil
	}
	return t.result().Summary
}

// result is the shown session's last result; nil before one.
func (t *resultsTab) result() *result.Outcome {
	if t.sess == nil {
		return nil
	}
	return t.sess.Result()
}

// refresh shows sess's last result in every part of the tab (UI thread).
func (t *resultsTab) refresh(sess *session.Session, idx *resultIndex) {
	for _, step := range t.refreshSteps(sess, idx) {
		step()
	}
}

// refreshSteps is refresh in parts, each a short UI-thread task: after an
// evaluation the window queues them one at a time, so that input and
// redraws interleave with them (issue 27: a task at 10,000 questions takes
// no more than a frame). Each part reads the tab's state when it runs: a
// part that runs after another workbook opened shows that one's result,
// which its own refresh then shows whole.
func (t *resultsTab) refreshSteps(sess *session.Session, idx *resultIndex) []func() {
	return []func(){
		func() { t.showGrid(sess, idx) },
		t.showHeadline,
		t.showJudges,
		func() { t.ifResult(t.fillCompare) },
		func() { t.ifSummary(t.showWhy) },
		func() { t.ifSummary(t.showWeakest) },
		func() {
			t.ifSummary(func(s *result.Summary, lang text.Lang) {
				t.showRecommendations(s, lang)
				t.found.SetText(foundText(s, lang))
			})
		},
		func() {
			t.ifSummary(func(s *result.Summary, lang text.Lang) {
				t.other.Objects = otherTables(t.sh.win, s, lang)
				t.other.Refresh()
			})
		},
	}
}

// ifSummary runs show with the tab's summary, when there is one.
func (t *resultsTab) ifSummary(show func(*result.Summary, text.Lang)) {
	if s := t.summary(); s != nil {
		show(s, t.sh.lang())
	}
}

// ifResult runs show with the tab's CuBE result, when there is one.
func (t *resultsTab) ifResult(show func(*cube.Result)) {
	if s := t.summary(); s != nil && s.Result != nil {
		show(s.Result)
	}
}

// showGrid takes sess and idx as the tab's and shows them in the question
// grid, emptying the item explorer.
func (t *resultsTab) showGrid(sess *session.Session, idx *resultIndex) {
	t.sess, t.index = sess, idx
	if idx != nil && idx.grid != nil && sess != nil && idx.grid.res == sess.Result() {
		t.grid.refreshModel(idx.grid) // built off the UI thread with the index
	} else {
		t.grid.refresh(sess)
	}
	t.itemView.Objects = nil
	t.itemView.Refresh()
	t.items.UnselectAll()
	t.items.Refresh()
}

// showHeadline shows the CuBE value, the verdict, the headline and its
// details; with no summary, the empty tab.
func (t *resultsTab) showHeadline() {
	s := t.summary()
	if s == nil {
		t.showNothing()
		return
	}
	lang := t.sh.lang()
	t.verdict.Text = " " + s.Verdict.Text.In(lang) + " "
	t.verdict.Refresh()
	t.verdictBg.FillColor = verdictColor(s.Verdict.Code)
	t.verdictBg.Refresh()
	t.cubeValue.Text = "CuBE " + tr("na")
	t.headline.SetText(tr("results.no_cube"))
	if r := s.Result; r != nil {
		agg := r.Aggregate
		t.cubeValue.Text = "CuBE " + fmtNum(agg.Cube.Mean, 2)
		if agg.Cube.SD != nil {
			t.cubeValue.Text += " ± " + fmtNum(agg.Cube.SD, 2)
		}
		t.headline.SetText(r.Headline(text.Lang(lang)))
		ci := tr("na")
		if agg.CubeCI95 != nil {
			ci = fmt.Sprintf("[%.2f, %.2f]", agg.CubeCI95[0], agg.CubeCI95[1])
		}
		t.details.SetText(trf("results.details", map[string]any{
			"CI": ci, "Recall": fmtPct(r.RecallAtK), "K": r.TopN, "Retrieved": r.Retrieved, "Items": r.Items,
			"Effectiveness": fmtNum(agg.Normalized[cube.Weighted].Mean, 2), "Judges": r.QualifiedJudges(), // those the verdict counts
		}))
	}
	t.cubeValue.Refresh()
	t.showBanners(s, lang)
}

// showNothing is the tab before any result.
func (t *resultsTab) showNothing() {
	t.cubeValue.Text = "CuBE —"
	t.cubeValue.Refresh()
	t.verdict.Text = tr("results.none")
	t.verdict.Refresh()
	t.verdictBg.FillColor = colorNeutral
	t.verdictBg.Refresh()
	t.headline.SetText(tr("results.none_hint"))
	t.details.SetText("")
	t.recs.SetText("")
	t.judge.Options = nil
	t.judge.ClearSelected()
	t.compare.Objects = nil
	t.compare.Refresh()
	t.other.Objects = nil
	t.other.Refresh()
	t.banners.Objects = nil
	t.banners.Refresh()
	t.why.SetText("")
	t.weakest.Objects = nil
	t.weakest.Refresh()
	t.found.SetText("")
	t.showJudge()
}

// showJudges lists the judges and shows the first one's tables.
func (t *resultsTab) showJudges() {
	s := t.summary()
	if s == nil || s.Result == nil {
		return
	}
	names := make([]string, len(s.Result.Judges))
	for i, j := range s.Result.Judges {
		names[i] = judgeLabel(j.Judge)
	}
	t.judge.Options = names
	if len(names) > 0 {
		t.judge.SetSelected(names[0])
	}
}

// judgeResult is the selected judge's result.
func (t *resultsTab) judgeResult() *cube.JudgeResult {
	s := t.summary()
	if s == nil || s.Result == nil {
		return nil
	}
	for i := range s.Judges {
		if judgeLabel(s.Judges[i].Judge) == t.judge.Selected {
			return &s.Judges[i]
		}
	}
	return nil
}

// showJudge fills Tables 2–4 for the selected judge.
func (t *resultsTab) showJudge() {
	j := t.judgeResult()
	t.qualify.SetText("")
	t.trimmed.Objects, t.weights.Objects, t.normalized.Objects = nil, nil, nil
	defer func() { t.trimmed.Refresh(); t.weights.Refresh(); t.normalized.Refresh() }()
	if j == nil {
		return
	}
	dims := append(append([]string{}, t.summary().Dimensions...), cube.Weighted)
	add := func(c *fyne.Container, bold bool, cells ...string) {
		for _, s := range cells {
			c.Add(cellLabel(s, bold))
		}
	}
	add(t.trimmed, true, tr("col.dimension"), setName(dataset.SetZero), setName(dataset.SetRAG), setName(dataset.SetFull))
	for _, d := range dims {
		add(t.trimmed, false, dimLabel(d), fmtNum(j.TrimmedMeans[dataset.SetZero][d], 4),
			fmtNum(j.TrimmedMeans[dataset.SetRAG][d], 4), fmtNum(j.TrimmedMeans[dataset.SetFull][d], 4))
	}
	add(t.weights, true, tr("col.dimension"), tr("results.r_all"), tr("results.r_retrieved"), tr("results.weight")+" ("+weightSource(j.WeightSource)+")")
	for _, d := range t.summary().Dimensions {
		add(t.weights, false, dimLabel(d), fmtNum(j.CorrelationAll[d], 4), fmtNum(j.CorrelationRetrieved[d], 4),
			strconv.FormatFloat(j.Weights[d], 'f', 4, 64))
	}
	if j.Qualification != nil {
		lang := t.sh.lang()
		status := glossary.Term(glossary.JudgeNotCounted, lang)
		if j.Counted() {
			status = pick(lang, "counted in the verdict", "计入结论")
		}
		t.qualify.SetText(glossary.Term(glossary.JudgeQualification, lang) + pick(lang, ": ", "：") + status + "\n" + qualificationText(j, lang))
	}
	add(t.normalized, true, tr("col.dimension"), tr("results.normalized"), tr("results.flags"))
	for _, d := range dims {
		flag := ""
		for _, f := range j.Flags {
			if strings.HasPrefix(f, d+":") {
				flag = cube.FlagText(f).In(t.sh.lang())
			}
		}
		add(t.normalized, false, dimLabel(d), fmtNum(j.Normalized[d], 2), flag)
	}
	ci := tr("na")
	if j.CubeCI95 != nil {
		ci = fmt.Sprintf("[%.2f, %.2f]", j.CubeCI95[0], j.CubeCI95[1])
	}
	add(t.normalized, true, "CuBE", fmtNum(j.Cube, 2), tr("results.ci")+" "+ci+" · "+tr("results.unscorable")+" "+strconv.Itoa(j.Unscorable))
}

// judgeLabel is a judge's name in the window's language: the glossary's
// for the offline judges (词汇基线评审, not lexical), the user's own else.
func judgeLabel(name string) string { return glossary.JudgeName(name, currentLanguage()) }

// dimLabel is a dimension's title in the window's language.
func dimLabel(d string) string {
	if d == cube.Weighted {
		return tr("results.weighted")
	}
	if id, ok := glossary.DimensionID(d); ok { // one name per dimension, as the charts and report
		return glossary.Term(id, currentLanguage())
	}
	if dim, ok := judge.Builtin(d); ok {
		return dim.Title(currentLanguage())
	}
	return d
}

// weightSource names where a judge's weights came from.
func weightSource(s string) string {
	switch s {
	case "correlation", "equal", "hand", "judge":
		return tr("weights." + s)
	}
	return s
}

// fillCompare puts the judges side by side: normalised scores per
// dimension, weighted, CuBE with its interval, unscorable; a compact grid
// (as wide as its cells), and with one judge no "± n/a" row but a note.
func (t *resultsTab) fillCompare(r *cube.Result) {
	cols := 4 + len(r.Dimensions)
	grid := container.NewGridWithColumns(cols)
	head := []string{tr("col.judge")}
	for _, d := range r.Dimensions {
		head = append(head, dimLabel(d))
	}
	head = append(head, tr("results.weighted"), "CuBE（"+tr("results.ci")+"）", tr("results.unscorable"))
	for _, h := range head {
		grid.Add(cellLabel(h, true))
	}
	for _, j := range r.Judges {
		name := judgeLabel(j.Judge)
		if !j.Counted() {
			// Shown, never averaged in: the mean row below leaves it out.
			name += "（" + glossary.Term(glossary.JudgeNotCounted, currentLanguage()) + "）"
		}
		grid.Add(cellLabel(name, false))
		for _, d := range r.Dimensions {
			grid.Add(cellLabel(fmtNum(j.Normalized[d], 2), false))
		}
		grid.Add(cellLabel(fmtNum(j.Normalized[cube.Weighted], 2), false))
		c := fmtNum(j.Cube, 2)
		if j.CubeCI95 != nil {
			c += fmt.Sprintf(" [%.1f, %.1f]", j.CubeCI95[0], j.CubeCI95[1])
		}
		grid.Add(cellLabel(c, false))
		grid.Add(cellLabel(strconv.Itoa(j.Unscorable), false))
	}
	objs := []fyne.CanvasObject{container.NewHBox(grid)}
	if len(r.Judges) > 1 {
		grid.Add(cellLabel(tr("results.mean_sd"), true))
		for _, d := range append(append([]string{}, r.Dimensions...), cube.Weighted) {
			m := r.Aggregate.Normalized[d]
			grid.Add(cellLabel(fmtNum(m.Mean, 2)+" ± "+fmtNum(m.SD, 2), true))
		}
		grid.Add(cellLabel(fmtNum(r.Aggregate.Cube.Mean, 2)+" ± "+fmtNum(r.Aggregate.Cube.SD, 2), true))
		grid.Add(cellLabel("", false))
	} else {
		objs = append(objs, wrapLabel(tr("results.single_judge")))
	}
	t.compare.Objects = objs
	t.compare.Refresh()
}

// showItem fills the explorer with one item: question, gold document,
// retrieved list, the three answers, every judge's scores and raw replies.
func (t *resultsTab) showItem(id int) {
	if t.index == nil || id >= len(t.index.order) || t.result() == nil {
		return
	}
	wb := t.result().Workbook
	it := wb.Items[t.index.order[id]]
	var objs []fyne.CanvasObject
	section := func(title, text string) {
		objs = append(objs, cellLabel(title, true))
		l := widget.NewLabel(text)
		l.Wrapping = fyne.TextWrapWord
		l.Selectable = true
		objs = append(objs, l)
	}
	section(tr("col.question")+" · "+it.ID, it.Question)
	gold := it.DocID
	if g, ok := t.index.guides[it.DocID]; ok {
		gold = wb.Guides[g].ID + " · " + wb.Guides[g].Title
	}
	if gold == "" {
		gold = tr("na")
	}
	section(tr("col.gold"), gold)
	var ret []string
	goldID := ""
	if g, ok := t.index.guides[it.DocID]; ok {
		goldID = wb.Guides[g].ID
	}
	for i, r := range it.Retrieved {
		line := fmt.Sprintf("%d. %s", i+1, r)
		if g, ok := t.index.guides[r]; ok {
			line += " · " + wb.Guides[g].Title
			if wb.Guides[g].ID == goldID {
				line += "  ✓"
			}
		}
		ret = append(ret, line)
	}
	rank := ""
	if d := t.index.details[it.ID]; d != nil {
		rank = fmt.Sprintf(" (%s %d)", tr("results.rank"), d.Rank)
	}
	section(tr("col.retrieved")+rank, strings.Join(ret, "\n"))
	for _, set := range []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull} {
		section(tr("results.answer_"+set), it.Answer(set))
	}
	if d := t.index.details[it.ID]; d != nil {
		var parts []string
		for _, dim := range t.result().Summary.Dimensions {
			parts = append(parts, fmt.Sprintf("%s %s", dimLabel(dim), fmtNum(d.DisagreementOf(t.result().Summary.Dimensions, dim), 2)))
		}
		section(tr("results.disagreement"), fmtNum(d.DisagreementOverall, 2)+"  ("+strings.Join(parts, " · ")+")")
	}
	var scores []string
	for _, k := range t.index.scores[it.ID] {
		j := wb.Scores.At(k)
		score := tr("na")
		if j.OK() {
			score = strconv.FormatFloat(j.Score, 'f', -1, 64)
		}
		line := fmt.Sprintf("%s · %s · %s · %s: %s", judgeLabel(j.Judge), setName(j.Set), dimLabel(j.Dimension), trf("results.repeat", map[string]any{"N": max(j.Repeat, 1)}), score)
		// An offline judge's note and every unscorable reason in the
		// window's language; an LLM judge's reply as it came.
		if j.Raw != "" {
			line += "\n    " + strings.ReplaceAll(judgeReason(j.Raw), "\n", "\n    ")
		}
		if j.Reason != "" {
			line += "\n    (" + judgeReason(j.Reason) + ")"
		}
		scores = append(scores, line)
	}
	section(tr("results.scores"), strings.Join(scores, "\n"))
	t.itemView.Objects = objs
	t.itemView.Refresh()
}

// qualificationText lists a judge's qualification checks, failed ones first.
func qualificationText(j *cube.JudgeResult, lang text.Lang) string {
	var fail, rest []string
	for _, c := range j.Qualification {
		mark := "✓ "
		switch c.Status {
		case cube.CheckFail:
			fail = append(fail, "✗ "+c.Reason.In(text.Lang(lang)))
			continue
		case cube.CheckShown:
			mark = "· "
		}
		rest = append(rest, mark+c.Reason.In(text.Lang(lang)))
	}
	return strings.Join(append(fail, rest...), "\n")
}
