package docparse

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pdfDoc writes a PDF from its objects (numbered from 1) with a correct
// cross-reference table; extraTrailer is added to the trailer dictionary
// with %d replaced by the table's own offset (for a /Prev that loops).
func pdfDoc(objs []string, extraTrailer string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	extra := extraTrailer
	if strings.Contains(extra, "%d") {
		extra = fmt.Sprintf(extra, xref)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, extra, xref)
	return b.Bytes()
}

func contentStream(text string) string {
	s := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", text)
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(s), s)
}

const helvetica = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"

// pagesPDF has one page per text, under one /Pages node with the given /Count
// and /Kids (the real kids when kids is "").
func pagesPDF(texts []string, count, kids string) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	var refs []string
	for _, t := range texts {
		n := len(objs) + 1
		refs = append(refs, fmt.Sprintf("%d 0 R", n))
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>", n+1, n+2),
			contentStream(t), helvetica)
	}
	if count == "" {
		count = fmt.Sprint(len(texts))
	}
	if kids == "" {
		kids = strings.Join(refs, " ")
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %s >>", kids, count)
	return pdfDoc(objs, "")
}

// objStmLoopPDF's only page lives in an object stream whose /Extends is the
// stream itself, without the page: the library looks for it forever. Our
// checks do not recognise this shape, so only the child's limits stop it.
func objStmLoopPDF() []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.5\n")
	offsets := map[int]int{}
	obj := func(n int, body string) {
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body)
	}
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	obj(4, "<< /Type /ObjStm /N 0 /First 1 /Extends 4 0 R /Length 1 >>\nstream\n \nendstream")
	var table bytes.Buffer
	entry := func(typ byte, a uint32, c uint16) {
		table.WriteByte(typ)
		_ = binary.Write(&table, binary.BigEndian, a)
		_ = binary.Write(&table, binary.BigEndian, c)
	}
	xrefAt := b.Len()
	offsets[5] = xrefAt
	entry(0, 0, 65535)
	entry(1, uint32(offsets[1]), 0)
	entry(1, uint32(offsets[2]), 0)
	entry(2, 4, 0) // object 3: in object stream 4, index 0
	entry(1, uint32(offsets[4]), 0)
	entry(1, uint32(offsets[5]), 0)
	fmt.Fprintf(&b, "5 0 obj\n<< /Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", table.Len())
	b.Write(table.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xrefAt)
	return b.Bytes()
}

// bombPDF's page draws one string of n bytes, flate-compressed to a few
// hundred KiB: the library reads the whole string into memory.
func bombPDF(t *testing.T, n int) []byte {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	fmt.Fprint(zw, "BT /F1 12 Tf 72 720 Td (")
	chunk := bytes.Repeat([]byte("A"), 1<<20)
	for i := 0; i < n>>20; i++ {
		if _, err := zw.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Fprint(zw, ") Tj ET")
	zw.Close()
	return pdfDoc([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
		helvetica,
	}, "")
}

// checkProblem fails unless err wraps want, names the file and is bilingual.
func checkProblem(t *testing.T, err error, want error, file string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("err = %v, want %v", err, want)
	}
	msg := err.Error()
	if !strings.Contains(msg, file) {
		t.Errorf("error %q does not name %s", msg, file)
	}
	if !strings.Contains(msg, " / ") || !strings.ContainsFunc(msg, func(r rune) bool { return r >= 0x4E00 && r <= 0x9FFF }) {
		t.Errorf("error %q is not bilingual", msg)
	}
}

// TestHostilePDFs: each hostile PDF used to hang the parser at 100 % CPU
// (and so evaluate and sweep, deaf to SIGINT); each is now refused by name
// while the good files beside it are still read.
func TestHostilePDFs(t *testing.T) {
	loopHead := []byte(`<< /Type /Pages /Kids [2 0 R] /Count 1 >>`)
	cases := []struct {
		name string
		pdf  []byte
		want string // in the message
	}{
		{"loop.pdf", pagesPDF([]string{"x"}, "1", "2 0 R"), "loops"},
		{"loop2.pdf", pdfDoc([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", string(loopHead)}, ""), "object 2"},
		{"prev.pdf", pdfDoc([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}, "/Prev %d"), "/Prev"},
		{"count.pdf", pagesPDF([]string{"x"}, "2000000000", ""), "2000000000"},
	}
	dir := t.TempDir()
	write(t, dir, "good.pdf", minimalPDF("Hello PDF"))
	write(t, dir, "good.txt", []byte("好"))
	for _, c := range cases {
		write(t, dir, c.name, c.pdf)
	}
	docs, errs := Folder(context.Background(), dir)
	var ids []string
	for _, d := range docs {
		ids = append(ids, d.ID+"="+d.Text)
	}
	if got, want := strings.Join(ids, ","), "good.pdf=Hello PDF,good.txt=好"; got != want {
		t.Errorf("docs = %s, want %s", got, want)
	}
	if len(errs) != len(cases) {
		t.Fatalf("errs = %v, want one per hostile file", errs)
	}
	byFile := map[string]error{}
	for _, err := range errs {
		for _, c := range cases {
			if strings.Contains(err.Error(), string(filepath.Separator)+c.name+":") {
				byFile[c.name] = err
			}
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := byFile[c.name]
			checkProblem(t, err, ErrCorrupt, c.name)
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
		})
	}
}

// TestPDFLimits: what the checks do not recognise is stopped by the child's
// limits; the page limit cuts and says so.
func TestPDFLimits(t *testing.T) {
	cases := []struct {
		name     string
		pdf      func(t *testing.T) []byte
		lim      Limits
		want     error
		wantText string
		wantMsg  string
	}{
		// Never ends, so the timeout always fires: not a timing test.
		{"objstm.pdf", func(*testing.T) []byte { return objStmLoopPDF() }, Limits{Timeout: 3 * time.Second}, ErrLimit, "", "3s"},
		{"bomb.pdf", func(t *testing.T) []byte { return bombPDF(t, 256<<20) }, Limits{Memory: 64 << 20}, ErrLimit, "", "64 MiB"},
		{"pages.pdf", func(*testing.T) []byte { return pagesPDF([]string{"one", "two", "three"}, "", "") }, Limits{Pages: 2}, ErrTruncated, "one\ntwo", "2"},
		{"text.pdf", func(*testing.T) []byte { return pagesPDF([]string{"abcdef", "two"}, "", "") }, Limits{TextBytes: 3}, ErrTruncated, "ab", "3 B"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, t.TempDir(), c.name, c.pdf(t))
			text, err := Parse(context.Background(), p, c.lim)
			checkProblem(t, err, c.want, c.name)
			if !strings.Contains(err.Error(), c.wantMsg) {
				t.Errorf("error %q does not say %q", err, c.wantMsg)
			}
			if text != c.wantText {
				t.Errorf("text = %q, want %q", text, c.wantText)
			}
		})
	}
}

// TestCancelStopsPDF: a parse that would never end returns as soon as ctx
// is cancelled, and its process is gone.
func TestCancelStopsPDF(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.pdf", objStmLoopPDF())
	write(t, dir, "b.txt", []byte("never reached"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var child *os.Process
	childStarted = func(p *os.Process) { child = p; cancel() }
	defer func() { childStarted = nil }()
	docs, errs := FolderLimits(ctx, dir, Limits{Timeout: time.Hour, TimeoutBase: time.Hour})
	if len(docs) != 0 || len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
		t.Fatalf("docs = %v, errs = %v, want only context.Canceled", docs, errs)
	}
	if child == nil {
		t.Fatal("no child process was started")
	}
	if err := child.Signal(os.Signal(nil)); err == nil {
		t.Errorf("child %d still running after cancel", child.Pid)
	}
}

func TestXrefChain(t *testing.T) {
	prev := pdfDoc([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}, "/Prev %d")
	ok := minimalPDF("x")
	for _, c := range []struct {
		name string
		b    []byte
		bad  bool
	}{{"self prev", prev, true}, {"no prev", ok, false}} {
		err := checkXrefChain(bytes.NewReader(c.b), int64(len(c.b)))
		if (err != nil) != c.bad {
			t.Errorf("%s: err = %v, want bad=%v", c.name, err, c.bad)
		}
	}
}

// BenchmarkPDFProcess measures what the child process costs per PDF: the
// same small file parsed in a child (as Parse does) and in this process.
//
//	go test -run '^$' -bench PDFProcess ./core/docparse
func BenchmarkPDFProcess(b *testing.B) {
	p := filepath.Join(b.TempDir(), "ten.pdf")
	texts := make([]string, 10)
	for i := range texts {
		texts[i] = fmt.Sprintf("page %d of a small guide", i+1)
	}
	if err := os.WriteFile(p, pagesPDF(texts, "", ""), 0o644); err != nil {
		b.Fatal(err)
	}
	lim := DefaultLimits
	for _, c := range []struct {
		name  string
		parse func() (string, error)
	}{
		{"child", func() (string, error) { return Parse(context.Background(), p, lim) }},
		{"in-process", func() (string, error) { return pdfFile(p, lim) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.parse(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
