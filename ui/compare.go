package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/compare"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/result"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// compareTab is the Compare view: pick the other answer set or another
// workbook, run the comparison off the UI thread (core/session's one
// flow, the same as `cubectl compare`), then see the verdict, the deltas
// with their paired intervals as a table and a forest plot, and the
// regressions; tapping one shows both answers side by side. It reads the
// window's session when it is shown and when it runs.
type compareTab struct {
	w    *Window
	item *container.TabItem

	mode     *widget.RadioGroup
	sets     *widget.Select
	bookPath string
	book     *widget.Button
	bookName *widget.Label
	run      *widget.Button
	cancel   *widget.Button // stops a running comparison (it may be a paid run)
	stop     context.CancelFunc
	bar      *widget.ProgressBar
	status   *widget.Label

	verdict   *canvas.Text
	verdictBg *canvas.Rectangle
	headline  *widget.Label
	warnings  *widget.Label
	table     *fyne.Container // the delta table: a header row, then one row per compare.Rows
	forest    *chartView
	counts    *widget.Label
	regList   *widget.List

	running bool
	sess    *session.Session // the session the shown comparison is of
	result  *compare.Result
	// cells are the delta table's labels by row key and column (for the
	// tests: what the window shows).
	cells map[string][]*widget.Label
	// shownA, shownB are the answers of the regression last tapped.
	shownA, shownB *widget.Label
}

// compareColumns are the delta table's columns after the label.
const compareColumns = 6 // A, B, Δ, 95 % interval, detectable, verdict

// newCompareTab builds the Compare tab of w.
func newCompareTab(w *Window) *compareTab {
	t := &compareTab{w: w, cells: map[string][]*widget.Label{}}
	t.mode = widget.NewRadioGroup([]string{tr("compare.mode_set"), tr("compare.mode_workbook")}, func(string) { t.modeChanged() })
	t.mode.Horizontal = true
	t.sets = widget.NewSelect(nil, nil)
	t.sets.PlaceHolder = tr("compare.pick_set")
	t.bookName = widget.NewLabel(tr("compare.no_workbook"))
	t.book = widget.NewButtonWithIcon(tr("compare.choose_workbook"), theme.FolderOpenIcon(), t.chooseWorkbook)
	t.run = widget.NewButtonWithIcon(tr("compare.run"), theme.MediaPlayIcon(), t.start)
	t.run.Importance = widget.HighImportance
	t.cancel = widget.NewButtonWithIcon(tr("eval.cancel"), theme.MediaStopIcon(), t.Cancel)
	t.cancel.Disable()
	t.bar = widget.NewProgressBar()
	t.status = widget.NewLabel("")
	t.status.Wrapping = fyne.TextWrapWord

	t.verdict = canvas.NewText("", theme.Color(theme.ColorNameBackground))
	t.verdict.TextSize = 20
	t.verdict.TextStyle.Bold = true
	t.verdictBg = canvas.NewRectangle(colorNeutral)
	t.verdictBg.CornerRadius = 6
	t.headline = widget.NewLabel(tr("compare.none"))
	t.headline.Wrapping = fyne.TextWrapWord
	t.warnings = widget.NewLabel("")
	t.warnings.Wrapping = fyne.TextWrapWord
	t.warnings.Importance = widget.DangerImportance
	t.warnings.TextStyle.Bold = true
	t.table = container.NewHBox()
	t.forest = newChartView(w.shell(), fyne.NewSize(420, 320))
	t.counts = widget.NewLabel("")
	t.counts.Wrapping = fyne.TextWrapWord
	t.regList = widget.NewList(
		func() int {
			if t.result == nil {
				return 0
			}
			return len(t.result.Regressions)
		},
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if t.result == nil || id >= len(t.result.Regressions) {
				return
			}
			ch := t.result.Regressions[id]
			o.(*widget.Label).SetText(fmt.Sprintf("%s  %s  %s", ch.ID, compare.FmtSigned(&ch.Diff), oneLine(ch.Question)))
		})
	t.regList.OnSelected = func(id widget.ListItemID) {
		t.showRegression(id)
		t.regList.Unselect(id)
	}

	t.mode.SetSelected(tr("compare.mode_set"))
	intro := widget.NewLabelWithStyle(tr("compare.intro"), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	intro.Wrapping = fyne.TextWrapWord
	controls := container.NewVBox(
		intro,
		t.mode,
		container.NewBorder(nil, nil, widget.NewLabel(tr("compare.other_set")), nil, t.sets),
		container.NewBorder(nil, nil, t.book, nil, t.bookName),
		container.NewBorder(nil, nil, container.NewHBox(t.run, t.cancel), nil, t.bar),
		t.status,
	)
	verdict := container.NewStack(t.verdictBg, container.NewPadded(t.verdict))
	results := container.NewVBox(
		container.NewHBox(verdict), t.headline, t.warnings,
		widget.NewLabelWithStyle(tr("compare.deltas"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		t.table, t.forest, t.counts,
	)
	regTitle := widget.NewLabelWithStyle(tr("compare.regressions"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	regTitle.Wrapping = fyne.TextWrapWord // never wider than its pane
	regs := container.NewBorder(regTitle, nil, nil, nil, t.regList)
	// No scroll around the split: content wider than the window would push
	// the regressions off screen and the divider out of reach. The delta
	// table is as wide as its columns (ui TestFitsSmallScreen).
	split := container.NewHSplit(container.NewVScroll(results), regs)
	split.Offset = 0.72
	view := &compareView{t: t, content: container.NewBorder(controls, nil, nil, nil, split)}
	view.ExtendBaseWidget(view)
	t.item = container.NewTabItemWithIcon(tr("compare.tab"), theme.ViewRefreshIcon(), view)
	return t
}

// compareView is the tab's content. The tabs show a tab's content when it
// is selected, so Show picks up the window's current workbook then.
type compareView struct {
	widget.BaseWidget
	t       *compareTab
	content fyne.CanvasObject
}

func (v *compareView) Show() {
	v.t.sync()
	v.BaseWidget.Show()
}

func (v *compareView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(v.content)
}

// refresh forgets a comparison of another workbook than sess's: opening a
// workbook resets the tab (UI thread).
func (t *compareTab) refresh(sess *session.Session) {
	if sess == t.sess {
		return
	}
	t.sess = sess
	t.result = nil
	t.verdict.Text = ""
	t.verdict.Refresh()
	t.verdictBg.FillColor = colorNeutral
	t.verdictBg.Refresh()
	t.headline.SetText(tr("compare.none"))
	t.warnings.SetText("")
	t.table.Objects = nil
	t.table.Refresh()
	t.cells = map[string][]*widget.Label{}
	t.forest.set(nil)
	t.counts.SetText("")
	t.status.SetText("")
	t.bar.SetValue(0)
	t.regList.Refresh()
	t.sync()
}

// sync fills the answer sets of the open workbook (UI thread).
func (t *compareTab) sync() {
	var sets []string
	if s := t.w.sess; s != nil {
		sets = session.OtherSystems(s.Workbook)
	}
	t.sets.Options = sets
	if !slices.Contains(sets, t.sets.Selected) {
		if len(sets) > 0 {
			t.sets.SetSelected(sets[0])
		} else {
			t.sets.ClearSelected()
		}
	}
	t.sets.Refresh()
	t.modeChanged()
}

func (t *compareTab) modeChanged() {
	if t.sets == nil || t.book == nil {
		return
	}
	if t.mode.Selected == tr("compare.mode_workbook") {
		t.sets.Disable()
		t.book.Enable()
	} else {
		t.sets.Enable()
		t.book.Disable()
	}
}

func (t *compareTab) chooseWorkbook() {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil || rc == nil {
			return
		}
		rc.Close()
		t.setWorkbook(rc.URI().Path())
	}, t.w.win)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
	translatePlaces(t.w.win.Canvas())
}

// setWorkbook chooses the other workbook (the dialog, and tests).
func (t *compareTab) setWorkbook(path string) {
	t.bookPath = path
	t.bookName.SetText(filepath.Base(path))
}

// start runs the comparison off the UI thread.
func (t *compareTab) start() {
	s := t.w.sess
	switch {
	case t.running:
		return
	case s == nil || s.Result() == nil:
		t.status.SetText(tr("compare.evaluate_first"))
		return
	case t.w.eval != nil && t.w.eval.running:
		t.status.SetText(tr("compare.busy"))
		return
	}
	byBook := t.mode.Selected == tr("compare.mode_workbook")
	set, book := t.sets.Selected, t.bookPath
	if !byBook && set == "" {
		t.status.SetText(tr("compare.no_set"))
		return
	}
	if byBook && book == "" {
		t.status.SetText(tr("compare.no_workbook"))
		return
	}
	p := t.w.prof
	p.Language = t.w.lang.String()
	offline := t.w.eval != nil && t.w.eval.offline.Checked
	t.running = true
	t.run.Disable()
	ctx, stop := context.WithCancel(context.Background())
	t.stop = stop
	t.cancel.Enable()
	t.bar.SetValue(0)
	t.status.SetText(tr("compare.running"))
	prog := newCoalescer(t.w.do, t.showEvent)
	o := session.CompareOptions{EvalOptions: session.EvalOptions{Offline: offline, Progress: prog}}
	lang := t.w.lang
	go func() {
		var r *compare.Result
		var err error
		if byBook {
			var c *session.Comparison
			c, err = s.CompareWith(ctx, p, dataset.SetRAG, session.CompareSide{Path: book}, o)
			if c != nil {
				r = c.Result
			}
		} else {
			r, err = s.CompareSets(ctx, p, dataset.SetRAG, set, o)
		}
		t.w.do(func() {
			t.running = false
			t.run.Enable()
			t.cancel.Disable()
			t.stop = nil
			// Explain before stop: a context cancelled here, not by the
			// user, would make every refusal read "cancelled by the user".
			if err != nil {
				t.status.SetText(errorText(ctx, err, s.StorePath, lang))
			}
			stop()
			if err != nil {
				return
			}
			if s != t.w.sess { // another workbook opened meanwhile
				return
			}
			t.bar.SetValue(1)
			t.status.SetText(tr("compare.done"))
			t.sess = s
			t.show(r)
		})
	}()
}

// errorText is why a comparison stopped, in session.Explain's words (the
// CLI prints the same): an interruption says what was kept.
func errorText(ctx context.Context, err error, storePath string, lang text.Lang) string {
	st := session.Explain(ctx, err, storePath)
	if st.Kind == session.StopInterrupted {
		return st.Text.In(lang)
	}
	return tr("judges.error") + " " + st.Text.In(lang)
}

// Cancel stops a running comparison; what was judged stays in the run store.
func (t *compareTab) Cancel() {
	if t.stop != nil {
		t.stop()
		t.status.SetText(tr("eval.cancelling"))
		t.cancel.Disable()
	}
}

// showEvent shows the latest progress event (UI thread).
func (t *compareTab) showEvent(e result.Event) {
	if e.Step == session.StepCompare && e.Total > 0 {
		t.bar.SetValue(float64(e.Done) / float64(e.Total))
		return
	}
	if e.Total > 0 {
		name := e.Step
		if k := "step." + e.Step; tr(k) != k {
			name = stepName(e.Step)
		}
		t.status.SetText(fmt.Sprintf("%s %s %d/%d", name, e.Label, e.Done, e.Total))
	} else if e.Message != "" {
		t.status.SetText(e.Message)
	}
}

// show puts a comparison on screen (UI thread).
func (t *compareTab) show(r *compare.Result) {
	lang := t.w.lang
	t.result = r
	v := compare.VerdictText(r.Verdict)
	t.verdict.Text = v.In(lang)
	t.verdict.Refresh()
	switch r.Verdict {
	case compare.VerdictBetter:
		t.verdictBg.FillColor = colorGood
	case compare.VerdictWorse:
		t.verdictBg.FillColor = colorBad
	case compare.VerdictNone:
		t.verdictBg.FillColor = colorWarn
	default:
		t.verdictBg.FillColor = colorNeutral
	}
	t.verdictBg.Refresh()
	t.headline.SetText(r.Headline.In(lang))
	var ws []string
	for _, m := range r.Warnings {
		ws = append(ws, "⚠ "+m.In(lang))
	}
	t.warnings.SetText(strings.Join(ws, "\n"))

	// One column per VBox, each as wide as its widest cell (a grid would
	// make all seven as wide as the widest, past a 1024 screen).
	cols := make([]*fyne.Container, 1+compareColumns)
	na, nb := r.Names() // rag → 被测系统回答
	for i, h := range []string{tr("compare.col_figure"), na.In(lang), nb.In(lang), "Δ", tr("compare.col_ci"), tr("compare.col_detectable"), tr("compare.col_verdict")} {
		align := fyne.TextAlignTrailing // over right-aligned numbers
		if i == 0 {
			align = fyne.TextAlignLeading
		}
		cols[i] = container.NewVBox(widget.NewLabelWithStyle(h, align, fyne.TextStyle{Bold: true}))
	}
	t.cells = map[string][]*widget.Label{}
	for _, row := range compare.Rows(r, lang) {
		d := row.Delta
		cells := []*widget.Label{widget.NewLabel(row.Label)}
		for _, text := range []string{compare.Fmt1(d.A), compare.Fmt1(d.B), compare.FmtSigned(d.Diff), compare.FmtCI(d.CI95), compare.Fmt1(d.Detectable), compare.VerdictText(d.Verdict).In(lang)} {
			cells = append(cells, widget.NewLabelWithStyle(text, fyne.TextAlignTrailing, fyne.TextStyle{}))
		}
		for i, c := range cells {
			cols[i].Add(c)
		}
		t.cells[row.Key] = cells[1:]
	}
	t.table.Objects = nil
	for _, c := range cols {
		t.table.Add(c)
	}
	t.table.Refresh()
	fo := forestOf(r, lang)
	// As tall as the plot needs for its rows (the results scroll), so
	// each row's numbers sit clear of the next row.
	t.forest.min.Height = float32(chart.ForestHeight(len(fo.Rows)) * chart.DPI / 72)
	t.forest.set(func(o chart.Options) (*chart.Figure, error) {
		o.Lang = lang
		return chart.ForestPlot(fo, o)
	})
	t.counts.SetText(trf("compare.counts", map[string]any{"Better": r.Better, "Worse": r.Worse, "Same": r.Same, "NA": r.NotComparable, "Tol": compare.Fmt1(&r.Tolerance)}))
	t.regList.Refresh()
}

// showRegression opens both answers of a regression side by side.
func (t *compareTab) showRegression(id int) {
	if t.result == nil || id >= len(t.result.Regressions) {
		return
	}
	ch := t.result.Regressions[id]
	answer := func(text string) *widget.Label {
		l := widget.NewLabel(text)
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	t.shownA, t.shownB = answer(ch.AnswerA), answer(ch.AnswerB)
	col := func(title string, l *widget.Label) fyne.CanvasObject {
		return container.NewBorder(widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, container.NewVScroll(l))
	}
	lang := currentLanguage()
	title := func(name text.Text, set string) string {
		if s := glossary.Name(glossary.SetID, set, lang); s != name.In(lang) {
			return name.In(lang) + " · " + s
		}
		return name.In(lang)
	}
	na, nb := t.result.Names()
	sides := container.NewHSplit(col(title(na, ch.SetA), t.shownA), col(title(nb, ch.SetB), t.shownB))
	q := widget.NewLabel(fmt.Sprintf("%s · Δ %s · %s", ch.ID, compare.FmtSigned(&ch.Diff), ch.Question))
	q.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(tr("compare.side_by_side"), tr("dialog.close"), container.NewBorder(q, nil, nil, nil, sides), t.w.win)
	d.Resize(fyne.NewSize(1000, 600))
	d.Show()
}

// forestOf is the forest plot's data: the rows of the delta table.
func forestOf(r *compare.Result, lang text.Lang) chart.Forest {
	var fo chart.Forest
	for _, row := range compare.Rows(r, lang) {
		d := row.Delta
		fr := chart.ForestRow{Label: row.Label, Diff: d.Diff, Verdict: d.Verdict}
		if d.CI95 != nil {
			lo, hi := d.CI95[0], d.CI95[1]
			fr.Lo, fr.Hi = &lo, &hi
		}
		fo.Rows = append(fo.Rows, fr)
	}
	return fo
}

// coalescer hands the latest engine event to show on the UI thread, with
// at most one hand-over queued: the engine's workers never wait for the
// window, and the window never falls behind a flood of events.
type coalescer struct {
	mu      sync.Mutex
	latest  result.Event
	pending bool
	do      func(func())
	show    func(result.Event)
}

func newCoalescer(do func(func()), show func(result.Event)) *coalescer {
	return &coalescer{do: do, show: show}
}

func (c *coalescer) Event(e result.Event) {
	c.mu.Lock()
	c.latest = e
	if c.pending {
		c.mu.Unlock()
		return
	}
	c.pending = true
	c.mu.Unlock()
	c.do(func() {
		c.mu.Lock()
		e := c.latest
		c.pending = false
		c.mu.Unlock()
		c.show(e)
	})
}
