package docparse

import (
	"archive/zip"
	"compress/flate"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileFileCost builds the hostile documents of issue 12 at full size
// (a docx holding 1 GiB of XML, a 900 MiB shared string, …) and parses each
// with DefaultLimits, logging the wall time and the peak resident memory of
// the parse (this process's, reset before each file, or the PDF child's).
// It takes minutes and GiBs of writing, so it runs only with
// DOCPARSE_HOSTILE=1 (Linux: it reads /proc/self/status):
//
//	DOCPARSE_HOSTILE=1 go test -count=1 -run TestHostileFileCost -v ./core/docparse
func TestHostileFileCost(t *testing.T) {
	if os.Getenv("DOCPARSE_HOSTILE") != "1" || runtime.GOOS != "linux" {
		t.Skip("set DOCPARSE_HOSTILE=1 (Linux) to build and measure the full-size hostile files")
	}
	dir := t.TempDir()
	const gib = 1 << 30
	para := "<w:p><w:r><w:t>办理居住证需要身份证和居住证明。</w:t></w:r></w:p>"
	cases := []struct {
		name  string
		build func(path string) error
	}{
		{"paragraphs-1GiB.docx", func(p string) error {
			return bigZip(p, "word/document.xml", `<w:document `+wordNS+`><w:body>`, para, gib, `</w:body></w:document>`)
		}},
		{"one-run-1GiB.docx", func(p string) error {
			return bigZip(p, "word/document.xml", `<w:document `+wordNS+`><w:body><w:p><w:r><w:t>`, "证", gib, `</w:t></w:r></w:p></w:body></w:document>`)
		}},
		{"slide-1GiB.pptx", func(p string) error {
			return bigZip(p, "ppt/slides/slide1.xml", `<p:sld xmlns:a="a" xmlns:p="p"><p:txBody><a:p><a:r><a:t>`, "页", gib, `</a:t></a:r></a:p></p:txBody></p:sld>`)
		}},
		{"shared-string-900MiB.xlsx", func(p string) error {
			return bigXLSX(p, `<si><t>`, "串", 900<<20, `</t></si>`, `<row><c r="A1" t="s"><v>0</v></c></row>`)
		}},
		{"whitespace-900MiB.xlsx", func(p string) error {
			return bigXLSX(p, "", "", 0, "", "<row><c r=\"A1\" t=\"inlineStr\"><is><t>a</t></is></c></row>"+strings.Repeat(" ", 1<<20), 900)
		}},
		{"cell-40MB.xlsx", func(p string) error {
			return bigXLSX(p, "", "", 0, "", `<row><c r="A1" t="inlineStr"><is><t>`+strings.Repeat("格", 40_000_000/3)+`</t></is></c></row>`)
		}},
		{"blank-XFD-1000000-rows.xlsx", func(p string) error {
			return bigXLSX(p, "", "", 0, "", strings.Repeat(`<row><c r="XFD1" t="inlineStr"><is><t> </t></is></c></row>`, 1000), 1000)
		}},
		{"loop.pdf", func(p string) error { return os.WriteFile(p, pagesPDF([]string{"x"}, "1", "2 0 R"), 0o644) }},
		{"prev.pdf", func(p string) error {
			return os.WriteFile(p, pdfDoc([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}, "/Prev %d"), 0o644)
		}},
		{"count.pdf", func(p string) error { return os.WriteFile(p, pagesPDF([]string{"x"}, "2000000000", ""), 0o644) }},
		{"flate-bomb-1GiB.pdf", func(p string) error { return os.WriteFile(p, bombPDF(t, gib), 0o644) }},
		{"objstm-loop.pdf", func(p string) error { return os.WriteFile(p, objStmLoopPDF(), 0o644) }},
	}
	var childRSS int64
	childDone = func(s *os.ProcessState) {
		if ru, ok := s.SysUsage().(*syscall.Rusage); ok {
			childRSS = ru.Maxrss << 10
		}
	}
	defer func() { childDone = nil }()
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := c.build(p); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(p)
		debug.FreeOSMemory() // so that the reset peak starts from this file
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			t.Fatalf("cannot reset the peak RSS: %v", err)
		}
		childRSS = 0
		start := time.Now()
		text, err := Parse(context.Background(), p, DefaultLimits)
		took := time.Since(start)
		peak := peakRSS(t)
		where := "in process"
		if childRSS > 0 {
			peak, where = childRSS, "child process"
		}
		t.Logf("%-28s %7.1f MiB file: %6.2f s, peak RSS %4d MiB (%s), %d bytes of text; %v",
			c.name, float64(st.Size())/(1<<20), took.Seconds(), peak>>20, where, len(text), err)
		if peak > 500<<20 {
			t.Errorf("%s: peak RSS %d MiB, want < 500 MiB", c.name, peak>>20)
		}
		if blank := strings.HasPrefix(c.name, "blank-"); (err == nil) != blank {
			t.Errorf("%s: err = %v, want a problem unless the file is just blank", c.name, err)
		}
		os.Remove(p)
	}
}

func peakRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// bigZip writes a zip whose entry name is head, then unit repeated until
// about n bytes, then tail, compressed fast (the content is repetitive, so
// the file is small).
func bigZip(path, name, head, unit string, n int64, tail string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	w, err := zw.Create(name)
	if err != nil {
		return err
	}
	if err := repeatTo(w, head, unit, n, tail); err != nil {
		return err
	}
	return zw.Close()
}

func repeatTo(w io.Writer, head, unit string, n int64, tail string) error {
	io.WriteString(w, head)
	if unit != "" {
		block := strings.Repeat(unit, (1<<20)/len(unit)+1)
		for written := int64(0); written < n; written += int64(len(block)) {
			if _, err := io.WriteString(w, block); err != nil {
				return err
			}
		}
	}
	_, err := io.WriteString(w, tail)
	return err
}

// bigXLSX writes a one-sheet workbook whose shared strings are sstHead +
// sstUnit × about sstN bytes + sstTail, and whose sheet data is row repeated
// (rowTimes, default 1).
func bigXLSX(path, sstHead, sstUnit string, sstN int64, sstTail, row string, rowTimes ...int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	for _, kv := range xlsxParts("", "", [2]string{"S", ""}) {
		if strings.HasPrefix(kv[0], "xl/worksheets/") {
			continue
		}
		w, _ := zw.Create(kv[0])
		io.WriteString(w, kv[1])
	}
	if sstHead != "" {
		w, _ := zw.Create("xl/sharedStrings.xml")
		if err := repeatTo(w, `<sst `+sheetNS+`>`+sstHead, sstUnit, sstN, sstTail+`</sst>`); err != nil {
			return err
		}
	}
	w, _ := zw.Create("xl/worksheets/sheet1.xml")
	io.WriteString(w, `<worksheet `+sheetNS+`><sheetData>`)
	times := 1
	if len(rowTimes) > 0 {
		times = rowTimes[0]
	}
	for i := 0; i < times; i++ {
		if _, err := io.WriteString(w, row); err != nil {
			return err
		}
	}
	io.WriteString(w, `</sheetData></worksheet>`)
	return zw.Close()
}
