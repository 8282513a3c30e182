package ui

import (
	"context"
	"cubeworkbench/core/result"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/kbexport"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
	"cubeworkbench/core/userdirs"
)

// Export kinds (the session writes them).
const (
	exportReport = session.ExportReport // the Excel report
	exportJSON   = session.ExportJSON   // SUMMARY.json
	exportCharts = session.ExportCharts // every chart as PNG and SVG
)

// exportTab writes the Excel report, SUMMARY.json, the charts and the
// knowledge-base documents, into a folder the officer can find: Documents/
// CuBE by default, or the workbook's folder, or one chosen; the choice is
// remembered.
type exportTab struct {
	sh   shell
	sess *session.Session // the session shown; nil before a workbook opened
	item *container.TabItem

	dir                       *widget.Entry
	choose                    *widget.Button
	where                     *widget.RadioGroup // Documents/CuBE or the workbook's folder
	report, json, charts, all *widget.Button
	kb                        *widget.Button
	show                      *widget.Button
	progress                  *widget.ProgressBarInfinite
	status                    *widget.Label
	busy                      bool
	// openDir opens a folder in the system's file manager and reports
	// whether it could (tests stand in their own).
	openDir func(dir string) error
}

// Export folder choices (prefExportWhere).
const (
	exportInDocuments = "documents" // ~/Documents/CuBE/<workbook>
	exportBesideBook  = "workbook"  // the workbook's folder/<workbook>-报告
	exportChosen      = "chosen"    // prefExportDir, as the user chose it
)

func newExportTab(sh shell) *exportTab {
	t := &exportTab{sh: sh, openDir: openFolder}
	t.dir = widget.NewEntry()
	t.choose = widget.NewButtonWithIcon(tr("export.choose"), theme.FolderOpenIcon(), func() {
		d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err == nil && u != nil {
				t.chosen(u.Path())
			}
		}, sh.win)
		d.Resize(fyne.NewSize(900, 600))
		d.Show()
		translatePlaces(sh.win.Canvas())
	})
	t.where = widget.NewRadioGroup([]string{tr("export.in_documents"), tr("export.beside_workbook")}, func(s string) {
		switch s {
		case tr("export.in_documents"):
			sh.app.Preferences().SetString(prefExportWhere, exportInDocuments)
		case tr("export.beside_workbook"):
			sh.app.Preferences().SetString(prefExportWhere, exportBesideBook)
		default:
			return
		}
		t.dir.SetText(t.defaultDir())
	})
	t.where.Horizontal = true
	switch sh.app.Preferences().String(prefExportWhere) {
	case exportBesideBook:
		t.where.Selected = tr("export.beside_workbook")
	case exportChosen:
	default:
		t.where.Selected = tr("export.in_documents")
	}
	run := func(kinds ...string) func() { return func() { t.start(kinds...) } }
	t.report = widget.NewButtonWithIcon(tr("export.report"), theme.DocumentSaveIcon(), run(exportReport))
	t.json = widget.NewButtonWithIcon(tr("export.json"), theme.DocumentSaveIcon(), run(exportJSON))
	t.charts = widget.NewButtonWithIcon(tr("export.charts"), theme.DocumentSaveIcon(), run(exportCharts))
	t.all = widget.NewButtonWithIcon(tr("export.all"), theme.DownloadIcon(), run(exportReport, exportJSON, exportCharts))
	t.all.Importance = widget.HighImportance
	t.kb = widget.NewButtonWithIcon(tr("export.kb"), theme.DocumentIcon(), t.exportKB)
	t.show = widget.NewButtonWithIcon(tr("export.show"), theme.FolderOpenIcon(), t.showFolder)
	t.progress = widget.NewProgressBarInfinite()
	t.progress.Hide()
	t.status = widget.NewLabel("")
	t.status.Wrapping = fyne.TextWrapWord
	t.status.Selectable = true
	form := widget.NewForm(
		widget.NewFormItem(tr("export.where"), t.where),
		widget.NewFormItem(tr("export.folder"), container.NewBorder(nil, nil, nil, t.choose, t.dir)))
	body := container.NewVBox(wrapLabel(tr("export.help")), form,
		container.NewGridWrap(fyne.NewSize(180, 38), t.all, t.report, t.json, t.charts, t.show),
		t.progress, t.status,
		widget.NewSeparator(), heading("export.kb_title"), wrapLabel(tr("export.kb_help")), container.NewHBox(t.kb))
	t.item = container.NewTabItemWithIcon(tr("tab.export"), theme.DownloadIcon(), container.NewVScroll(body))
	return t
}

// chosen remembers a folder the user picked.
func (t *exportTab) chosen(dir string) {
	t.sh.app.Preferences().SetString(prefExportWhere, exportChosen)
	t.sh.app.Preferences().SetString(prefExportDir, dir)
	t.where.Selected = ""
	t.where.Refresh()
	t.dir.SetText(dir)
}

// defaultDir is the folder the remembered choice gives for the shown
// workbook: Documents/CuBE/<name>, <workbook folder>/<name>-报告, or the
// folder chosen last.
func (t *exportTab) defaultDir() string {
	prefs := t.sh.app.Preferences()
	if prefs.String(prefExportWhere) == exportChosen && prefs.String(prefExportDir) != "" {
		return prefs.String(prefExportDir)
	}
	name := "CuBE"
	if t.sess != nil {
		name = strings.TrimSuffix(filepath.Base(t.sess.Path), filepath.Ext(t.sess.Path))
	}
	if prefs.String(prefExportWhere) == exportBesideBook && t.sess != nil {
		return filepath.Join(filepath.Dir(t.sess.Path), name+"-"+tr("export.suffix"))
	}
	return filepath.Join(documentsDir(), "CuBE", name)
}

// documentsDir is the user's Documents folder as core/userdirs finds it
// (the shell's on Windows, where Documents is often redirected), the home
// folder's Documents when it cannot say.
func documentsDir() string {
	if d, err := userdirs.DocumentsDir(); err == nil && d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return os.TempDir()
	}
	return filepath.Join(home, "Documents")
}

// refresh shows sess: it enables the buttons when there is a result and
// proposes the remembered folder for a newly shown workbook.
func (t *exportTab) refresh(sess *session.Session) {
	changed := sess != t.sess
	t.sess = sess
	if t.dir.Text == "" || changed && sess != nil {
		t.dir.SetText(t.defaultDir())
	}
	for _, b := range []*widget.Button{t.report, t.json, t.charts, t.all} {
		if t.result() == nil || t.busy {
			b.Disable()
		} else {
			b.Enable()
		}
	}
	if t.sess == nil || t.busy {
		t.kb.Disable()
	} else {
		t.kb.Enable()
	}
	if t.result() == nil {
		t.status.SetText(tr("export.no_result"))
	} else if !t.busy && t.status.Text == tr("export.no_result") {
		t.status.SetText("")
	}
}

// showFolder opens the export folder, saying so when it cannot.
func (t *exportTab) showFolder() {
	dir := strings.TrimSpace(t.dir.Text)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.status.SetText(trf("export.no_such_folder", map[string]any{"Dir": dir}))
		return
	}
	open := t.openDir
	go func() {
		err := open(dir)
		t.sh.do(func() {
			if err != nil {
				t.status.SetText(trf("export.open_failed", map[string]any{"Dir": dir, "Error": errText(err)}))
			}
		})
	}()
}

// openFolder asks the desktop to show dir and waits for the answer, so a
// failure is reported rather than lost (xdg-open exits non-zero when no
// file manager takes it).
func openFolder(dir string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "windows":
		cmd = exec.Command("explorer", dir)
	case "darwin":
		cmd = exec.Command("open", dir)
	default:
		cmd = exec.Command("xdg-open", dir)
	}
	out, err := cmd.CombinedOutput()
	if err != nil && runtime.GOOS != "windows" { // explorer exits 1 even when it opened the folder
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return fmt.Errorf("%w: %s", err, oneLine(msg))
		}
		return err
	}
	return nil
}

// exportKB writes the workbook's guides as one document per guide
// (core/kbexport, as `cubectl kb export`), into <folder>/知识库文档.
func (t *exportTab) exportKB() {
	if t.sess == nil || t.busy {
		return
	}
	t.busy = true
	t.progress.Show()
	t.refresh(t.sess)
	t.status.SetText(tr("export.writing"))
	sess, out := t.sess, filepath.Join(t.dir.Text, tr("export.kb_folder"))
	go func() {
		guides := sess.Workbook.Guides
		var err error
		if sess.Streamed > 0 { // the guides are in the run store: read them all, as the CLI does
			var all *session.Session
			if all, err = session.Open(context.Background(), sess.Path, session.OpenOptions{AllGuides: true}); err == nil {
				guides = all.Workbook.Guides
			}
		}
		var text string
		if err == nil {
			var res *kbexport.Result
			if res, err = kbexport.Write(guides, out); err == nil {
				text = trf("export.kb_done", map[string]any{"N": len(res.Entries), "Manifest": kbexport.ManifestName, "Dir": res.Dir})
				if res.Renamed > 0 {
					text += "\n" + trf("export.kb_renamed", map[string]any{"N": res.Renamed, "Manifest": kbexport.ManifestName})
				}
				if res.Empty > 0 {
					text += "\n" + trf("export.kb_empty", map[string]any{"N": res.Empty})
				}
			}
		}
		if err != nil {
			text = tr("judges.error") + " " + errText(err)
		}
		t.sh.do(func() {
			t.busy = false
			t.progress.Hide()
			t.refresh(t.sess)
			t.status.SetText(text)
		})
	}()
}

// result is the shown session's last result; nil before one.
func (t *exportTab) result() *result.Outcome {
	if t.sess == nil {
		return nil
	}
	return t.sess.Result()
}

// start writes the chosen outputs in a goroutine (UI thread).
func (t *exportTab) start(kinds ...string) {
	if t.result() == nil || t.busy {
		return
	}
	t.busy = true
	t.progress.Show()
	t.refresh(t.sess)
	t.status.SetText(tr("export.writing"))
	sess, lang, dir := t.sess, t.sh.lang(), t.dir.Text
	go func() {
		written, err := exportTo(context.Background(), sess, dir, lang, kinds...)
		t.sh.do(func() {
			t.busy = false
			t.progress.Hide()
			t.refresh(t.sess)
			// One line: how many files, where; the folder button opens it.
			text := trf("export.done", map[string]any{"N": len(written), "Dir": dir})
			if err != nil {
				text = tr("judges.error") + " " + errText(err)
				if len(written) > 0 {
					text = trf("export.done", map[string]any{"N": len(written), "Dir": dir}) + "\n" + text
				}
			}
			t.status.SetText(text)
		})
	}()
}

// exportTo writes the chosen outputs of the session's last evaluation into
// dir and returns the paths written: the session writes exactly what the
// CLI writes, with the profile of that evaluation.
func exportTo(ctx context.Context, sess *session.Session, dir string, lang text.Lang, kinds ...string) ([]string, error) {
	if dir == "" {
		return nil, fmt.Errorf("ui: export: %s", tr("export.no_folder"))
	}
	return sess.Export(ctx, dir, lang, kinds...)
}
