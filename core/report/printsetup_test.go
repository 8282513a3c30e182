package report

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/explain"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// TestPageSetupOfEverySheet checks how each sheet prints: the Summary is
// one A4 portrait page (fit one wide, one tall, a print area); every other
// sheet is A4 landscape, one page wide, its first row repeated; the data
// sheets print their header row only.
func TestPageSetupOfEverySheet(t *testing.T) {
	for _, lang := range []text.Lang{"zh", "en"} {
		t.Run(string(lang), func(t *testing.T) {
			_, f, _ := writeFixture(t, lang, nil)
			names := map[string]map[string]string{} // sheet → defined name → refers to
			for _, d := range f.GetDefinedName() {
				if names[d.Scope] == nil {
					names[d.Scope] = map[string]string{}
				}
				names[d.Scope][d.Name] = d.RefersTo
			}
			for _, sheet := range f.GetSheetList() {
				lay, err := f.GetPageLayout(sheet)
				if err != nil {
					t.Fatal(err)
				}
				props, err := f.GetSheetProps(sheet)
				if err != nil {
					t.Fatal(err)
				}
				wantOrient, wantH := "landscape", 0
				if sheet == SheetSummary {
					wantOrient, wantH = "portrait", 1
				}
				if lay.Size == nil || *lay.Size != paperA4 {
					t.Errorf("%s: paper %v, want A4", sheet, lay.Size)
				}
				if lay.Orientation == nil || *lay.Orientation != wantOrient {
					t.Errorf("%s: orientation %v, want %s", sheet, deref(lay.Orientation), wantOrient)
				}
				if props.FitToPage == nil || !*props.FitToPage || lay.FitToWidth == nil || *lay.FitToWidth != 1 || lay.FitToHeight == nil || *lay.FitToHeight != wantH {
					t.Errorf("%s: fit to page %v, %v wide × %v tall; want 1 × %d", sheet, deref(props.FitToPage), deref(lay.FitToWidth), deref(lay.FitToHeight), wantH)
				}
				titles, area := names[sheet]["_xlnm.Print_Titles"], names[sheet]["_xlnm.Print_Area"]
				switch {
				case sheet == SheetSummary:
					if titles != "" || !strings.HasPrefix(area, "'"+SheetSummary+"'!$A$1:$H$") {
						t.Errorf("Summary: print titles %q, print area %q", titles, area)
					}
				case isDataSheet(sheet):
					if !regexp.MustCompile(`^'` + regexp.QuoteMeta(sheet) + `'!\$A\$1:\$[A-Z]+\$1$`).MatchString(area) {
						t.Errorf("%s: print area %q, want its header row", sheet, area)
					}
				case sheet == SheetItems:
					if titles != "'"+sheet+"'!$1:$1" || !regexp.MustCompile(`^'`+regexp.QuoteMeta(sheet)+`'!\$A\$1:\$H\$\d+$`).MatchString(area) {
						t.Errorf("Items: print titles %q, print area %q; want row 1 and A:H", titles, area)
					}
				default:
					if titles != "'"+sheet+"'!$1:$1" {
						t.Errorf("%s: print titles %q, want row 1", sheet, titles)
					}
					if area != "" {
						t.Errorf("%s: print area %q, want the whole sheet", sheet, area)
					}
				}
			}
		})
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// summaryHeight adds up the Summary sheet's rows within its print area and
// its column widths, in points.
func summaryExtent(t *testing.T, f *excelize.File) (wd, ht float64, last int) {
	t.Helper()
	for _, d := range f.GetDefinedName() {
		if d.Scope == SheetSummary && d.Name == "_xlnm.Print_Area" {
			m := regexp.MustCompile(`\$([A-Z]+)\$(\d+)$`).FindStringSubmatch(d.RefersTo)
			last, _ = strconv.Atoi(m[2])
			cols, _ := excelize.ColumnNameToNumber(m[1])
			for c := 1; c <= cols; c++ {
				w, _ := f.GetColWidth(SheetSummary, colName(c))
				wd += colPointsWidest(w) // as wide as any reader draws it
			}
		}
	}
	if last == 0 {
		t.Fatal("Summary has no print area")
	}
	for r := 1; r <= last; r++ {
		h, err := f.GetRowHeight(SheetSummary, r)
		if err != nil {
			t.Fatal(err)
		}
		ht += h
	}
	return wd, ht, last
}

// TestSummaryFitsOnePage: the Summary's print area fits the printable area
// of an A4 portrait page at 100 %, so fit-to-page never shrinks it, and no
// chart anchor crosses a page break: every picture lies inside the print
// area, on one row tall enough to hold it. Checked with one judge, three
// judges and with every notice and recommendation the fixture can raise.
func TestSummaryFitsOnePage(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Input)
	}{
		{"three judges", nil},
		{"one judge", func(in *Input) {
			in.Summary.Judges = in.Summary.Judges[:1]
			one := *in.Summary.Judges[0].Cube
			in.Summary.Aggregate.Cube.Mean, in.Summary.Aggregate.Cube.SD, in.Summary.Aggregate.Cube.N = &one, nil, 1
		}},
		{"recall missing", func(in *Input) { in.Summary.RecallAtK = nil }},
		{"explained, both banners, needs work", func(in *Input) { explainFixture(in, "needs_work") }},
		{"explained, both banners, a comparison", func(in *Input) {
			withComparison(t)(in)
			explainFixture(in, "needs_work")
		}},
		{"explained, both banners, not ready, recall missing", func(in *Input) {
			in.Summary.RecallAtK = nil
			explainFixture(in, "not_ready")
		}},
	}
	for _, lang := range []text.Lang{"zh", "en"} {
		for _, c := range cases {
			t.Run(string(lang)+"/"+c.name, func(t *testing.T) {
				path, f, _ := writeFixture(t, lang, c.edit)
				// The anchors as written: one-cell anchors with their own
				// size, so no reader's row or column metrics can stretch a
				// chart into the rows below (a two-cell anchor did).
				drawing := zipParts(t, path)["xl/drawings/drawing1.xml"]
				if strings.Contains(drawing, "<xdr:twoCellAnchor") {
					t.Error("a Summary chart has a two-cell anchor: its size depends on the reader's cell metrics")
				}
				anchors := regexp.MustCompile(`<xdr:oneCellAnchor><xdr:from><xdr:col>\d+</xdr:col><xdr:colOff>\d+</xdr:colOff><xdr:row>(\d+)</xdr:row><xdr:rowOff>(\d+)</xdr:rowOff></xdr:from><xdr:ext cx="(\d+)" cy="(\d+)"`).FindAllStringSubmatch(drawing, -1)
				if len(anchors) != 2 {
					t.Fatalf("%d one-cell anchors in the Summary's drawing, want 2", len(anchors))
				}
				for _, a := range anchors {
					row, _ := strconv.Atoi(a[1])
					off, _ := strconv.ParseFloat(a[2], 64)
					cy, _ := strconv.ParseFloat(a[4], 64)
					rowH, _ := f.GetRowHeight(SheetSummary, row+1)
					if (off+cy)/12700 > rowH { // 12,700 EMU a point
						t.Errorf("a chart at row %d reaches %.0f pt down its row of %.0f pt", row+1, (off+cy)/12700, rowH)
					}
				}
				pageW, pageH := printable(false)
				wd, ht, last := summaryExtent(t, f)
				if wd > pageW || ht > pageH {
					t.Errorf("Summary is %.0f × %.0f pt, the page holds %.0f × %.0f", wd, ht, pageW, pageH)
					for r := 1; r <= last; r++ {
						h, _ := f.GetRowHeight(SheetSummary, r)
						v, _ := f.GetCellValue(SheetSummary, fmt.Sprintf("A%d", r))
						b, _ := f.GetCellValue(SheetSummary, fmt.Sprintf("B%d", r))
						t.Logf("row %d: %.0f pt %.40q %.60q", r, h, v, b)
					}
				}
				cells, err := f.GetPictureCells(SheetSummary)
				if err != nil {
					t.Fatal(err)
				}
				if len(cells) != 2 {
					t.Errorf("%d pictures on Summary, want 2", len(cells))
				}
				for _, cell := range cells {
					_, row, _ := excelize.CellNameToCoordinates(cell)
					pics, _ := f.GetPictures(SheetSummary, cell)
					if row > last || len(pics) == 0 {
						t.Fatalf("picture at %s outside the print area (last row %d)", cell, last)
					}
				}
			})
		}
	}
}

// TestSummaryPrintsOnePageInLibreOffice converts the Summary sheet alone to
// PDF with LibreOffice and counts its pages. It needs libreoffice and
// pdfinfo and takes a while, so it runs when REPORT_LIBREOFFICE=1:
//
//	REPORT_LIBREOFFICE=1 REPORT_PDF_OUT=/tmp/pdf REPORT_PDF_FILES=/tmp/r/report.xlsx go test -run LibreOffice -v ./core/report
//
// REPORT_PDF_FILES adds reports written elsewhere (the demo);
// REPORT_PDF_OUT keeps the PDFs to render with pdftoppm.
func TestSummaryPrintsOnePageInLibreOffice(t *testing.T) {
	if os.Getenv("REPORT_LIBREOFFICE") != "1" {
		t.Skip("set REPORT_LIBREOFFICE=1 (needs libreoffice and pdfinfo)")
	}
	out := os.Getenv("REPORT_PDF_OUT")
	if out == "" {
		out = t.TempDir()
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, lang := range []text.Lang{"zh", "en"} {
		in := fixture(t)
		in.Lang = lang
		p := filepath.Join(t.TempDir(), "fixture-"+string(lang)+".xlsx")
		if err := Write(context.Background(), p, in, nil); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for _, x := range strings.Split(os.Getenv("REPORT_PDF_FILES"), ",") {
		if x != "" {
			files = append(files, x)
		}
	}
	for i, src := range files {
		name := fmt.Sprintf("summary-%d-%s", i, strings.TrimSuffix(filepath.Base(src), ".xlsx"))
		only := filepath.Join(t.TempDir(), name+".xlsx")
		if err := SummaryOnly(src, only); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("libreoffice", "--headless", "--convert-to", "pdf", "--outdir", out, only)
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("libreoffice: %v\n%s", err, b)
		}
		pdf := filepath.Join(out, name+".pdf")
		info, err := exec.Command("pdfinfo", pdf).Output()
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`Pages:\s+(\d+)`).FindSubmatch(info)
		if m == nil || string(m[1]) != "1" {
			t.Errorf("%s: Summary prints on %s pages, want 1", src, m[1])
		}
		t.Logf("%s → %s: %s page(s)", src, pdf, m[1])
	}
}

// explainFixture adds core/explain's explanation as the session does, with
// every judge a baseline one and the bundled sample flagged, so both
// banners, five reasons and the system recommendations stand on the page.
func explainFixture(in *Input, verdict string) {
	s := in.Summary
	var judges []explain.Judge
	for _, j := range s.Judges {
		judges = append(judges, explain.Judge{Name: j.Judge, Kind: explain.KindLexical})
	}
	// Thresholds that give the verdict asked for from the fixture's CuBE
	// score (70.1): the brief refuses a verdict that does not follow.
	needsWork := map[string]float64{"needs_work": 40, "not_ready": 80}[verdict]
	s.Verdict = result.VerdictFor(s.Verdict.Cube, 90, needsWork)
	if string(s.Verdict.Code) != verdict && s.Verdict.Cube != nil {
		panic("explainFixture: the thresholds do not give " + verdict)
	}
	e := explain.Explain(explain.Input{Result: s.Result, Items: in.Workbook.Items, Scores: in.Workbook.Scores, Guides: in.Workbook.Guides,
		Judges: judges, SampleFile: true,
		Verdict: explain.Verdict{Code: s.Verdict.Code, Cube: s.Verdict.Cube, DeployableAt: 90, NeedsWorkAt: needsWork}})
	s.Explanation = &e
}

// A Method sheet longer than a page gets manual page breaks before its
// sections, never inside one: each break row holds a section's heading.
func TestPageBreaksBetweenTables(t *testing.T) {
	path, f, _ := writeFixture(t, "en", func(in *Input) {
		for i := range 40 {
			in.Summary.Run.Adaptations = append(in.Summary.Run.Adaptations, result.Adaptation{Endpoint: fmt.Sprintf("http://10.0.0.%d:8000/v1", i),
				Param: "max_tokens", Text: text.New("服务端拒绝 max_tokens，之后改用 max_completion_tokens。", "The endpoint refused max_tokens; requests send max_completion_tokens instead.")})
		}
	})
	idx, _ := f.GetSheetIndex(SheetMethod)
	xml := zipParts(t, path)[fmt.Sprintf("xl/worksheets/sheet%d.xml", idx+1)]
	breaks := regexp.MustCompile(`<brk id="(\d+)"`).FindAllStringSubmatch(xml, -1)
	if len(breaks) == 0 {
		t.Fatal("no page break on a Method sheet longer than a page")
	}
	headings := map[string]bool{"Evaluation profile": true, "What the numbers on the Summary mean": true, "Judges": true, "Dimensions": true, "Run": true,
		"Request parameters an endpoint refused, and how the requests changed": true, "Method notes": true,
		"MFSS factors: what each measures, can tell and cannot tell": true, "How the retrieved documents were matched to the guides": true}
	for _, b := range breaks {
		// A break id is the last row of a page: the next row starts the new one.
		row, _ := strconv.Atoi(b[1])
		v, _ := f.GetCellValue(SheetMethod, fmt.Sprintf("A%d", row+1))
		if !headings[v] {
			t.Errorf("page break after row %d cuts through a table: the next row holds %q", row, v)
		}
	}
}
