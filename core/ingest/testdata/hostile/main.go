// Command hostile writes the hostile workbooks of issue 12 into a folder,
// for measuring peak memory and time of `cubectl validate` on each:
//
//	go run ./core/ingest/testdata/hostile /tmp/hostile
//	/usr/bin/time -v cubectl validate /tmp/hostile/sst900.xlsx
//
// It lives under testdata so that `go build ./...` and `go vet ./...` skip
// it; the files are far too large to commit.
package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

const (
	contentTypes = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`
	rootRels     = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`
	workbook     = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="qa" sheetId="1" r:id="rId1"/></sheets></workbook>`
	wbRels       = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`
	sheetHead    = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`
	sheetTail    = `</sheetData></worksheet>`
	sstHead      = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`
	// Shared strings 0 and 1: the header and a question.
	sstCommon = `<si><t>question</t></si><si><t>怎么办身份证？</t></si>`
	qaRows    = `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>`
)

// repeat writes s n times.
type repeat struct {
	s string
	n int
}

func write(dir, name string, sheet, sst []any) {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		panic(err)
	}
	zw := zip.NewWriter(f)
	part := func(name string, pieces ...any) {
		w, err := zw.Create(name)
		if err != nil {
			panic(err)
		}
		for _, p := range pieces {
			switch p := p.(type) {
			case string:
				io.WriteString(w, p)
			case repeat:
				chunk := strings.Repeat(p.s, max(1, (1<<20)/len(p.s)))
				per := len(chunk) / len(p.s)
				for left := p.n; left > 0; left -= per {
					if left < per {
						chunk = strings.Repeat(p.s, left)
					}
					io.WriteString(w, chunk)
				}
			case func(io.Writer):
				p(w)
			}
		}
	}
	part("[Content_Types].xml", contentTypes)
	part("_rels/.rels", rootRels)
	part("xl/workbook.xml", workbook)
	part("xl/_rels/workbook.xml.rels", wbRels)
	part("xl/worksheets/sheet1.xml", sheet...)
	part("xl/sharedStrings.xml", sst...)
	if err := zw.Close(); err != nil {
		panic(err)
	}
	if err := f.Close(); err != nil {
		panic(err)
	}
	fmt.Println(filepath.Join(dir, name))
}

func main() {
	dir := os.Args[1]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		panic(err)
	}
	const mib = 1 << 20
	// One 900 MiB shared string, used by a question cell.
	write(dir, "sst900.xlsx",
		[]any{sheetHead, qaRows, `<row r="3"><c r="A3" t="s"><v>2</v></c></row>`, sheetTail},
		[]any{sstHead, sstCommon, "<si><t>", repeat{"x", 900 * mib}, "</t></si></sst>"})
	// 900 MiB of whitespace inside the sheet data.
	write(dir, "ws900.xlsx",
		[]any{sheetHead, qaRows, repeat{" ", 900 * mib}, sheetTail},
		[]any{sstHead, sstCommon, "</sst>"})
	// A 40 MB cell (an inline string of 40 million characters).
	write(dir, "cell40.xlsx",
		[]any{sheetHead, qaRows, `<row r="3"><c r="A3" t="inlineStr"><is><t>`, repeat{"y", 40_000_000}, `</t></is></c></row>`, sheetTail},
		[]any{sstHead, sstCommon, "</sst>"})
	// 1,000,000 rows whose only cell is a blank at XFD (a shared string
	// of one space).
	write(dir, "xfd1m.xlsx",
		[]any{sheetHead, qaRows, func(w io.Writer) {
			var b bytes.Buffer
			for r := 3; r <= 1_000_002; r++ {
				fmt.Fprintf(&b, `<row r="%d"><c r="XFD%d" t="s"><v>2</v></c></row>`, r, r)
				if b.Len() > mib {
					w.Write(b.Bytes())
					b.Reset()
				}
			}
			w.Write(b.Bytes())
		}, sheetTail},
		[]any{sstHead, sstCommon, "<si><t xml:space=\"preserve\"> </t></si></sst>"})
	// 10,000 of them.
	write(dir, "xfd10k.xlsx",
		[]any{sheetHead, qaRows, func(w io.Writer) {
			for r := 3; r <= 10_002; r++ {
				fmt.Fprintf(w, `<row r="%d"><c r="XFD%d" t="s"><v>2</v></c></row>`, r, r)
			}
		}, sheetTail},
		[]any{sstHead, sstCommon, "<si><t xml:space=\"preserve\"> </t></si></sst>"})
	// A 74 MB sheet (its unpacked copy is what a kill used to leave in the
	// system temporary folder).
	write(dir, "sheet74.xlsx",
		[]any{sheetHead, qaRows, func(w io.Writer) {
			var b bytes.Buffer
			for r := 3; b.Len() < 74*mib || r < 4; r++ {
				fmt.Fprintf(&b, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>第 %d 个问题：怎么办理居民身份证？</t></is></c></row>`, r, r, r)
			}
			w.Write(b.Bytes())
		}, sheetTail},
		[]any{sstHead, sstCommon, "</sst>"})
}
