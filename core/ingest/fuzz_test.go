package ingest

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// The fuzz targets run briefly in CI:
//
//	go test -run '^$' -fuzz '^FuzzCSV$' -fuzztime 20s ./core/ingest
//	go test -run '^$' -fuzz '^FuzzXLSXSheet$' -fuzztime 20s ./core/ingest
//	go test -run '^$' -fuzz '^FuzzXLSXFile$' -fuzztime 20s ./core/ingest
//
// Without -fuzz, `go test` runs their seeds as ordinary tests.

// readAllCSV parses data as a UTF-8 CSV, at most 10,000 records.
func readAllCSV(data []byte) ([][]string, bool, error) {
	cr := newCSVReader(bufio.NewReader(bytes.NewReader(data)), ',', encUTF8)
	var out [][]string
	clean := true
	for len(out) < 10000 {
		rec, issues, err := cr.read()
		if err == io.EOF {
			return out, clean, nil
		}
		if err != nil {
			return out, clean, err
		}
		if len(issues) > 0 {
			clean = false
		}
		out = append(out, append([]string(nil), rec...))
	}
	return out, clean, nil
}

// FuzzCSV: the parser never panics, every cell is valid UTF-8 within
// Excel's limit, errors are located, and a clean parse survives writing
// the records back out (all cells quoted) and reading them again.
func FuzzCSV(f *testing.F) {
	for _, s := range []string{
		"id,question\na,怎么办身份证？\n",
		"id,question\r\na,\"多行\r\n单元格\"\r\n",
		"id,question\ra,一\rb,二\r",
		"a,\"unclosed\nb,c\n",
		"a,\"ab\"c\n",
		"a,5\"屏,\"\"\n",
		"x,\xff\xfe,y\n",
		",,\n\n,",
		"\"\"\"\",\"a\"\"b\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, clean, err := readAllCSV(data)
		var re *readError
		if err != nil && !errors.As(err, &re) {
			t.Fatalf("unlocated error %v", err)
		}
		if re != nil && (re.row < 1 || re.col < 0 || re.en == "" || re.zh == "") {
			t.Fatalf("bad readError %+v", re)
		}
		for _, rec := range recs {
			for _, c := range rec {
				if !utf8.ValidString(c) || utf8.RuneCountInString(c) > MaxCellChars {
					t.Fatalf("cell %q", c)
				}
			}
		}
		if err != nil || !clean {
			return
		}
		var b strings.Builder
		for _, rec := range recs {
			for i, c := range rec {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`"` + strings.ReplaceAll(c, `"`, `""`) + `"`)
			}
			b.WriteByte('\n')
		}
		again, _, err := readAllCSV([]byte(b.String()))
		if err != nil || !reflect.DeepEqual(again, recs) {
			t.Fatalf("round trip: %q\n%q\nerr %v", recs, again, err)
		}
	})
}

// miniPackage is a minimal .xlsx around one sheet XML.
func miniPackage(sheetXML []byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	parts := []struct{ name, data string }{
		{"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`},
		{"_rels/.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{"xl/workbook.xml", `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="qa" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`},
		{"xl/sharedStrings.xml", `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>question</t></si><si><r><t>怎么</t></r><r><t>办</t></r><rPh><t>zen</t></rPh></si></sst>`},
		{"xl/styles.xml", `<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="0.0%"/></numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/></cellXfs></styleSheet>`},
	}
	// Stored, not deflated: compressing costs more than the reading under test.
	store := func(name string, data []byte) {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		w.Write(data)
	}
	for _, p := range parts {
		store(p.name, []byte(p.data))
	}
	store("xl/worksheets/sheet1.xml", sheetXML)
	zw.Close()
	return buf.Bytes()
}

const fuzzSheetHead = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:C3"/><sheetData>`

// FuzzXLSXSheet: any sheet XML reads without panic into rows in order,
// each within Excel's width and cell limit; damage is a located error.
func FuzzXLSXSheet(f *testing.F) {
	for _, s := range []string{
		fuzzSheetHead + `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" s="1"><v>45292</v></c><c r="C2" s="2"><v>0.25</v></c></row></sheetData><mergeCells count="1"><mergeCell ref="B2:B3"/></mergeCells></worksheet>`,
		fuzzSheetHead + `<row r="1"><c r="A1" t="inlineStr"><is><t>question</t></is></c></row><row r="2"><c r="A2"><f>1+1</f></c><c r="XFD2" t="inlineStr"><is><t> </t></is></c></row></sheetData></worksheet>`,
		fuzzSheetHead + `<row r="1"><c r="A1" t="b"><v>1</v></c></row><<garbage><row r="2"></row></sheetData></worksheet>`,
		fuzzSheetHead + `<row r="1"><c r="A1" t="s"><v>7</v></c></row></sheetData></worksheet>`,
		fuzzSheetHead + `<row r="3"/><row r="2"/></sheetData></worksheet>`,
		`<!DOCTYPE w [<!ENTITY e "x">]>` + fuzzSheetHead + `<row><c t="inlineStr"><is><t>&e;</t></is></c></row></sheetData></worksheet>`,
		fuzzSheetHead + `<row r="1"><c r="A1" t="inlineStr"><is><t><![CDATA[a]]b]]></t></is></c></row>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pkg := miniPackage(data)
		b, p, err := openBook("fuzz.xlsx", func() ([]byte, error) { return pkg, nil }, Options{}.withDefaults(), 0, nil)
		if err != nil || p != nil {
			t.Fatalf("the package around the sheet failed: %v %+v", err, p)
		}
		defer b.Close()
		last := 0
		err = b.rows(context.Background(), b.sheets[0], func(row int, cells []string, issues []cellIssue) error {
			if row <= last || row > maxRows || len(cells) > maxCols {
				t.Fatalf("row %d after %d, %d cells", row, last, len(cells))
			}
			last = row
			for _, c := range cells {
				if utf8.RuneCountInString(c) > MaxCellChars {
					t.Fatalf("cell of %d characters", utf8.RuneCountInString(c))
				}
			}
			for _, is := range issues {
				if is.col < 0 || is.col >= maxCols || is.en == "" || is.zh == "" {
					t.Fatalf("issue %+v", is)
				}
			}
			return nil
		}, func(sheetNote) {})
		var re *readError
		if err != nil && !errors.As(err, &re) {
			t.Fatalf("unlocated error %v", err)
		}
	})
}

// FuzzXLSXFile: any bytes named .xlsx give problems, never a panic or an
// error (errors are for files that cannot be read at all).
func FuzzXLSXFile(f *testing.F) {
	f.Add(miniPackage([]byte(fuzzSheetHead + `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row></sheetData></worksheet>`)))
	f.Add([]byte("PK\x03\x04garbage"))
	f.Add(append(append([]byte{}, oleMagic...), make([]byte, 100)...))
	f.Add([]byte("question\n一\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.xlsx")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Open(context.Background(), path, Options{TempDir: dir}); err != nil {
			t.Fatalf("Open: %v", err)
		}
	})
}
