package ui

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/cofe"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/engine"
)

// chartSpec is one chart the results allow: a file name and a builder.
type chartSpec struct {
	file  string // base name of the exported files
	title string
	build func(lang string) (*chart.Figure, error)
}

// chartSpecs lists the charts a result can draw (core/chart): score
// histograms, correlation heatmaps, the three sets per judge, CuBE per
// judge, MFSS radar, CoFE by query type.
func chartSpecs(res *engine.Result) []chartSpec {
	if res == nil || res.Summary == nil {
		return nil
	}
	s := res.Summary
	var out []chartSpec
	if r := s.Result; r != nil && len(r.Judges) > 0 {
		allTitle, retTitle := tr("chart.heatmap_all"), tr("chart.heatmap_retrieved")
		out = append(out,
			chartSpec{"histograms", tr("chart.histograms"), func(lang string) (*chart.Figure, error) {
				return chart.Histograms(scoreSamples(res.Workbook, r), chart.Options{Lang: lang})
			}},
			chartSpec{"heatmap_all", tr("chart.heatmap_all"), func(lang string) (*chart.Figure, error) {
				return chart.Heatmap(correlations(r, false), chart.Options{Lang: lang, Title: allTitle})
			}},
			chartSpec{"heatmap_retrieved", tr("chart.heatmap_retrieved"), func(lang string) (*chart.Figure, error) {
				return chart.Heatmap(correlations(r, true), chart.Options{Lang: lang, Title: retTitle})
			}},
			chartSpec{"cube", tr("chart.cube"), func(lang string) (*chart.Figure, error) {
				return chart.CuBEBars(judgeScores(r), chart.Options{Lang: lang})
			}})
		for _, j := range r.Judges {
			j := j
			out = append(out, chartSpec{"bounds_" + safeName(j.Judge), tr("chart.bounds") + " · " + j.Judge, func(lang string) (*chart.Figure, error) {
				b := chart.Bounds{Judge: j.Judge, Dimensions: r.Dimensions}
				for _, d := range r.Dimensions {
					b.Zero = append(b.Zero, j.TrimmedMeans[dataset.SetZero][d])
					b.RAG = append(b.RAG, j.TrimmedMeans[dataset.SetRAG][d])
					b.Full = append(b.Full, j.TrimmedMeans[dataset.SetFull][d])
				}
				return chart.BoundsBars(b, chart.Options{Lang: lang})
			}})
		}
	}
	if m := s.MFSS; m != nil && len(m.Systems) > 0 {
		out = append(out, chartSpec{"mfss_radar", tr("chart.radar"), func(lang string) (*chart.Figure, error) {
			names := make([]string, 0, len(m.Systems))
			for n := range m.Systems {
				names = append(names, n)
			}
			sort.Strings(names)
			var series []chart.RadarSeries
			for _, n := range names {
				f := m.Systems[n]
				vals := map[string]float64{"accuracy": f.Accuracy, "factual": f.FactualConsistency, "conciseness": f.Conciseness,
					"readability": f.Readability, "coherence": f.Coherence, "rouge": f.Rouge}
				rs := chart.RadarSeries{Name: n}
				for _, a := range chart.MFSSFactors {
					v := vals[a]
					rs.Values = append(rs.Values, &v)
				}
				series = append(series, rs)
			}
			return chart.Radar(chart.MFSSFactors, series, chart.Options{Lang: lang})
		}})
	}
	if c := cofeResult(s); c != nil && len(c.ByQueryType) > 0 {
		out = append(out, chartSpec{"cofe_query_types", tr("chart.cofe"), func(lang string) (*chart.Figure, error) {
			types := make([]string, 0, len(c.ByQueryType))
			for q := range c.ByQueryType {
				types = append(types, q)
			}
			sort.Strings(types)
			m := chart.TypeMetrics{Types: types}
			for _, metric := range []string{"accuracy@k", "recall", "coverage", "hit"} {
				ser := chart.Series{Name: metric}
				for _, q := range types {
					x := c.ByQueryType[q]
					ser.Values = append(ser.Values, map[string]*float64{"accuracy@k": x.AccuracyAtK, "recall": x.Recall,
						"coverage": x.Coverage, "hit": x.MeanHitScore}[metric])
				}
				m.Metrics = append(m.Metrics, ser)
			}
			return chart.QueryTypeBars(m, chart.Options{Lang: lang})
		}})
	}
	return out
}

// cofeResult is the summary's CoFE-RAG part, nil when there is none.
func cofeResult(s *engine.Summary) *cofe.Result {
	c, _ := s.CoFE.(*cofe.Result)
	return c
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' || r == '*' || r == '?' {
			return '_'
		}
		return r
	}, s)
}

// scoreSamples are the rag scores per judge and dimension (Figure 1).
func scoreSamples(wb *dataset.Workbook, r *cube.Result) []chart.ScoreSample {
	type key struct{ j, d string }
	m := map[key][]float64{}
	for _, j := range wb.Scores {
		if j.OK() && j.Set == dataset.SetRAG {
			k := key{j.Judge, j.Dimension}
			m[k] = append(m[k], j.Score)
		}
	}
	var out []chart.ScoreSample
	for _, jr := range r.Judges {
		for _, d := range r.Dimensions {
			out = append(out, chart.ScoreSample{Judge: jr.Judge, Dimension: d, Scores: m[key{jr.Judge, d}]})
		}
	}
	return out
}

func correlations(r *cube.Result, retrieved bool) chart.Matrix {
	m := chart.Matrix{Cols: r.Dimensions}
	for _, j := range r.Judges {
		src := j.CorrelationAll
		if retrieved {
			src = j.CorrelationRetrieved
		}
		row := make([]*float64, len(r.Dimensions))
		for i, d := range r.Dimensions {
			row[i] = src[d]
		}
		m.Rows = append(m.Rows, j.Judge)
		m.Values = append(m.Values, row)
	}
	return m
}

func judgeScores(r *cube.Result) chart.JudgeScores {
	var s chart.JudgeScores
	est := func(v *float64, ci *[2]float64) chart.Estimate {
		e := chart.Estimate{Value: v}
		if ci != nil {
			lo, hi := ci[0], ci[1]
			e.Lo, e.Hi = &lo, &hi
		}
		return e
	}
	for _, j := range r.Judges {
		s.Judges = append(s.Judges, j.Judge)
		s.Scores = append(s.Scores, est(j.Cube, j.CubeCI95))
	}
	s.Mean = est(r.Aggregate.Cube.Mean, r.Aggregate.CubeCI95)
	return s
}

// chartsTab draws one chart at a time; rendering runs off the UI thread.
type chartsTab struct {
	w    *Window
	item *container.TabItem

	pick      *widget.Select
	image     *canvas.Image
	status    *widget.Label
	savePNG   *widget.Button
	saveSVG   *widget.Button
	specs     []chartSpec
	current   *chart.Figure
	rendering int // generation, so a slow render does not overwrite a newer one
}

func newChartsTab(w *Window) *chartsTab {
	t := &chartsTab{w: w}
	t.pick = widget.NewSelect(nil, func(string) { t.render() })
	t.pick.PlaceHolder = tr("chart.pick")
	t.image = canvas.NewImageFromImage(nil)
	t.image.FillMode = canvas.ImageFillContain
	t.status = widget.NewLabel("")
	t.savePNG = widget.NewButtonWithIcon(tr("chart.save_png"), theme.DocumentSaveIcon(), func() { t.save("png") })
	t.saveSVG = widget.NewButtonWithIcon(tr("chart.save_svg"), theme.DocumentSaveIcon(), func() { t.save("svg") })
	top := container.NewBorder(nil, nil, nil, container.NewHBox(t.savePNG, t.saveSVG, t.status), t.pick)
	t.item = container.NewTabItemWithIcon(tr("tab.charts"), theme.GridIcon(), container.NewBorder(top, nil, nil, nil, t.image))
	return t
}

func (t *chartsTab) refresh() {
	t.specs = chartSpecs(t.w.result)
	names := make([]string, len(t.specs))
	for i, s := range t.specs {
		names[i] = s.title
	}
	t.pick.Options = names
	t.current = nil
	t.image.Image = nil
	t.image.Refresh()
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
	gen, lang := t.rendering, t.w.lang
	t.status.SetText(tr("chart.rendering"))
	t.savePNG.Disable()
	t.saveSVG.Disable()
	build := s.build
	go func() {
		fig, err := build(lang)
		var img image.Image
		if err == nil {
			img = fig.Image()
		}
		t.w.do(func() {
			if gen != t.rendering {
				return
			}
			if err != nil {
				t.status.SetText(tr("judges.error") + " " + err.Error())
				return
			}
			t.current = fig
			t.image.Image = img
			t.image.Refresh()
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
				msg = tr("judges.error") + " " + err.Error()
			}
			t.w.do(func() { t.status.SetText(msg) })
		}()
	}, t.w.win)
	d.SetFileName(s.file + "." + ext)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}

func figureBytes(fig *chart.Figure, ext string) ([]byte, error) {
	if ext == "svg" {
		return fig.SVG()
	}
	return fig.PNG()
}

// writeCharts renders every chart as PNG and SVG into dir.
func writeCharts(res *engine.Result, lang, dir string) ([]string, error) {
	var written []string
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("ui: charts: %w", err)
	}
	for _, s := range chartSpecs(res) {
		fig, err := s.build(lang)
		if err != nil {
			return written, fmt.Errorf("ui: chart %s: %w", s.file, err)
		}
		for _, ext := range []string{"png", "svg"} {
			data, err := figureBytes(fig, ext)
			if err != nil {
				return written, fmt.Errorf("ui: chart %s: %w", s.file, err)
			}
			path := filepath.Join(dir, s.file+"."+ext)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				return written, fmt.Errorf("ui: chart %s: %w", s.file, err)
			}
			written = append(written, path)
		}
	}
	return written, nil
}
