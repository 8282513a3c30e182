package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/session"
)

// openTab opens a workbook (file dialog, drop, recent, the sample) and shows
// its sheets as tables with the validation messages beside them.
type openTab struct {
	sh   shell
	act  openActions
	item *container.TabItem

	// What refresh was handed: the session shown (nil before a workbook
	// opened or when the last one failed), the path last tried, its error.
	sess    *session.Session
	path    string
	loadErr error

	openFile, openFolder, openSample *widget.Button
	recent                           *widget.Select
	skipBad                          *widget.Check
	readHidden                       *widget.Check // read hidden and very hidden sheets too
	summary                          *widget.Label
	sheets                           *container.AppTabs
	guides, qa, scores               *sliceTable
	problems                         *widget.List
	problemsTitle                    *widget.Label
}

// openActions are what the open tab asks of the window: the session is
// replaced there, and every tab is shown the new one.
type openActions struct {
	open func(path string) // read a workbook, off the UI thread
	// reread reads the shown workbook again with the tab's choices (skip
	// rows with errors, hidden sheets): never a run, never another tab.
	reread func(path string)
	sample func(skip bool) // write the bundled sample and open it
	recent func() []string // recently opened workbooks that still exist
}

func newOpenTab(sh shell, act openActions) *openTab {
	t := &openTab{sh: sh, act: act}
	t.openFile = widget.NewButtonWithIcon(tr("open.file"), theme.FolderOpenIcon(), t.chooseFile)
	t.openFolder = widget.NewButtonWithIcon(tr("open.folder"), theme.FolderIcon(), t.chooseFolder)
	t.openSample = widget.NewButtonWithIcon(tr("open.sample"), theme.FileApplicationIcon(), func() { t.act.sample(t.skipBad.Checked) })
	t.recent = widget.NewSelect(nil, func(p string) {
		if p != "" && p != t.path {
			t.act.open(p)
		}
	})
	t.recent.PlaceHolder = tr("open.recent")
	t.skipBad = widget.NewCheck(tr("open.skip_bad"), func(bool) {
		if t.path != "" {
			t.act.reread(t.path)
		}
	})
	t.readHidden = widget.NewCheck(tr("open.read_hidden"), func(bool) {
		if t.path != "" {
			t.act.reread(t.path)
		}
	})
	t.summary = widget.NewLabel(tr("open.hint"))
	t.summary.Wrapping = fyne.TextWrapWord

	wb := func() *dataset.Workbook {
		if t.workbook() == nil {
			return &dataset.Workbook{}
		}
		return t.workbook()
	}
	t.guides = newSliceTable([]column{
		{tr("col.row"), 60, func(i int) string { return strconv.Itoa(wb().Guides[i].Row) }},
		{tr("col.doc_id"), 140, func(i int) string { return wb().Guides[i].ID }},
		{tr("col.title"), 260, func(i int) string { return wb().Guides[i].Title }},
		{tr("col.text"), 520, func(i int) string { return wb().Guides[i].Text }},
	}, func() int { return len(wb().Guides) })
	t.qa = newSliceTable([]column{
		{tr("col.row"), 60, func(i int) string { return strconv.Itoa(wb().Items[i].Row) }},
		{tr("col.id"), 90, func(i int) string { return wb().Items[i].ID }},
		{tr("col.question"), 300, func(i int) string { return wb().Items[i].Question }},
		{tr("col.gold"), 120, func(i int) string { return wb().Items[i].DocID }},
		{tr("col.retrieved"), 160, func(i int) string { return strings.Join(wb().Items[i].Retrieved, " | ") }},
		{tr("col.answer"), 300, func(i int) string { return wb().Items[i].Answer(dataset.SetRAG) }},
		{tr("col.zero"), 160, func(i int) string { return wb().Items[i].Answer(dataset.SetZero) }},
		{tr("col.full"), 160, func(i int) string { return wb().Items[i].Answer(dataset.SetFull) }},
	}, func() int { return len(wb().Items) })
	t.scores = newSliceTable([]column{
		{tr("col.row"), 60, func(i int) string { return rowText(wb().Scores.At(i).Row) }},
		{tr("col.id"), 90, func(i int) string { return wb().Scores.At(i).ItemID }},
		{tr("col.set"), 60, func(i int) string { return wb().Scores.At(i).Set }},
		{tr("col.judge"), 140, func(i int) string { return wb().Scores.At(i).Judge }},
		{tr("col.dimension"), 120, func(i int) string { return wb().Scores.At(i).Dimension }},
		{tr("col.score"), 70, func(i int) string {
			j := wb().Scores.At(i)
			if !j.OK() {
				return tr("na")
			}
			return strconv.FormatFloat(j.Score, 'f', -1, 64)
		}},
		{tr("col.status"), 100, func(i int) string { return wb().Scores.At(i).Status }},
		{tr("col.raw"), 400, func(i int) string { return wb().Scores.At(i).Raw }},
	}, func() int { return wb().Scores.Len() })
	t.sheets = newTabs(
		container.NewTabItem(tr("sheet.guides"), t.guides),
		container.NewTabItem(tr("sheet.qa"), t.qa),
		container.NewTabItem(tr("sheet.scores"), t.scores),
	)

	t.problemsTitle = heading("open.problems")
	t.problems = widget.NewList(
		func() int { return t.problemCount() },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Wrapping = fyne.TextWrapWord
			return container.NewBorder(nil, nil, widget.NewIcon(theme.ErrorIcon()), nil, l)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			rowsUpdated++
			c := o.(*fyne.Container)
			l, icon := c.Objects[0].(*widget.Label), c.Objects[1].(*widget.Icon)
			if id >= t.problemCount() {
				return
			}
			p := t.problem(id)
			l.SetText(p.Message(t.sh.lang()))
			if p.Severity == dataset.SeverityWarning {
				icon.SetResource(theme.WarningIcon())
			} else {
				icon.SetResource(theme.ErrorIcon())
			}
			t.problems.SetItemHeight(id, l.MinSize().Height)
		})
	t.problems.OnSelected = func(id widget.ListItemID) { t.showProblem(id) }

	bar := container.NewHBox(t.openFile, t.openFolder, t.openSample, t.recent)
	checks := container.NewHBox(t.skipBad, t.readHidden)
	right := container.NewBorder(t.problemsTitle, nil, nil, nil, t.problems)
	split := container.NewHSplit(t.sheets, right)
	split.Offset = 0.68
	content := container.NewBorder(container.NewVBox(bar, checks, t.summary), nil, nil, nil, split)
	t.item = container.NewTabItemWithIcon(tr("tab.open"), theme.FolderOpenIcon(), content)
	return t
}

func rowText(r int) string {
	if r == 0 {
		return ""
	}
	return strconv.Itoa(r)
}

// workbook is the shown session's workbook; nil before one opened.
func (t *openTab) workbook() *dataset.Workbook {
	if t.sess == nil {
		return nil
	}
	return t.sess.Shown()
}

// report is what the reader found; nil before a workbook opened.
func (t *openTab) report() *dataset.ReadReport {
	if t.sess == nil {
		return nil
	}
	return t.sess.Report
}

func (t *openTab) problemCount() int {
	r := t.report()
	if r == nil {
		return 0
	}
	return len(r.Problems) + len(r.Skipped)
}

func (t *openTab) problem(i int) dataset.Problem {
	r := t.report()
	if i < len(r.Problems) {
		return r.Problems[i]
	}
	return r.Skipped[i-len(r.Problems)]
}

// refresh shows sess (the workbook at path, or loadErr when it could not
// be read).
func (t *openTab) refresh(sess *session.Session, path string, loadErr error) {
	t.sess, t.path, t.loadErr = sess, path, loadErr
	t.recent.Options = t.act.recent()
	t.recent.Refresh()
	switch {
	case loadErr != nil:
		t.summary.SetText(trf("open.failed", map[string]any{"Error": loadErr.Error()}))
	case t.workbook() == nil:
		t.summary.SetText(tr("open.hint"))
	default:
		wb := t.workbook()
		t.summary.SetText(trf("open.loaded", map[string]any{
			"Guides": len(wb.Guides), "Items": len(wb.Items), "Scores": wb.Scores.Len(), "Human": len(wb.Human),
			"Errors": t.report().Count(dataset.SeverityError), "Warnings": t.report().Count(dataset.SeverityWarning),
		}))
		if sess.Streamed > 0 {
			t.summary.SetText(t.summary.Text + "\n" + trf("open.streamed", map[string]any{"Stored": sess.Streamed, "Store": sess.StorePath}))
		}
	}
	t.problemsTitle.SetText(fmt.Sprintf("%s (%d)", tr("open.problems"), t.problemCount()))
	if t.workbook() != nil && t.problemCount() == 0 {
		t.problemsTitle.SetText(tr("open.problems") + ": " + tr("open.no_problems"))
	}
	t.problems.UnselectAll()
	t.problems.Refresh()
	t.guides.Refresh()
	t.qa.Refresh()
	t.scores.Refresh()
	if wb := t.workbook(); wb != nil && len(wb.Items) > 0 && len(wb.Guides) > 0 && t.sheets.SelectedIndex() == 0 {
		t.sheets.SelectIndex(1)
	}
}

// showProblem selects the row a problem names, in the sheet it names. A
// row with errors is not loaded: then the row before it is selected and
// the summary says so.
func (t *openTab) showProblem(id int) {
	if id >= t.problemCount() || t.workbook() == nil {
		return
	}
	p := t.problem(id)
	sheet, row, exact := t.locate(p)
	if sheet < 0 {
		return
	}
	t.sheets.SelectIndex(sheet)
	table := []*sliceTable{t.guides, t.qa, t.scores}[sheet]
	if n, _ := table.Length(); n == 0 {
		return
	}
	cell := widget.TableCellID{Row: row, Col: 0}
	table.Select(cell)
	table.ScrollTo(cell)
	if !exact {
		t.summary.SetText(trf("open.row_left_out", map[string]any{"Row": p.Row, "File": filepath.Base(p.File)}))
	}
}

// rowsOf returns the source rows of one table (0 guides, 1 qa, 2 scores).
func rowsOf(wb *dataset.Workbook, sheet int) []int {
	var rows []int
	switch sheet {
	case 0:
		for _, g := range wb.Guides {
			rows = append(rows, g.Row)
		}
	case 1:
		for _, it := range wb.Items {
			rows = append(rows, it.Row)
		}
	case 2:
		for j := range wb.Scores.Values() {
			rows = append(rows, j.Row)
		}
	}
	return rows
}

// locate finds the table (0 guides, 1 qa, 2 scores) and the index of the
// row a problem names. The sheet's (or CSV file's) name says which table
// when it can; otherwise the first table holding that source row. When the
// row was left out (rows with errors are), index is the row before it and
// exact is false.
func (t *openTab) locate(p dataset.Problem) (sheet, index int, exact bool) {
	if p.Row <= 0 {
		return -1, 0, false
	}
	name := strings.ToLower(p.Sheet)
	if name == "" {
		name = strings.ToLower(strings.TrimSuffix(filepath.Base(p.File), filepath.Ext(p.File)))
	}
	candidates := []int{1, 0, 2}
	switch {
	case strings.Contains(name, "guide") || strings.Contains(name, "指南") || strings.Contains(name, "知识"):
		candidates = []int{0}
	case strings.Contains(name, "score") || strings.Contains(name, "评分"):
		candidates = []int{2}
	case name == "qa" || strings.Contains(name, "问答") || strings.Contains(name, "question"):
		candidates = []int{1}
	}
	for _, s := range candidates {
		for i, r := range rowsOf(t.workbook(), s) {
			if r == p.Row {
				return s, i, true
			}
		}
	}
	if len(candidates) > 1 {
		return -1, 0, false
	}
	s, best := candidates[0], 0
	for i, r := range rowsOf(t.workbook(), s) {
		if r < p.Row {
			best = i
		}
	}
	return s, best, false
}

func (t *openTab) chooseFile() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		t.act.open(path)
	}, t.sh.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".xlsx", ".csv", ".jsonl", ".json"}))
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
	translatePlaces(t.sh.win.Canvas())
}

func (t *openTab) chooseFolder() {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil || u == nil {
			return
		}
		t.act.open(u.Path())
	}, t.sh.win)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
	translatePlaces(t.sh.win.Canvas())
}

// sampleDir is where "Open sample" writes the bundled workbook: the app's
// own storage, so its run store persists between sessions.
func (w *Window) sampleDir() string {
	return filepath.Join(w.dataDir, "sample")
}

// writeSample writes the embedded sample workbook and returns its path.
func (w *Window) writeSample() (string, error) {
	dir := w.sampleDir()
	path := filepath.Join(dir, sample.FileName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return path, fmt.Errorf("ui: sample: %w", err)
	}
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		return path, fmt.Errorf("ui: sample: %w", err)
	}
	return path, nil
}

// loadSample writes the sample and opens it, off the UI thread.
func (w *Window) loadSample(skip bool) {
	o := w.openOptions(skip)
	go func() {
		path, err := w.writeSample()
		if err != nil {
			w.do(func() { w.setSession(path, nil, err, false) })
			return
		}
		w.loadWith(path, o)
	}()
}

// openAsync starts reading a workbook (UI thread).
func (w *Window) openAsync(path string) {
	w.open.summary.SetText(trf("open.reading", map[string]any{"Path": path}))
	go w.loadWith(path, w.openOptions(w.open.skipBad.Checked))
}

// openOptions are the open tab's choices (UI thread).
func (w *Window) openOptions(skipBad bool) session.OpenOptions {
	return session.OpenOptions{SkipBadRows: skipBad, ReadHiddenSheets: w.open != nil && w.open.readHidden.Checked}
}

// loadWorkbook opens a workbook as a session (off the UI thread) and then
// shows it. A province-sized knowledge base goes into the run store; the
// window keeps only the guides the questions name (session.Open decides).
func (w *Window) loadWorkbook(path string, skipBad bool) {
	w.loadWith(path, session.OpenOptions{SkipBadRows: skipBad})
}

// loadWith reads a workbook with o and shows it; any goroutine.
func (w *Window) loadWith(path string, o session.OpenOptions) {
	sess, err := session.Open(context.Background(), path, o)
	w.do(func() { w.setSession(path, sess, err, true) })
}

// reread reads the shown workbook again with the open tab's choices (UI
// thread): its last result is not restored, since that would be a run
// the user did not ask for.
func (w *Window) reread(path string) {
	w.open.summary.SetText(trf("open.reading", map[string]any{"Path": path}))
	o := w.openOptions(w.open.skipBad.Checked)
	go func() {
		sess, err := session.Open(context.Background(), path, o)
		w.do(func() { w.setSession(path, sess, err, false) })
	}()
}

// setSession makes a freshly opened session the window's (UI thread), and
// every tab forgets the one before: a workbook that holds errors is shown
// as such (its problems in the side pane), never beside the previous
// workbook's results. A file that cannot be read at all leaves a workbook
// already shown, and its results, alone: the open tab says why and that
// the other is still shown. Only a workbook without errors enters 最近打开,
// and only then is its last result restored (restore).
func (w *Window) setSession(path string, sess *session.Session, err error, restore bool) {
	if unreadable(sess, err) && w.sess != nil && path != w.path {
		why := ""
		if err != nil {
			why = errText(err)
		} else {
			var msgs []string
			for i, p := range sess.Report.Problems {
				if i == 5 {
					msgs = append(msgs, "…")
					break
				}
				msgs = append(msgs, p.Message(w.lang))
			}
			why = strings.Join(msgs, "\n")
		}
		w.open.refresh(w.sess, w.path, w.loadErr)
		w.open.summary.SetText(trf("open.failed_kept", map[string]any{"Path": path, "Error": why, "Kept": w.path}))
		// The side pane is the kept workbook's: it says so, so that its
		// 校验通过 is never read as the failed file's.
		w.open.problemsTitle.SetText(filepath.Base(w.path) + " · " + w.open.problemsTitle.Text)
		return
	}
	w.path, w.sess, w.loadErr = path, sess, err
	w.index = nil
	if err == nil && sess.Check() == nil {
		w.addRecent(path)
		if restore {
			go w.restoreLast(sess)
		}
	}
	w.showPath()
	w.refreshAll()
}

// unreadable says nothing of a file could be read: an error, or errors
// and not one guide or question.
func unreadable(sess *session.Session, err error) bool {
	if err != nil || sess == nil {
		return true
	}
	wb := sess.Workbook
	return sess.Check() != nil && (wb == nil || len(wb.Items) == 0 && len(wb.Guides) == 0)
}

// restoreLast shows sess's last finished evaluation, if its run store
// holds one, without a click: reopening a workbook brings its results
// back. It reads the store off the UI thread and never creates one.
func (w *Window) restoreLast(sess *session.Session) {
	p, ok, err := sess.LastProfile(context.Background())
	if err != nil || !ok {
		return
	}
	w.do(func() {
		if w.sess == sess && sess.Result() == nil {
			p.Language = w.lang.String()
			w.eval.restore(sess, p)
		}
	})
}
