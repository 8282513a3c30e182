package ingest_test

import (
	"archive/zip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/ingest"
)

// BenchmarkStyledCells reads 20,000 rows of dated, percentage and
// one-decimal cells (styled numbers, which went through a scratch
// excelize workbook before core/xlsxcell): go test -bench StyledCells.
func BenchmarkStyledCells(b *testing.B) {
	var sheet strings.Builder
	sheet.WriteString(`<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	for r := 1; r <= 20000; r++ {
		fmt.Fprintf(&sheet, `<row r="%d"><c r="A%d" s="1"><v>%d</v></c><c r="B%d" s="2"><v>0.%d</v></c><c r="C%d" s="3"><v>%d.25</v></c></row>`,
			r, r, 45000+r%400, r, r, r, r%5)
	}
	sheet.WriteString(`</sheetData></worksheet>`)
	parts := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"_rels/.rels":         `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":     `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="s" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
		"xl/styles.xml": `<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="0.0"/></numFmts>` +
			`<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="9"/><xf numFmtId="164"/></cellXfs></styleSheet>`,
		"xl/worksheets/sheet1.xml": sheet.String(),
	}
	path := filepath.Join(b.TempDir(), "styled.xlsx")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, data := range parts {
		w, _ := zw.Create(name)
		w.Write([]byte(data))
	}
	zw.Close()
	f.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		err := ingest.ReadSheetRows(context.Background(), path, "s", func(int, []string) error { n++; return nil })
		if err != nil || n != 20000 {
			b.Fatalf("%d rows, %v", n, err)
		}
	}
}
