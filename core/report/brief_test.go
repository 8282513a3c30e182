package report

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// The brief is drawn from the Summary page's own words (one source), is one
// A4 page (brief.Render refuses more), and lands beside the workbook as
// report-brief.pdf. REPORT_PDF_OUT keeps the PDFs to look at.
func TestBriefBesideTheReport(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Input)
	}{
		{"three judges", nil},
		{"explained, sample, baseline", func(in *Input) { explainFixture(in, "needs_work") }},
	}
	for _, lang := range []text.Lang{"zh", "en"} {
		for _, c := range cases {
			t.Run(string(lang)+"/"+c.name, func(t *testing.T) {
				in := fixture(t)
				if c.edit != nil {
					c.edit(&in)
				}
				pg := NewPage(in.Summary, in.Profile, lang)
				bc := BriefContent(in.Summary, in.Profile, lang)
				if !slices.Equal(bc.Why, pg.Why) {
					t.Errorf("brief reasons %q, page %q", bc.Why, pg.Why)
				}
				if len(bc.Recommendations) != len(pg.Advice) || len(bc.Judges) != len(pg.Judges.Rows) || len(bc.Charts) != 2 {
					t.Errorf("brief has %d recommendations, %d judges, %d charts; page %d, %d, 2",
						len(bc.Recommendations), len(bc.Judges), len(bc.Charts), len(pg.Advice), len(pg.Judges.Rows))
				}
				if c.edit != nil && (!bc.Baseline || !bc.Sample) {
					t.Errorf("banners: baseline %v, sample %v", bc.Baseline, bc.Sample)
				}
				dir := t.TempDir()
				if out := os.Getenv("REPORT_PDF_OUT"); out != "" {
					dir = out
				}
				report := filepath.Join(dir, "brief-"+string(lang)+"-"+filepath.Base(c.name)+".xlsx")
				path := BriefPath(report)
				if filepath.Base(path) != "brief-"+string(lang)+"-"+filepath.Base(c.name)+"-brief.pdf" {
					t.Errorf("brief path %s", path)
				}
				if err := WriteBrief(path, in.Summary, in.Profile, lang); err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(path)
				if err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
					t.Fatalf("%s: not a PDF (%v)", path, err)
				}
			})
		}
	}
	if p := BriefPath("/out/report.xlsx"); p != "/out/report-brief.pdf" {
		t.Errorf("BriefPath = %s", p)
	}
}

// A run whose system under test failed most questions gives the quoted
// failure in the brief (the verdict's reason, core/engine targetFailed).
func TestBriefQuotesTargetFailure(t *testing.T) {
	for _, lang := range []text.Lang{"zh", "en"} {
		in := fixture(t)
		s := in.Summary
		s.Verdict.Undetermine(result.Reason{Code: result.WarnTargetFailed,
			Text: text.New("被测系统 4 个问题中有 4 个没有回答（ragflow: HTTP 401: Access token is invalid）",
				"the system under test failed 4 of its 4 questions (ragflow: HTTP 401: Access token is invalid)"),
			Detail: text.New("被测系统在 4 个问题中有 4 个没有回答。第一个失败：ragflow: HTTP 401: Access token is invalid。",
				"The system under test failed 4 of its 4 questions. First failure: ragflow: HTTP 401: Access token is invalid.")})
		bc := BriefContent(s, in.Profile, lang)
		if !strings.Contains(bc.Undetermined, "Access token is invalid") || bc.Verdict != "undetermined" {
			t.Errorf("%s: brief %q, verdict %s", lang, bc.Undetermined, bc.Verdict)
		}
		if err := WriteBrief(filepath.Join(t.TempDir(), "b.pdf"), s, in.Profile, lang); err != nil {
			t.Fatal(err)
		}
	}
}
