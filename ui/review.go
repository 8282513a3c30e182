package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/aspect"
	"cubeworkbench/core/generate"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/querytype"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// reviewTab is 问题生成与审核: questions written from the guides (which
// guides, how many, which query types and aspects), filtered, then
// reviewed one by one or in bulk beside their guide. Nothing downstream —
// no system asked, no judge paid — happens until the officer accepts and
// saves: the saved set opens as the window's workbook, ready to evaluate.
type reviewTab struct {
	sh      shell
	sess    func() *session.Session
	profile func() profile.Profile
	opened  func(path string) // the saved set is opened as the workbook (any goroutine)

	mode     *widget.RadioGroup
	column   *widget.Select
	values   *widget.Entry
	sample   *widget.Entry
	perGuide *widget.Entry
	types    *widget.CheckGroup
	aspects  *widget.CheckGroup
	critic   *widget.Check
	run      *widget.Button
	bar      *widget.ProgressBar
	status   *widget.Label

	set      *session.TestSet
	list     *widget.List
	selected int
	guide    *widget.Label
	question *widget.Entry
	flags    *widget.Label
	info     *widget.Label
	counts   *widget.Label
	accept   *widget.Button
	reject   *widget.Button
	edit     *widget.Button
	bulk     []*widget.Button
	save     *widget.Button

	content fyne.CanvasObject
	running bool
	// newCompleter replaces the generator's client (tests); nil is the real one.
	newCompleter func(profile.Endpoint) (llm.Completer, error)
}

func (t *reviewTab) t(zh, en string) string { return text.New(zh, en).In(t.sh.lang()) }

func newReviewTab(sh shell, sess func() *session.Session, prof func() profile.Profile, opened func(string)) *reviewTab {
	t := &reviewTab{sh: sh, sess: sess, profile: prof, opened: opened, selected: -1}
	lang := sh.lang()
	all, byColumn, sampled := t.t("全部指南", "every guide"), t.t("按列筛选", "guides whose column is"), t.t("随机抽样", "a random sample")
	t.mode = widget.NewRadioGroup([]string{all, byColumn, sampled}, nil)
	t.mode.Horizontal = true
	t.mode.SetSelected(all)
	t.column = widget.NewSelect(nil, nil)
	t.column.PlaceHolder = t.t("列（部门、地区）", "column (department, region)")
	t.values = widget.NewEntry()
	t.values.SetPlaceHolder(t.t("取值，用逗号分隔", "values, comma-separated"))
	t.sample = widget.NewEntry()
	t.sample.SetText("20")
	t.perGuide = widget.NewEntry()
	t.perGuide.SetText("1")
	var typeNames []string
	for _, qt := range querytype.All() {
		typeNames = append(typeNames, qt.Title(lang))
	}
	t.types = widget.NewCheckGroup(typeNames, nil)
	t.types.Horizontal = true
	t.types.SetSelected(typeNames)
	var aspectNames []string
	for _, a := range aspect.All() {
		aspectNames = append(aspectNames, a.Title(lang))
	}
	t.aspects = widget.NewCheckGroup(aspectNames, nil)
	t.aspects.Horizontal = true
	t.critic = widget.NewCheck(t.t("逐题检查能否由其指南回答（每题多调用一次）", "check each question against its guide (one more call per question)"), nil)
	t.critic.SetChecked(true)
	t.run = widget.NewButtonWithIcon(t.t("生成问题", "Write questions"), theme.MediaPlayIcon(), t.start)
	t.run.Importance = widget.HighImportance
	t.bar = widget.NewProgressBar()
	t.status = wrapLabel("")

	t.list = widget.NewList(func() int { return t.count() }, func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}, func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(t.rowText(id)) })
	t.list.OnSelected = func(id widget.ListItemID) { t.selectRow(id) }
	t.guide = wrapLabel("")
	t.question = widget.NewMultiLineEntry()
	t.question.Wrapping = fyne.TextWrapWord
	t.question.SetMinRowsVisible(2)
	t.flags = wrapLabel("")
	t.info = wrapLabel("")
	t.counts = wrapLabel("")
	t.accept = widget.NewButtonWithIcon(t.t("采用", "Accept"), theme.ConfirmIcon(), func() { t.decide(generate.Accepted) })
	t.reject = widget.NewButtonWithIcon(t.t("不采用", "Reject"), theme.CancelIcon(), func() { t.decide(generate.Rejected) })
	t.edit = widget.NewButtonWithIcon(t.t("保存修改", "Keep my edit"), theme.DocumentCreateIcon(), t.saveEdit)
	t.bulk = []*widget.Button{
		widget.NewButton(t.t("采用全部未被筛出的问题", "Accept all that passed the filters"), func() { t.bulkDecide(false, generate.Accepted) }),
		widget.NewButton(t.t("不采用全部被筛出的问题", "Reject all the filters doubt"), func() { t.bulkDecide(true, generate.Rejected) }),
	}
	t.save = widget.NewButtonWithIcon(t.t("保存已采用的问题并评估", "Save the accepted questions and evaluate"), theme.DocumentSaveIcon(), t.chooseSave)
	t.save.Importance = widget.HighImportance

	// Rows that fit a 1024-pixel window: the check groups scroll sideways
	// rather than widen the window.
	choose := container.NewVBox(
		container.NewHBox(widget.NewLabel(t.t("指南", "Guides")), t.mode),
		container.NewGridWithColumns(2, t.column, t.values),
		container.NewHBox(widget.NewLabel(t.t("抽样条数", "sample size")), container.NewGridWrap(fyne.NewSize(70, 36), t.sample),
			widget.NewLabel(t.t("每条指南问题数", "questions per guide")), container.NewGridWrap(fyne.NewSize(60, 36), t.perGuide), t.run),
		container.NewHScroll(container.NewHBox(widget.NewLabel(glossary.Term(glossary.QueryType, lang)), t.types)),
		container.NewHScroll(container.NewHBox(widget.NewLabel(t.t("方面", "Aspects")), t.aspects)),
		container.NewHScroll(t.critic),
		container.NewBorder(nil, nil, nil, container.NewGridWrap(fyne.NewSize(180, 36), t.bar), t.status))
	detail := container.NewVBox(t.info, t.question, container.NewHBox(t.accept, t.edit, t.reject), t.flags,
		heading2(glossary.Term(glossary.ServiceGuide, lang)), t.guide)
	split := container.NewHSplit(t.list, container.NewVScroll(detail))
	split.Offset = 0.5
	bottom := container.NewVBox(t.counts, container.NewHBox(append(toObjects(t.bulk), t.save)...))
	// The choices scroll and the officer can drag the divider: at 640
	// pixels high the questions under review keep most of the room.
	outer := container.NewVSplit(container.NewVScroll(choose), container.NewBorder(nil, bottom, nil, nil, split))
	outer.Offset = 0.42
	t.content = outer
	t.showDecisionButtons()
	return t
}

func toObjects(bs []*widget.Button) []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, len(bs))
	for i, b := range bs {
		out[i] = b
	}
	return out
}

// refresh shows what the session allows (UI thread).
func (t *reviewTab) refresh() {
	s := t.sess()
	if s == nil || len(s.Workbook.Guides) == 0 {
		t.run.Disable()
		t.status.SetText(t.t("请先打开含办事指南的工作簿。", "Open a workbook with guides first."))
		return
	}
	if !t.running {
		t.run.Enable()
	}
	var cols []string
	seen := map[string]bool{}
	for _, g := range s.Workbook.Guides {
		for _, f := range g.Fields {
			if !seen[f.Name] {
				seen[f.Name] = true
				cols = append(cols, f.Name)
			}
		}
	}
	t.column.Options = cols
	t.column.Refresh()
	if t.set != nil {
		return
	}
	if p := t.profile(); p.Generator == nil || p.Generator.BaseURL == "" && len(p.Generator.BaseURLs) == 0 {
		t.status.SetText(t.t("请先在评审模型页设置生成模型，再生成问题。", "Name a generator model on the Judges tab to write questions."))
		return
	}
	t.status.SetText(fmt.Sprintf(t.t("共 %d 条指南。在您采用并保存之前，不会调用被测系统或评审模型。", "%d guides. Nothing is asked of the system under test or the judges until you accept and save."), len(s.Workbook.Guides)))
}

// options reads the controls; an error names the control.
func (t *reviewTab) options() (session.GenerateOptions, error) {
	var o session.GenerateOptions
	per, err := strconv.Atoi(strings.TrimSpace(t.perGuide.Text))
	if err != nil || per < 1 {
		return o, text.NewError(text.New("每条指南问题数须为不小于 1 的整数。", "Questions per guide must be a whole number of at least 1."), nil)
	}
	o.Spec.PerGuide = per
	lang := t.sh.lang()
	for _, qt := range querytype.All() {
		if slices.Contains(t.types.Selected, qt.Title(lang)) {
			o.Spec.Types = append(o.Spec.Types, qt.Name)
		}
	}
	if len(o.Spec.Types) == 0 {
		return o, text.NewError(text.New("请至少选择一种问题类型。", "Choose at least one query type."), nil)
	}
	for _, a := range aspect.All() {
		if slices.Contains(t.aspects.Selected, a.Title(lang)) {
			o.Spec.Aspects = append(o.Spec.Aspects, a.Name)
		}
	}
	switch t.mode.Selected {
	case t.mode.Options[1]:
		o.Select.Column = t.column.Selected
		for _, v := range strings.FieldsFunc(t.values.Text, func(r rune) bool { return r == ',' || r == '，' || r == '、' }) {
			if v = strings.TrimSpace(v); v != "" {
				o.Select.Values = append(o.Select.Values, v)
			}
		}
		if o.Select.Column == "" || len(o.Select.Values) == 0 {
			return o, text.NewError(text.New("请选择列并填写要保留的取值。", "Choose the column and type the values to keep."), nil)
		}
	case t.mode.Options[2]:
		k, err := strconv.Atoi(strings.TrimSpace(t.sample.Text))
		if err != nil || k < 1 {
			return o, text.NewError(text.New("抽样条数须为不小于 1 的整数。", "The sample size must be a whole number of at least 1."), nil)
		}
		o.Select.Sample, o.Select.Seed = k, t.profile().Seed
	}
	o.NoCritic = !t.critic.Checked
	o.NewCompleter = t.newCompleter
	return o, nil
}

// start writes and filters the questions off the UI thread.
func (t *reviewTab) start() {
	s := t.sess()
	if s == nil || t.running {
		return
	}
	o, err := t.options()
	if err != nil {
		t.status.SetText(errText(err))
		return
	}
	p := t.profile()
	t.running = true
	t.run.Disable()
	t.bar.SetValue(0)
	t.status.SetText(t.t("正在生成问题……", "Writing questions…"))
	o.Progress = func(done, total int) {
		t.sh.do(func() { t.bar.SetValue(float64(done) / float64(max(1, total))) })
	}
	go func() {
		ts, err := s.Generate(context.Background(), p, o)
		t.sh.do(func() { t.generated(ts, err) })
	}()
}

func (t *reviewTab) generated(ts *session.TestSet, err error) {
	t.running = false
	t.run.Enable()
	if err != nil {
		t.status.SetText(t.t("未能生成问题：", "Could not write the questions: ") + errText(err))
		if ts == nil {
			return
		}
	}
	t.set = ts
	t.selected = -1
	flagged := 0
	for _, c := range ts.Candidates {
		if c.Flagged() {
			flagged++
		}
	}
	if err == nil {
		t.status.SetText(fmt.Sprintf(t.t("由 %d 条指南生成 %d 个问题；其中 %d 个被筛选规则标出（附原因）；%d 个未能生成。请在下方逐一审核。",
			"%d questions from %d guides; the filters doubt %d (their reasons are shown). %d could not be written. Review them below."),
			pickInt(t.sh.lang(), len(ts.Candidates), len(ts.Guides)), pickInt(t.sh.lang(), len(ts.Guides), len(ts.Candidates)), flagged, len(ts.Problems)))
	}
	t.list.UnselectAll()
	t.list.Refresh()
	t.showCounts()
	t.showDecisionButtons()
	if len(ts.Candidates) > 0 {
		t.list.Select(0)
	}
}

// pickInt orders two counts for a sentence that names them in a different
// order in each language.
func pickInt(lang text.Lang, en, zh int) int {
	if lang == text.ZH {
		return zh
	}
	return en
}

func (t *reviewTab) count() int {
	if t.set == nil {
		return 0
	}
	return len(t.set.Candidates)
}

func (t *reviewTab) decisionTitle(d string) string {
	switch d {
	case generate.Accepted:
		return t.t("采用", "accepted")
	case generate.Rejected:
		return t.t("不采用", "rejected")
	}
	return t.t("待审", "to review")
}

func (t *reviewTab) kind(c generate.Candidate) string {
	lang := t.sh.lang()
	s := c.QueryType
	if qt, ok := querytype.Lookup(c.QueryType); ok {
		s = qt.Title(lang)
	}
	if a, ok := aspect.Lookup(c.Aspect); ok {
		s += " · " + a.Title(lang)
	}
	return s
}

func (t *reviewTab) rowText(id int) string {
	if t.set == nil || id < 0 || id >= len(t.set.Candidates) {
		return ""
	}
	c := t.set.Candidates[id]
	mark := ""
	if c.Flagged() {
		mark = "⚠ "
	}
	return fmt.Sprintf("[%s] %s%s · %s", t.decisionTitle(c.Decision), mark, t.kind(c), c.Question)
}

// selectRow shows a candidate beside its guide.
func (t *reviewTab) selectRow(id int) {
	if t.set == nil || id < 0 || id >= len(t.set.Candidates) {
		return
	}
	t.selected = id
	c := t.set.Candidates[id]
	t.question.SetText(c.Question)
	t.info.SetText(fmt.Sprintf("%s · %s · %s · %s %s", c.ID, t.decisionTitle(c.Decision), t.kind(c), c.GuideTitle, generate.OriginTitle(c.Origin, t.sh.lang())))
	var reasons []string
	for _, f := range c.Flags {
		reasons = append(reasons, "⚠ "+f.In(t.sh.lang()))
	}
	if len(reasons) == 0 {
		reasons = append(reasons, t.t("通过全部筛选。", "Passed every filter."))
	}
	t.flags.SetText(strings.Join(reasons, "\n"))
	t.guide.SetText("")
	for _, g := range t.set.Guides {
		if g.ID == c.GuideID {
			t.guide.SetText(g.Title + "\n\n" + g.Text)
		}
	}
	t.showDecisionButtons()
}

func (t *reviewTab) showDecisionButtons() {
	has := t.set != nil && t.selected >= 0
	for _, b := range []*widget.Button{t.accept, t.reject, t.edit} {
		if has {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	for _, b := range t.bulk {
		if t.set != nil {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	if t.set != nil && t.accepted() > 0 {
		t.save.Enable()
	} else {
		t.save.Disable()
	}
}

func (t *reviewTab) accepted() int {
	n := 0
	if t.set != nil {
		for _, c := range t.set.Candidates {
			if c.Decision == generate.Accepted {
				n++
			}
		}
	}
	return n
}

// decide records the officer's decision on the selected question; an
// accept keeps any edit typed in the box.
func (t *reviewTab) decide(d string) {
	if t.set == nil || t.selected < 0 {
		return
	}
	c := &t.set.Candidates[t.selected]
	if d == generate.Accepted {
		c.Edit(t.question.Text)
	}
	c.Decision = d
	t.changed()
	if t.selected+1 < len(t.set.Candidates) {
		t.list.Select(t.selected + 1)
	}
}

// saveEdit keeps the typed text as the question (generated → edited) and
// runs the filters again on it.
func (t *reviewTab) saveEdit() {
	if t.set == nil || t.selected < 0 {
		return
	}
	if strings.TrimSpace(t.question.Text) == "" {
		t.status.SetText(t.t("问题不能为空。", "A question cannot be empty."))
		return
	}
	t.set.Candidates[t.selected].Edit(t.question.Text)
	if s := t.sess(); s != nil {
		if err := s.Refilter(context.Background(), t.set, t.sh.lang()); err != nil {
			t.status.SetText(errText(err))
		}
	}
	t.changed()
	t.selectRow(t.selected)
}

// bulkDecide decides every pending question the filters doubt (flagged)
// or do not.
func (t *reviewTab) bulkDecide(flagged bool, d string) {
	if t.set == nil {
		return
	}
	for i := range t.set.Candidates {
		c := &t.set.Candidates[i]
		if c.Decision == generate.Pending && c.Flagged() == flagged {
			c.Decision = d
		}
	}
	t.changed()
	if t.selected >= 0 {
		t.selectRow(t.selected)
	}
}

func (t *reviewTab) changed() {
	t.list.Refresh()
	t.showCounts()
	t.showDecisionButtons()
}

// showCounts: accepted of all, by query type and by aspect.
func (t *reviewTab) showCounts() {
	if t.set == nil {
		t.counts.SetText("")
		return
	}
	lang := t.sh.lang()
	accType, accAspect := t.set.Counts(generate.Accepted)
	allType, allAspect := t.set.Counts()
	var types, aspects []string
	for _, qt := range querytype.All() {
		if n := allType[qt.Name]; n > 0 {
			types = append(types, fmt.Sprintf("%s %d/%d", qt.Title(lang), accType[qt.Name], n))
		}
	}
	for _, a := range aspect.All() {
		if n := allAspect[a.Name]; n > 0 {
			aspects = append(aspects, fmt.Sprintf("%s %d/%d", a.Title(lang), accAspect[a.Name], n))
		}
	}
	if n := allAspect[""]; n > 0 {
		aspects = append(aspects, fmt.Sprintf("%s %d/%d", t.t("未指定方面", "no aspect asked"), accAspect[""], n))
	}
	sep := t.t("，", ", ")
	t.counts.SetText(fmt.Sprintf(t.t("已采用 %d 个，共 %d 个。按问题类型：%s。按方面：%s。", "Accepted %d of %d. By query type: %s. By aspect: %s."),
		t.accepted(), len(t.set.Candidates), strings.Join(types, sep), strings.Join(aspects, sep)))
}

// chooseSave asks where to save, then saves and opens the set.
func (t *reviewTab) chooseSave() {
	s := t.sess()
	if s == nil || t.set == nil {
		return
	}
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil || w == nil {
			return
		}
		path := w.URI().Path()
		w.Close()
		t.saveTo(path)
	}, t.sh.win)
	base := strings.TrimSuffix(filepath.Base(s.Path), filepath.Ext(s.Path))
	d.SetFileName(base + t.t("-问题集.xlsx", "-questions.xlsx"))
	d.Show()
}

// saveTo writes the accepted questions to path and opens the file as the
// window's workbook, ready to evaluate.
func (t *reviewTab) saveTo(path string) {
	s := t.sess()
	if s == nil || t.set == nil {
		return
	}
	n, err := s.SaveTestSet(path, t.set, t.sh.lang())
	if err != nil {
		t.status.SetText(errText(err))
		return
	}
	t.status.SetText(fmt.Sprintf(t.t("已将 %d 个问题保存到 %s，并已打开以供评估。", "Saved %d questions to %s; it is opened for evaluation."), n, path))
	go t.opened(path)
}
