package ui

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/engine"
	"cubeworkbench/core/session"
)

// Export kinds (the session writes them).
const (
	exportReport = session.ExportReport // the Excel report
	exportJSON   = session.ExportJSON   // SUMMARY.json
	exportCharts = session.ExportCharts // every chart as PNG and SVG
)

// exportTab writes the Excel report, SUMMARY.json and the charts.
type exportTab struct {
	sh   shell
	sess *session.Session // the session shown; nil before a workbook opened
	item *container.TabItem

	dir                       *widget.Entry
	choose                    *widget.Button
	report, json, charts, all *widget.Button
	show                      *widget.Button
	progress                  *widget.ProgressBarInfinite
	status                    *widget.Label
	busy                      bool
}

func newExportTab(sh shell) *exportTab {
	t := &exportTab{sh: sh}
	t.dir = widget.NewEntry()
	t.choose = widget.NewButtonWithIcon(tr("export.choose"), theme.FolderOpenIcon(), func() {
		d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err == nil && u != nil {
				t.dir.SetText(u.Path())
			}
		}, sh.win)
		d.Resize(fyne.NewSize(900, 600))
		d.Show()
	})
	run := func(kinds ...string) func() { return func() { t.start(kinds...) } }
	t.report = widget.NewButtonWithIcon(tr("export.report"), theme.DocumentSaveIcon(), run(exportReport))
	t.json = widget.NewButtonWithIcon(tr("export.json"), theme.DocumentSaveIcon(), run(exportJSON))
	t.charts = widget.NewButtonWithIcon(tr("export.charts"), theme.DocumentSaveIcon(), run(exportCharts))
	t.all = widget.NewButtonWithIcon(tr("export.all"), theme.DownloadIcon(), run(exportReport, exportJSON, exportCharts))
	t.all.Importance = widget.HighImportance
	t.show = widget.NewButtonWithIcon(tr("export.show"), theme.FolderOpenIcon(), func() {
		if u, err := url.Parse(storage.NewFileURI(t.dir.Text).String()); err == nil {
			if err := sh.app.OpenURL(u); err != nil {
				t.status.SetText(tr("judges.error") + " " + err.Error())
			}
		}
	})
	t.progress = widget.NewProgressBarInfinite()
	t.progress.Hide()
	t.status = widget.NewLabel("")
	t.status.Wrapping = fyne.TextWrapWord
	t.status.Selectable = true
	form := widget.NewForm(widget.NewFormItem(tr("export.folder"), container.NewBorder(nil, nil, nil, t.choose, t.dir)))
	body := container.NewVBox(wrapLabel(tr("export.help")), form,
		container.NewHBox(t.all, t.report, t.json, t.charts, t.show), t.progress, t.status)
	t.item = container.NewTabItemWithIcon(tr("tab.export"), theme.DownloadIcon(), container.NewVScroll(body))
	return t
}

// refresh shows sess: it enables the buttons when there is a result and
// proposes a folder beside the workbook.
func (t *exportTab) refresh(sess *session.Session) {
	t.sess = sess
	if t.dir.Text == "" && sess != nil {
		base := strings.TrimSuffix(filepath.Base(sess.Path), filepath.Ext(sess.Path))
		t.dir.SetText(filepath.Join(filepath.Dir(sess.Path), base+"-report"))
	}
	for _, b := range []*widget.Button{t.report, t.json, t.charts, t.all} {
		if t.result() == nil || t.busy {
			b.Disable()
		} else {
			b.Enable()
		}
	}
	if t.result() == nil {
		t.status.SetText(tr("export.no_result"))
	} else if !t.busy && t.status.Text == tr("export.no_result") {
		t.status.SetText("")
	}
}

// result is the shown session's last result; nil before one.
func (t *exportTab) result() *engine.Result {
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
			var lines []string
			for _, p := range written {
				lines = append(lines, trf("export.wrote", map[string]any{"Path": p}))
			}
			if err != nil {
				lines = append(lines, tr("judges.error")+" "+err.Error())
			}
			t.status.SetText(strings.Join(lines, "\n"))
		})
	}()
}

// exportTo writes the chosen outputs of the session's last evaluation into
// dir and returns the paths written: the session writes exactly what the
// CLI writes, with the profile of that evaluation.
func exportTo(ctx context.Context, sess *session.Session, dir, lang string, kinds ...string) ([]string, error) {
	if dir == "" {
		return nil, fmt.Errorf("ui: export: %s", tr("export.no_folder"))
	}
	return sess.Export(ctx, dir, lang, kinds...)
}
