package report

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/text"
)

// sheetXML is the part of a worksheet's XML the print setup writes
// (ECMA-376 §18.3.1: sheetPr/pageSetUpPr, pageMargins, pageSetup).
type sheetXML struct {
	SheetPr struct {
		PageSetUpPr struct {
			FitToPage string `xml:"fitToPage,attr"`
		} `xml:"pageSetUpPr"`
	} `xml:"sheetPr"`
	Margins struct {
		Left   string `xml:"left,attr"`
		Right  string `xml:"right,attr"`
		Top    string `xml:"top,attr"`
		Bottom string `xml:"bottom,attr"`
		Header string `xml:"header,attr"`
		Footer string `xml:"footer,attr"`
	} `xml:"pageMargins"`
	Setup struct {
		PaperSize   string `xml:"paperSize,attr"`
		Orientation string `xml:"orientation,attr"`
		FitToWidth  string `xml:"fitToWidth,attr"`
		FitToHeight string `xml:"fitToHeight,attr"`
	} `xml:"pageSetup"`
}

type workbookXML struct {
	Names []struct {
		Name    string `xml:"name,attr"`
		LocalID string `xml:"localSheetId,attr"`
		Value   string `xml:",chardata"`
	} `xml:"definedNames>definedName"`
}

func unzipPart(t *testing.T, b []byte, name string) []byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range z.File {
		if f.Name == name {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			data, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
	t.Fatalf("no %s in the package", name)
	return nil
}

func TestSetPrintWritesPageSetup(t *testing.T) {
	const sheet = "摘要 Summary"
	for _, tc := range []struct {
		name       string
		setup      PrintSetup
		orient     string
		fitPage    string
		fitW, fitH string
		names      map[string]string
	}{
		{"summary: portrait, one page, print area", PrintSetup{Fit: FitPage, Area: "A1:G40"}, "portrait", "1", "1", "1",
			map[string]string{"_xlnm.Print_Area": "'摘要 Summary'!$A$1:$G$40"}},
		{"analysis: landscape, fit width, titles", PrintSetup{Landscape: true, Fit: FitWidth, TitleRows: [2]int{1, 2}}, "landscape", "1", "1", "0",
			map[string]string{"_xlnm.Print_Titles": "'摘要 Summary'!$1:$2"}},
		{"no scaling", PrintSetup{Landscape: true}, "landscape", "", "", "", map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := excelize.NewFile()
			if err := f.SetSheetName("Sheet1", sheet); err != nil {
				t.Fatal(err)
			}
			if err := SetPrint(f, sheet, tc.setup); err != nil {
				t.Fatal(err)
			}
			// Applying it twice must not duplicate the defined names.
			if err := SetPrint(f, sheet, tc.setup); err != nil {
				t.Fatal(err)
			}
			buf, err := f.WriteToBuffer()
			if err != nil {
				t.Fatal(err)
			}
			var s sheetXML
			if err := xml.Unmarshal(unzipPart(t, buf.Bytes(), "xl/worksheets/sheet1.xml"), &s); err != nil {
				t.Fatal(err)
			}
			if s.Setup.PaperSize != "9" || s.Setup.Orientation != tc.orient {
				t.Errorf("pageSetup paperSize=%q orientation=%q, want 9 %q", s.Setup.PaperSize, s.Setup.Orientation, tc.orient)
			}
			if s.SheetPr.PageSetUpPr.FitToPage == "true" { // xsd:boolean allows both spellings
				s.SheetPr.PageSetUpPr.FitToPage = "1"
			}
			if s.SheetPr.PageSetUpPr.FitToPage != tc.fitPage || s.Setup.FitToWidth != tc.fitW || s.Setup.FitToHeight != tc.fitH {
				t.Errorf("fitToPage=%q fitToWidth=%q fitToHeight=%q, want %q %q %q", s.SheetPr.PageSetUpPr.FitToPage, s.Setup.FitToWidth, s.Setup.FitToHeight, tc.fitPage, tc.fitW, tc.fitH)
			}
			if got := s.Margins; got.Top != "0.5" || got.Left != "0.4" || got.Header != "0.25" {
				t.Errorf("margins %+v, want the defaults", got)
			}
			var wb workbookXML
			if err := xml.Unmarshal(unzipPart(t, buf.Bytes(), "xl/workbook.xml"), &wb); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, n := range wb.Names {
				if _, dup := got[n.Name]; dup {
					t.Errorf("defined name %s twice", n.Name)
				}
				if n.LocalID != "0" {
					t.Errorf("%s scoped to sheet %q, want 0", n.Name, n.LocalID)
				}
				got[n.Name] = n.Value
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.names) {
				t.Errorf("defined names %v, want %v", got, tc.names)
			}
		})
	}
}

func TestSetPrintRefusesBadInput(t *testing.T) {
	f := excelize.NewFile()
	for name, err := range map[string]error{
		"area":    SetPrintArea(f, "Sheet1", "H1:A9"),
		"titles":  SetPrintTitles(f, "Sheet1", 3, 2),
		"margins": SetMargins(f, "Sheet1", Margins{Top: 0.2, Header: 0.3}),
		"sheet":   SetA4(f, "no such sheet", false),
	} {
		// A text.Error: each front end shows one language (through the
		// session's Explain), the cause after it.
		var te *text.Error
		if !errors.As(err, &te) || !strings.Contains(te.ZH, "打印设置") || !strings.Contains(te.EN, "print setup") || te.Err == nil {
			t.Errorf("%s: err = %v, want a bilingual error", name, err)
		}
	}
}

func TestPageStartsAndAnchors(t *testing.T) {
	rows := func(n int, h float64) []float64 {
		hs := make([]float64, n)
		for i := range hs {
			hs[i] = h
		}
		return hs
	}
	for _, tc := range []struct {
		name    string
		heights []float64
		page    float64
		titles  float64
		want    []int
	}{
		{"fits one page", rows(10, 20), 200, 0, []int{1}},
		{"whole rows only", rows(10, 20), 150, 0, []int{1, 8}},
		{"titles take room on later pages", rows(20, 20), 100, 40, []int{1, 6, 9, 12, 15, 18}},
		{"a row taller than a page", []float64{10, 300, 10}, 100, 0, []int{1, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PageStarts(tc.heights, tc.page, tc.titles); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("PageStarts = %v, want %v", got, tc.want)
			}
		})
	}
	// 18 pt rows are 22 px as excelize anchors objects; pages of 360 pt
	// start at rows 1 and 21. Heights are points (px × 0.75).
	heights := rows(40, 18)
	starts := PageStarts(heights, 360, 0)
	for _, tc := range []struct {
		name  string
		a     Anchor
		cross bool
	}{
		{"inside page 1", Anchor{Row: 2, Height: 150}, false},
		{"ends exactly at the break", Anchor{Row: 11, Height: 165}, false},
		{"cut by the break", Anchor{Row: 15, Height: 165}, true},
		{"offset pushes it over", Anchor{Row: 11, OffsetY: 3, Height: 165}, true},
		{"on page 2", Anchor{Row: 21, Height: 150}, false},
		{"runs off the rows given", Anchor{Row: 38, Height: 150}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.a.CrossesPageBreak(heights, starts); got != tc.cross {
				first, last := tc.a.Span(heights)
				t.Errorf("CrossesPageBreak = %v, want %v (rows %d–%d, pages %v)", got, tc.cross, first, last, starts)
			}
		})
	}
}

// summaryRows is the Summary layout recommended for one portrait A4 page
// (issue 15), row by row in points; the charts sit side by side from row
// chartRow.
var summaryRows = []float64{
	24,                 // 1 title
	40,                 // 2 verdict banner
	22,                 // 3 headline: CuBE with its interval in words
	30,                 // 4 the verdict rule, two lines
	30,                 // 5 sample / baseline notice, two lines
	6,                  // 6 gap
	18,                 // 7 "why" heading
	26, 26, 26, 26, 26, // 8–12 up to five reasons, two lines each
	18,                 // 13 recommendations heading
	26, 26, 26, 26, 26, // 14–18 up to five recommendations
	6,                  // 19 gap
	18,                 // 20 judges heading
	18,                 // 21 table header
	16, 16, 16, 16, 16, // 22–26 up to five judges
	16,                             // 27 spread / "仅 1 个评审模型"
	6,                              // 28 gap
	18, 18, 18, 18, 18, 18, 18, 18, // 29–36 charts: 8 × 22 px = 176 px
	16, // 37 what was evaluated
}

const (
	summaryChartRow = 29
	summaryChartPx  = 176 // chart height in px, exactly rows 29–36
	summaryChartWPx = 280 // chart width in px
	summaryChart2X  = 64  // the second chart starts 64 px into column C
)

// summaryCharts are the two charts' anchors: A29, and C29 64 px in.
var summaryCharts = []Anchor{
	{Row: summaryChartRow, Col: 1, Height: PxToPt(summaryChartPx), Width: PxToPt(summaryChartWPx)},
	{Row: summaryChartRow, Col: 3, OffsetX: PxToPt(summaryChart2X), Height: PxToPt(summaryChartPx), Width: PxToPt(summaryChartWPx)},
}

// summaryCols are column widths in characters: A for labels, B (CuBE),
// C (interval, "66.0 至 78.1"), D–F for other numbers.
var summaryCols = []float64{18, 10, 14, 10, 10, 10}

func summaryWorkbook(t *testing.T, heights []float64) *excelize.File {
	t.Helper()
	const sheet = "摘要 Summary"
	f := excelize.NewFile()
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		t.Fatal(err)
	}
	for i, w := range summaryCols {
		col, _ := excelize.ColumnNumberToName(i + 1)
		if err := f.SetColWidth(sheet, col, col, w); err != nil {
			t.Fatal(err)
		}
	}
	for i, h := range heights {
		if err := f.SetRowHeight(sheet, i+1, h); err != nil {
			t.Fatal(err)
		}
		if err := f.SetCellValue(sheet, fmt.Sprintf("A%d", i+1), fmt.Sprintf("第 %d 行 row %d", i+1, i+1)); err != nil {
			t.Fatal(err)
		}
	}
	for i, v := range []float64{72.4, 75.9, 69.8} {
		if err := f.SetCellValue(sheet, fmt.Sprintf("B%d", 22+i), v); err != nil {
			t.Fatal(err)
		}
	}
	for i, a := range summaryCharts {
		cell, _ := excelize.CoordinatesToCellName(a.Col, a.Row)
		err := f.AddChart(sheet, cell, &excelize.Chart{
			Type:   excelize.Col,
			Series: []excelize.ChartSeries{{Name: "CuBE", Categories: fmt.Sprintf("'%s'!$A$22:$A$24", sheet), Values: fmt.Sprintf("'%s'!$B$22:$B$24", sheet)}},
			Title:  excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: fmt.Sprintf("chart %d", i+1)}}},
			// Dark 9 pt tick labels (issue 15).
			XAxis:     excelize.ChartAxis{Font: excelize.Font{Color: "1A1A1A", Size: 9}},
			YAxis:     excelize.ChartAxis{Font: excelize.Font{Color: "1A1A1A", Size: 9}, Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "截尾均值（0–10）", Font: &excelize.Font{Size: 9, Color: "1A1A1A"}}}}},
			Legend:    excelize.ChartLegend{Position: "none"},
			Dimension: excelize.ChartDimension{Width: summaryChartWPx, Height: summaryChartPx},
			Format:    excelize.GraphicOptions{OffsetX: int(a.OffsetX / 0.75)},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	last := fmt.Sprintf("F%d", len(heights))
	if err := SetPrint(f, sheet, PrintSetup{Fit: FitPage, Area: "A1:" + last}); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestSummaryLayoutFitsOnePage: the recommended layout fits a portrait A4
// page at 100 % (so 9 pt stays 9 pt), its charts are whole, and a layout
// taller than the page would cut them.
func TestSummaryLayoutFitsOnePage(t *testing.T) {
	total := 0.0
	for _, h := range summaryRows {
		total += h
	}
	width := 0.0
	for _, w := range summaryCols {
		width += ColWidthPt(w)
	}
	ph, pw := PrintableHeight(false, DefaultMargins), PrintableWidth(false, DefaultMargins)
	if s := FitScale(width, total, pw, ph); s != 1 {
		t.Errorf("layout %.0f × %.0f pt on %.0f × %.0f pt prints at %.0f %%, want 100 %%", width, total, pw, ph, s*100)
	}
	var colsPt []float64
	for _, w := range summaryCols {
		colsPt = append(colsPt, ColWidthPt(w))
	}
	for i, a := range summaryCharts {
		if !a.FitsColumns(colsPt) {
			t.Errorf("chart %d overruns the print area's columns", i+1)
		}
		if a.CrossesPageBreak(summaryRows, PageStarts(summaryRows, ph, 0)) {
			t.Errorf("chart %d of the recommended layout is cut by a page break", i+1)
		}
	}
	if wide := (Anchor{Col: 4, Width: PxToPt(summaryChartWPx)}); wide.FitsColumns(colsPt) {
		t.Error("a chart anchored at D, overrunning F, is not detected")
	}
	chart := summaryCharts[0]
	if _, last := chart.Span(summaryRows); last >= len(summaryRows) {
		t.Errorf("the charts reach row %d, over the last line", last)
	}
	// A banner 100 pt taller pushes the charts over the page break.
	taller := append([]float64{}, summaryRows...)
	taller[1] += 100
	if !chart.CrossesPageBreak(taller, PageStarts(taller, ph, 0)) {
		t.Error("a chart over the page break is not detected")
	}

	// Write it and read the setup back; with LibreOffice present, convert it
	// to PDF and count the pages.
	f := summaryWorkbook(t, summaryRows)
	hs, err := RowHeights(f, "摘要 Summary", len(summaryRows))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(hs) != fmt.Sprint(summaryRows) {
		t.Fatalf("row heights read back %v", hs)
	}
	// excelize's own anchors agree with Span and FitsColumns: every chart
	// ends inside the print area's rows and columns.
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	tos := regexp.MustCompile(`<xdr:to><xdr:col>(\d+)</xdr:col><xdr:colOff>\d+</xdr:colOff><xdr:row>(\d+)</xdr:row><xdr:rowOff>(\d+)</xdr:rowOff>`).
		FindAllStringSubmatch(string(unzipPart(t, buf.Bytes(), "xl/drawings/drawing1.xml")), -1)
	if len(tos) != len(summaryCharts) {
		t.Fatalf("%d chart anchors in the drawing, want %d", len(tos), len(summaryCharts))
	}
	for i, m := range tos {
		col, row, off := atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3])
		if off == 0 {
			row-- // ends exactly at the top of the next row
		}
		_, last := summaryCharts[i].Span(summaryRows)
		if col >= len(summaryCols) || row+1 != last {
			t.Errorf("chart %d ends at column %d, row %d (0-based); Span says row %d, print area has %d columns", i+1, col, row, last, len(summaryCols))
		}
	}

	soffice, err := exec.LookPath("soffice")
	if err != nil || testing.Short() {
		t.Skip("LibreOffice not installed (or -short): page count not checked by conversion")
	}
	dir := t.TempDir()
	xlsx := filepath.Join(dir, "summary.xlsx")
	if err := os.WriteFile(xlsx, rewriteCharts(t, buf.Bytes(), RotateValueAxisTitle), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(soffice, "-env:UserInstallation=file://"+filepath.Join(dir, "profile"), "--headless", "--convert-to", "pdf", "--outdir", dir, xlsx)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	pdf, err := os.ReadFile(filepath.Join(dir, "summary.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(regexp.MustCompile(`/Type\s*/Page\b[^s]`).FindAll(pdf, -1)); n != 1 {
		t.Errorf("LibreOffice printed the Summary on %d pages, want 1", n)
	}
	if out := os.Getenv("PRINT_OUT"); out != "" {
		_ = os.WriteFile(filepath.Join(out, "summary.pdf"), pdf, 0o644)
		_ = os.WriteFile(filepath.Join(out, "summary.xlsx"), rewriteCharts(t, buf.Bytes(), RotateValueAxisTitle), 0o644)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRotateValueAxisTitle: on the chart part excelize really writes, only
// the value axis's title txPr turns upright; the chart title stays flat.
func TestRotateValueAxisTitle(t *testing.T) {
	f := summaryWorkbook(t, summaryRows)
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	before := unzipPart(t, buf.Bytes(), "xl/charts/chart1.xml")
	flat := `<txPr><a:bodyPr anchorCtr="false" rot="0" spcFirstLastPara="false"></a:bodyPr><a:p></a:p></txPr></title>`
	if n := bytes.Count(before, []byte(flat)); n != 2 {
		t.Fatalf("excelize wrote %d flat title txPr, want 2 (chart title and value axis title); has its output changed?", n)
	}
	after := RotateValueAxisTitle(before)
	if n := bytes.Count(after, []byte(flat)); n != 1 {
		t.Errorf("%d flat title txPr left, want 1 (the chart title)", n)
	}
	i := bytes.Index(after, []byte("<valAx>"))
	if i < 0 || !bytes.Contains(after[i:], []byte(`<txPr><a:bodyPr anchorCtr="false" rot="-5400000" spcFirstLastPara="false" vert="horz"></a:bodyPr><a:p></a:p></txPr></title>`)) {
		t.Errorf("the value axis title's txPr is not rotated:\n%s", after[i:])
	}
	if bytes.Index(after, []byte(flat)) > i {
		t.Error("the flat txPr left is inside the value axis, not the chart title")
	}
	if again := RotateValueAxisTitle(after); !bytes.Equal(again, after) {
		t.Error("rotating twice changes the part again")
	}
	if ticks := `anchorCtr="true" rot="0" spcFirstLastPara="true"`; bytes.Count(after, []byte(ticks)) != bytes.Count(before, []byte(ticks)) {
		t.Error("the tick labels' text properties were touched")
	}
}

// rewriteCharts returns the package with fn applied to every chart part.
func rewriteCharts(t *testing.T, pkg []byte, fn func([]byte) []byte) []byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(pkg), int64(len(pkg)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := zip.NewWriter(&out)
	for _, zf := range z.File {
		r, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(zf.Name, "xl/charts/chart") {
			data = fn(data)
		}
		fw, err := w.Create(zf.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
