package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// chartSpec is one chart the results allow: a file name and a builder.
type chartSpec struct {
	file  string // base name of the exported files
	title string
	build func(lang text.Lang) (*chart.Figure, error)
}

// chartSpecs lists the charts of the session's result, built by the
// session's Figures from the data the report draws from: score histograms,
// correlation heatmaps, CuBE per judge, the three sets per judge, MFSS
// radar, CoFE by query type.
func chartSpecs(sess *session.Session) []chartSpec {
	if sess == nil {
		return nil
	}
	var out []chartSpec
	for _, f := range sess.Figures() {
		var title string
		switch f.Kind {
		case "bounds":
			title = tr("chart.bounds") + " · " + judgeLabel(f.Judge)
		case "mfss_radar":
			title = tr("chart.radar")
		case "cofe_query_types":
			title = tr("chart.cofe")
		default:
			title = tr("chart." + f.Kind)
		}
		opts := chart.Options{}
		if strings.HasPrefix(f.Kind, "heatmap") {
			opts.Title = title
		}
		out = append(out, chartSpec{file: f.File, title: title, build: func(lang text.Lang) (*chart.Figure, error) {
			o := opts
			o.Lang = lang
			return f.Build(o)
		}})
	}
	return out
}

// chartsTab draws one chart at a time; rendering runs off the UI thread.
type chartsTab struct {
	sh   shell
	item *container.TabItem

	pick      *widget.Select
	image     *chartView // drawn at the size it is shown at
	status    *widget.Label
	savePNG   *widget.Button
	saveSVG   *widget.Button
	specs     []chartSpec
	current   *chart.Figure
	rendering int // generation, so a slow render does not overwrite a newer one
}

func newChartsTab(sh shell) *chartsTab {
	t := &chartsTab{sh: sh}
	t.pick = widget.NewSelect(nil, func(string) { t.render() })
	t.pick.PlaceHolder = tr("chart.pick")
	t.image = newChartView(sh, fyne.NewSize(320, 240))
	t.status = widget.NewLabel("")
	t.savePNG = widget.NewButtonWithIcon(tr("chart.save_png"), theme.DocumentSaveIcon(), func() { t.save("png") })
	t.saveSVG = widget.NewButtonWithIcon(tr("chart.save_svg"), theme.DocumentSaveIcon(), func() { t.save("svg") })
	top := container.NewBorder(nil, nil, nil, container.NewHBox(t.savePNG, t.saveSVG, t.status), t.pick)
	t.item = container.NewTabItemWithIcon(tr("tab.charts"), theme.GridIcon(), container.NewBorder(top, nil, nil, nil, t.image))
	return t
}

// refresh shows the charts of sess's last result.
func (t *chartsTab) refresh(sess *session.Session) {
	t.specs = chartSpecs(sess)
	names := make([]string, len(t.specs))
	for i, s := range t.specs {
		names[i] = s.title
	}
	t.pick.Options = names
	t.current = nil
	t.image.set(nil)
	if len(names) == 0 {
		t.pick.ClearSelected()
		t.status.SetText(tr("chart.none"))
		t.savePNG.Disable()
		t.saveSVG.Disable()
		return
	}
	t.status.SetText("")
	t.pick.SetSelected(names[0])
}

func (t *chartsTab) spec() *chartSpec {
	for i := range t.specs {
		if t.specs[i].title == t.pick.Selected {
			return &t.specs[i]
		}
	}
	return nil
}

// render draws the chosen chart in a goroutine and shows it when done.
func (t *chartsTab) render() {
	s := t.spec()
	if s == nil {
		return
	}
	t.rendering++
	gen, lang := t.rendering, t.sh.lang()
	t.status.SetText(tr("chart.rendering"))
	t.savePNG.Disable()
	t.saveSVG.Disable()
	build := s.build
	go func() {
		fig, err := build(lang) // at its own size: what Save writes
		t.sh.do(func() {
			if gen != t.rendering {
				return
			}
			if err != nil {
				t.status.SetText(tr("judges.error") + " " + errText(err))
				return
			}
			t.current = fig
			t.image.set(func(o chart.Options) (*chart.Figure, error) {
				f, err := build(lang)
				if err != nil {
					return nil, err
				}
				f.Width, f.Height = o.Width, o.Height // a figure draws itself at its canvas's size
				return f, nil
			})
			t.status.SetText("")
			t.savePNG.Enable()
			t.saveSVG.Enable()
		})
	}()
}

// save exports the chart shown as PNG or SVG through a save dialog.
func (t *chartsTab) save(ext string) {
	fig, s := t.current, t.spec()
	if fig == nil || s == nil {
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			return
		}
		go func() {
			defer wc.Close()
			data, err := figureBytes(fig, ext)
			if err == nil {
				_, err = wc.Write(data)
			}
			msg := trf("export.wrote", map[string]any{"Path": wc.URI().Path()})
			if err != nil {
				msg = tr("judges.error") + " " + errText(err)
			}
			t.sh.do(func() { t.status.SetText(msg) })
		}()
	}, t.sh.win)
	d.SetFileName(s.file + "." + ext)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
	translatePlaces(t.sh.win.Canvas())
}

func figureBytes(fig *chart.Figure, ext string) ([]byte, error) { return session.FigureBytes(fig, ext) }
