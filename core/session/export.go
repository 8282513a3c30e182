package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/figures"
	"cubeworkbench/core/report"
	"cubeworkbench/core/text"
)

// ErrNoResult is returned by exports before an evaluation finished.
var ErrNoResult error = text.NewError(text.New("尚未完成评估", "nothing evaluated yet"), nil)

// Export kinds, and the file each writes into an export folder.
const (
	ExportReport = "report" // report.xlsx
	ExportJSON   = "json"   // SUMMARY.json
	ExportCharts = "charts" // charts/*.png and *.svg
)

// Names of the files an export folder holds.
const (
	ReportFile  = "report.xlsx"
	SummaryFile = "SUMMARY.json"
	ChartsDir   = "charts"
)

// Export writes the chosen outputs into dir in lang and returns the paths
// written, in order.
func (s *Session) Export(ctx context.Context, dir string, lang text.Lang, kinds ...string) ([]string, error) {
	if s.Result() == nil {
		return nil, ErrNoResult
	}
	if dir == "" {
		return nil, refusal("未选择导出文件夹", "no folder chosen for the export")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("session: export: %w", err)
	}
	// Every output is checked before the first is written, so an export
	// never stops half done for a folder it could have named at once.
	var outs []Output
	for _, k := range kinds {
		switch k {
		case ExportReport:
			outs = append(outs, File(filepath.Join(dir, ReportFile)), File(report.BriefPath(filepath.Join(dir, ReportFile))))
		case ExportJSON:
			outs = append(outs, File(filepath.Join(dir, SummaryFile)))
		case ExportCharts:
			outs = append(outs, Folder(filepath.Join(dir, ChartsDir)))
		}
	}
	if err := CheckOutputs(outs...); err != nil {
		return nil, err
	}
	var written []string
	for _, k := range kinds {
		switch k {
		case ExportReport:
			path := filepath.Join(dir, ReportFile)
			if err := s.WriteReport(ctx, path, lang, nil); err != nil {
				return written, err
			}
			written = append(written, path, report.BriefPath(path))
		case ExportJSON:
			path := filepath.Join(dir, SummaryFile)
			if err := s.WriteSummary(path); err != nil {
				return written, err
			}
			written = append(written, path)
		case ExportCharts:
			paths, err := s.WriteCharts(filepath.Join(dir, ChartsDir), lang)
			written = append(written, paths...)
			if err != nil {
				return written, err
			}
		default:
			return written, fmt.Errorf("session: export: unknown kind %q", k)
		}
	}
	return written, nil
}

// WriteReport writes the Excel report of the last evaluation in lang;
// progress, when set, hears rows done and rows in all.
func (s *Session) WriteReport(ctx context.Context, path string, lang text.Lang, progress func(done, total int)) error {
	res, p := s.last()
	if res == nil {
		return ErrNoResult
	}
	p.Language = lang.String()
	if err := report.Write(ctx, path, report.Input{Summary: res.Summary, Workbook: s.withSpotRatings(ctx, res.Workbook), Profile: p, Lang: lang}, progress); err != nil {
		return fmt.Errorf("session: report: %w", err)
	}
	// The one-page brief leaders forward by mail goes beside the workbook,
	// drawn from the same page content as its Summary sheet.
	if err := report.WriteBrief(report.BriefPath(path), res.Summary, p, lang); err != nil {
		return text.NewError(text.New("未能写出一页简报："+text.Of(err).ZH, "the one-page brief could not be written: "+text.Of(err).EN), err)
	}
	return nil
}

// WriteSummary writes SUMMARY.json.
func (s *Session) WriteSummary(path string) error {
	res := s.Result()
	if res == nil {
		return ErrNoResult
	}
	data, err := json.MarshalIndent(res.Summary, "", "  ")
	if err == nil {
		err = WriteFileAtomic(path, append(data, '\n'), 0o644)
	}
	if err != nil {
		return fmt.Errorf("session: %s: %w", SummaryFile, err)
	}
	return nil
}

// Figures lists every chart the last evaluation allows, with the inputs the
// window and the report both draw from; nil before an evaluation.
func (s *Session) Figures() []figures.Figure {
	res := s.Result()
	if res == nil {
		return nil
	}
	return figures.All(res.Summary)
}

// WriteCharts renders every chart as PNG and SVG into dir.
func (s *Session) WriteCharts(dir string, lang text.Lang) ([]string, error) {
	var written []string
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("session: charts: %w", err)
	}
	for _, f := range s.Figures() {
		fig, err := f.Build(chart.Options{Lang: lang})
		if err != nil {
			return written, fmt.Errorf("session: chart %s: %w", f.File, err)
		}
		for _, ext := range []string{"png", "svg"} {
			data, err := FigureBytes(fig, ext)
			if err != nil {
				return written, fmt.Errorf("session: chart %s: %w", f.File, err)
			}
			path := filepath.Join(dir, f.File+"."+ext)
			if err := WriteFileAtomic(path, data, 0o644); err != nil {
				return written, fmt.Errorf("session: chart %s: %w", f.File, err)
			}
			written = append(written, path)
		}
	}
	return written, nil
}

// FigureBytes encodes a chart as "png" or "svg".
func FigureBytes(fig *chart.Figure, ext string) ([]byte, error) {
	if ext == "svg" {
		return fig.SVG()
	}
	return fig.PNG()
}
