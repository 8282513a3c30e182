package docparse_test

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/docparse"
	"cubeworkbench/core/ingest"
	"cubeworkbench/internal/shareddata"

	"github.com/xuri/excelize/v2"
)

// agreeBook is one sheet holding the cells the two readers used to read
// differently: OOXML's _xHHHH_ escapes (ECMA-376 Part 1, 22.9.2.19
// ST_Xstring: a CR Excel writes as _x000D_ before the line feed, a bell,
// an escaped underscore), dates under built-in and custom formats, numbers
// under percent and other formats, an error value and booleans.
var agreeBook = map[string]string{
	"[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
	"_rels/.rels":         `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
	"xl/workbook.xml":     `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="表1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
	"xl/_rels/workbook.xml.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
		`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>` +
		`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
	"xl/sharedStrings.xml": `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
		"<si><t xml:space=\"preserve\">第一行_x000D_\n第二行</t></si>" +
		`<si><t>响铃_x0007_符</t></si>` +
		`<si><t>字面_x005F_x000D_</t></si>` +
		`<si><r><t>富</t></r><r><t>文本</t></r><rPh><t>fu</t></rPh></si>` +
		`<si><t>旧式换行_x000D_结尾</t></si></sst>`,
	// cellXfs: 0 General, 1 date 14, 2 date-time 22, 3 custom 年月日, 4 time 20,
	// 5 percent 9, 6 custom 0.0%, 7 #,##0.00 (4), 8 0 (1), 9 custom currency.
	"xl/styles.xml": `<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
		`<numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy&quot;年&quot;m&quot;月&quot;d&quot;日&quot;"/><numFmt numFmtId="165" formatCode="0.0%"/><numFmt numFmtId="166" formatCode="[$¥-804]#,##0.00"/></numFmts>` +
		`<cellXfs count="10"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="22"/><xf numFmtId="164"/><xf numFmtId="20"/><xf numFmtId="9"/><xf numFmtId="165"/><xf numFmtId="4"/><xf numFmtId="1"/><xf numFmtId="166"/></cellXfs></styleSheet>`,
	"xl/worksheets/sheet1.xml": `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
		`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>` +
		`<row r="2"><c r="A2" t="inlineStr"><is><t>内联_x0007_文字_x000D_</t></is></c><c r="B2" t="str"><f>A2</f><v>公式_x0008_结果</v></c>` +
		`<c r="C2" t="e"><f>NA()</f><v>#N/A</v></c><c r="D2" t="b"><v>1</v></c><c r="E2" t="b"><v>0</v></c></row>` +
		`<row r="3"><c r="A3"><v>0.30000000000000004</v></c><c r="B3" s="5"><v>0.855</v></c><c r="C3" s="6"><v>0.12345</v></c>` +
		`<c r="D3" s="7"><v>1234.5</v></c><c r="E3" s="8"><v>4.5</v></c><c r="F3" s="9"><v>12</v></c><c r="H3"><v>7</v></c></row>` +
		`<row r="4"><c r="A4" s="1"><v>45352</v></c><c r="B4" s="2"><v>45352.5</v></c><c r="C4" s="3"><v>45352</v></c><c r="D4" s="4"><v>0.75</v></c>` +
		`<c r="E4" t="d"><v>2024-03-01T00:00:00</v></c></row>` +
		`</sheetData></worksheet>`,
}

func writeAgreeBook(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "agree.xlsx")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, data := range agreeBook {
		w, _ := zw.Create(name)
		w.Write([]byte(data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// The workbook reader (core/ingest) and the corpus reader (core/docparse)
// read every cell of one workbook the same way, and that way is the one
// meant: an escaped CR is a line break, other control characters are
// invisible junk, dates read as ISO dates, numbers as their value (not
// Excel's rounded display), percentages as percentages.
func TestXLSXReadersAgree(t *testing.T) {
	path := writeAgreeBook(t)
	var rows [][]string
	err := ingest.ReadSheetRows(context.Background(), path, "表1", func(_ int, cells []string) error {
		rows = append(rows, cells)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"第一行\n第二行", "响铃符", "字面_x000D_", "富文本", "旧式换行\n结尾"},
		{"内联文字\n", "公式结果", "#N/A", "TRUE", "FALSE"},
		{"0.3", "85.5%", "12.345%", "1234.5", "4.5", "12", "", "7"},
		{"2024-03-01", "2024-03-01 12:00", "2024-03-01", "18:00", "2024-03-01T00:00:00"},
	}
	for i := range want {
		if i >= len(rows) || strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("ingest row %d = %q, want %q", i+1, at(rows, i), want[i])
		}
	}
	text, err := docparse.Text(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{"表1"}
	for _, r := range rows {
		lines = append(lines, strings.Join(r, "\t"))
	}
	if same := strings.Join(lines, "\n"); text != same {
		t.Errorf("the two readers disagree:\ndocparse %q\ningest   %q", text, same)
	}
}

func at(rows [][]string, i int) []string {
	if i < len(rows) {
		return rows[i]
	}
	return nil
}

// On a real workbook (MSGABench's gov_qa.xlsx, ../shared/data; it fails
// under CI=true when missing) the two readers read every sheet's cells
// the same.
func TestXLSXReadersAgreeOnGovQA(t *testing.T) {
	path := shareddata.Path(t, "msgabench", "gov_qa.xlsx")
	book, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	names := book.GetSheetList()
	book.Close()
	var lines []string
	for _, name := range names {
		lines = append(lines, name)
		err := ingest.ReadSheetRows(context.Background(), path, name, func(_ int, cells []string) error {
			lines = append(lines, strings.Join(cells, "\t"))
			return nil
		})
		if err != nil {
			t.Fatalf("sheet %s: %v", name, err)
		}
	}
	text, err := docparse.Text(path)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.Join(lines, "\n"), "\n")
	got := strings.Split(text, "\n")
	for i := range max(len(want), len(got)) {
		if i >= len(want) || i >= len(got) || want[i] != got[i] {
			t.Fatalf("line %d of %d/%d differs:\ndocparse %q\ningest   %q", i+1, len(got), len(want), at1(got, i), at1(want, i))
		}
	}
}

func at1(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}
