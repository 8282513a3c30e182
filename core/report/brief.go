package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"

	"cubeworkbench/core/brief"
	"cubeworkbench/core/chart"
	"cubeworkbench/core/explain"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// The one-page PDF brief beside the workbook (issue 15): the page leaders
// forward by mail, drawn by core/brief from the same Page as the Summary
// sheet, so the two never say different things.

// BriefPath is where the brief of the report at reportPath goes:
// report.xlsx → report-brief.pdf in the same folder.
func BriefPath(reportPath string) string {
	return strings.TrimSuffix(reportPath, filepath.Ext(reportPath)) + "-brief.pdf"
}

// BriefContent fills core/brief's content from the summary's page in lang
// ("zh" or English) under profile p.
func BriefContent(s *result.Summary, p profile.Profile, lang text.Lang) brief.Content {
	pg := NewPage(s, p, lang)
	w := &writer{s: s, lang: pg.Lang, in: Input{Summary: s, Profile: p, Lang: pg.Lang}}
	c := brief.Content{
		Lang:        pg.Lang,
		Verdict:     s.Verdict.Code,
		Deployable:  s.Verdict.Deployable,
		NeedsWork:   s.Verdict.NeedsWork,
		Cube:        s.Verdict.Cube,
		Resamples:   w.resamples(),
		Why:         pg.Why,
		Workbook:    filepath.Base(s.Run.Workbook),
		System:      w.systemUnderTest(),
		Date:        s.Run.Finished,
		ToolVersion: s.ToolVersion,
	}
	if c.Verdict == "" {
		c.Verdict = brief.Undetermined
	}
	for i, r := range s.Verdict.Reasons {
		if i > 0 {
			c.Undetermined += w.say(txtSemicolon)
		}
		c.Undetermined += w.say(r.Detail)
	}
	if s.Run.Workbook == "" {
		c.Workbook = ""
	}
	for _, a := range pg.Advice {
		c.Recommendations = append(c.Recommendations, a.Priority+w.say(txtColon)+a.Text)
	}
	if s.Result != nil {
		c.K = s.TopN
		c.Spread = s.Aggregate.Cube.SD
		if ci := s.Aggregate.CubeCI95; ci != nil {
			lo, hi := ci[0], ci[1]
			c.Lo, c.Hi = &lo, &hi
		}
		for _, j := range pg.Judges.Rows {
			c.Judges = append(c.Judges, brief.Judge{Name: j.Name, Cube: j.Cube, Lo: j.Lo, Hi: j.Hi, RecallAtK: s.RecallAtK, NotCounted: j.NotCounted})
		}
	}
	if e := s.Explanation; e != nil {
		for _, b := range e.Banners {
			switch b.Code {
			case explain.BannerBaselineJudge:
				c.Baseline = true
			case explain.BannerSampleData:
				c.Sample = true
			}
		}
	}
	var built []PageChart
	for _, ch := range pg.Charts[:min(len(pg.Charts), brief.MaxCharts)] {
		if fig, err := ch.Build(chart.Options{Lang: pg.Lang}); err == nil {
			c.Charts = append(c.Charts, brief.Chart{Figure: fig})
			built = append(built, ch)
		}
	}
	// Build each chart again at the size the brief places it, so a chart
	// half a page wide draws as one (fewer decimals, short legend names,
	// names broken rather than overprinted) instead of a shrunk wide one.
	if lay, err := brief.Layout(c); err == nil {
		for _, b := range lay.Blocks {
			if b.Kind != "chart" || b.Chart >= len(built) {
				continue
			}
			o := chart.Options{Lang: pg.Lang, Width: vg.Length(b.W) * vg.Millimeter, Height: vg.Length(b.H) * vg.Millimeter}
			if fig, err := built[b.Chart].Build(o); err == nil {
				c.Charts[b.Chart].Figure = fig
			}
		}
	}
	return c
}

// systemUnderTest names the system under test as the page's about line
// does.
func (w *writer) systemUnderTest() string {
	p := w.in.Profile
	if p.Target == nil {
		return w.say(briefAnswersWorkbook)
	}
	sut := p.Target.Kind
	if h := host(p.Target.BaseURL, nil); h != "" {
		sut += " @ " + h
	}
	return sut
}

// WriteBrief writes the brief of s to path, replacing it only once the
// whole file is written.
func WriteBrief(path string, s *result.Summary, p profile.Profile, lang text.Lang) error {
	if s == nil {
		return ErrNoSummary
	}
	pdf, err := brief.Render(BriefContent(s, p, lang))
	if err != nil {
		return fmt.Errorf("report: brief: %w", err)
	}
	dir, base := filepath.Split(path)
	tmp := filepath.Join(dir, "."+base+".partial")
	if err := os.WriteFile(tmp, pdf, 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("report: brief: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("report: brief: %w", err)
	}
	return nil
}
