package report

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// The streamed rows must be the bytes excelize's StreamWriter.SetRow
// writes (v2.11.1: stream.go SetRow and writeCell, cell.go trimCellValue,
// setCellFloat and formatCellFloat, lib.go bstrMarshal): every reader that
// opens a report today (Excel, LibreOffice, core/ingest) then reads the
// same cells. These tests write the same rows both ways and compare.

// rowCase is one row: its height and cells (nil, string, float64 or int,
// each with a style).
type rowCase struct {
	height float64
	cells  []any
	styles []int
}

// sheetDataOf returns the inside of <sheetData> of the first worksheet
// part of an xlsx.
func sheetDataOf(t testing.TB, xlsx []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name != "xl/worksheets/sheet1.xml" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		from := bytes.Index(b, []byte("<sheetData>"))
		to := bytes.Index(b, []byte("</sheetData>"))
		if from < 0 || to < from {
			t.Fatalf("no sheet data in %s", b)
		}
		return b[from+len("<sheetData>") : to]
	}
	t.Fatal("no sheet1.xml")
	return nil
}

// viaExcelize writes rows with excelize's StreamWriter.
func viaExcelize(t testing.TB, rows []rowCase) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for r, rc := range rows {
		vals := make([]any, len(rc.cells))
		for i, c := range rc.cells {
			if c != nil {
				vals[i] = excelize.Cell{StyleID: rc.styles[i], Value: c}
			}
		}
		ref, _ := excelize.CoordinatesToCellName(1, r+1)
		var opts []excelize.RowOpts
		if rc.height > 0 {
			opts = append(opts, excelize.RowOpts{Height: rc.height})
		}
		if err := sw.SetRow(ref, vals, opts...); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return sheetDataOf(t, buf.Bytes())
}

// viaRowWriter writes rows with rowWriter.
func viaRowWriter(t testing.TB, rows []rowCase) []byte {
	t.Helper()
	rw, err := newRowWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer rw.close()
	for r, rc := range rows {
		rw.startRow(r+1, rc.height)
		for i, c := range rc.cells {
			switch x := c.(type) {
			case string:
				rw.text(i+1, r+1, rc.styles[i], x)
			case float64:
				rw.number(i+1, r+1, rc.styles[i], x)
			case int:
				rw.integer(i+1, r+1, rc.styles[i], x)
			}
		}
		rw.endRow()
	}
	if err := rw.finish(); err != nil {
		t.Fatal(err)
	}
	// A deflate stream without its final block: read to its end.
	b, err := io.ReadAll(flate.NewReader(rw.file))
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatal(err)
	}
	if int64(len(b)) != rw.n || crc32.ChecksumIEEE(b) != rw.crc {
		t.Errorf("rows of %d bytes, CRC %08x; the writer counted %d, %08x", len(b), crc32.ChecksumIEEE(b), rw.n, rw.crc)
	}
	return b
}

func TestCRC32Combine(t *testing.T) {
	data := []byte(strings.Repeat("<row r=\"1\"><c r=\"A1\"><v>7</v></c></row>", 3000))
	for _, cut := range []int{0, 1, 2, 3, 7, 8, 1000, 65537, len(data) - 1, len(data)} {
		a, b := data[:cut], data[cut:]
		if got, want := crc32Combine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), int64(len(b))), crc32.ChecksumIEEE(data); got != want {
			t.Errorf("cut at %d: %08x, want %08x", cut, got, want)
		}
	}
}

// Rows larger than the compressor's chunks arrive whole.
func TestRowWriterManyChunks(t *testing.T) {
	var rows []rowCase
	for i := range 20000 {
		rows = append(rows, rowCase{height: 45, cells: []any{"q" + strconv.Itoa(i), "请问办理第 " + strconv.Itoa(i) + " 类事项需要什么材料？", float64(i) / 7}, styles: []int{1, 2, 3}})
	}
	if got, want := viaRowWriter(t, rows), viaExcelize(t, rows); !bytes.Equal(got, want) {
		firstDiff(t, got, want)
	}
}

// trickyTexts are texts whose XML needs care: white space at an end,
// characters XML escapes or cannot hold, invalid UTF-8, and the _xHHHH_
// form OOXML uses for escaped characters.
var trickyTexts = []string{
	"plain", "中文 问答", " leading", "trailing ", "\tTab", "line\nbreak", "crlf\r\nend\n", "\nfirst",
	`"quotes" & <tags> 'apos'`, "ctl\x00\x01\x1f", "bad \xff\xfe utf8", "\uFFFE\uFFFF", "\uFFFD kept", "emoji 😀 𠀀",
	"_x0041_", "a_x0041_b", "_x005F_x0041_", "_x005F_", "_x005f_x0041_", "_xD800_", "_x005F_xD800_", "a_x00zz_b",
	"_x0041__x0042_", "__x0041_", "_x005F_x00zz_", "_x005F_x0041", "_x005F__x005F_", "_x0041", "=SUM(A1)", "+1", "-x", "@a", "&#xA;", "x_x005F_x005F_y", "_", "_x",
	strings.Repeat("长", 5000) + "_x0030_",
}

func TestRowWriterMatchesExcelize(t *testing.T) {
	var rows []rowCase
	for i, s := range trickyTexts {
		if surrogateBstr(s) {
			continue // TestRowWriterKeepsSurrogateEscapes
		}
		rows = append(rows, rowCase{height: []float64{0, 45, 42.5}[i%3], cells: []any{s, nil, s}, styles: []int{0, 0, 7}})
	}
	nums := []float64{0, math.Copysign(0, -1), 1, 7.5, 0.1 + 0.2, 1.0 / 3, 2.0 / 3 * 1e10, 1e20, 1.2345678901234567e25, -123456789012345678,
		1e-7, 5e-324, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 123456789.123456789, 999999999999999.9, math.NaN(), math.Inf(1), math.Inf(-1)}
	for i, v := range nums {
		rows = append(rows, rowCase{cells: []any{v, i, -i * 1 << 40}, styles: []int{i % 4, 0, 3}})
	}
	wide := rowCase{height: 15}
	for c := range 730 { // past Z, AZ and ZZ
		wide.cells = append(wide.cells, c)
		wide.styles = append(wide.styles, c%3)
	}
	rows = append(rows, wide, rowCase{}, rowCase{cells: []any{nil, nil, "only C"}, styles: []int{0, 0, 0}})
	want, got := viaExcelize(t, rows), viaRowWriter(t, rows)
	if !bytes.Equal(got, want) {
		firstDiff(t, got, want)
	}
}

// surrogateBstr reports whether s holds _xHHHH_ with HHHH a surrogate,
// which excelize's writer drops and rowWriter keeps (escaped).
func surrogateBstr(s string) bool {
	for i := 0; i+7 <= len(s); i++ {
		if bstrAt([]byte(s), i) {
			if v, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil && v >= 0xD800 && v <= 0xDFFF {
				return true
			}
		}
	}
	return false
}

// readBack writes rows with rowWriter into a sheet and reads its cells
// back with excelize, as core/ingest reads a report.
func readBack(t testing.TB, rows []rowCase) [][]string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	rw, err := newRowWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer rw.close()
	for r, rc := range rows {
		rw.startRow(r+1, rc.height)
		for i, c := range rc.cells {
			if s, ok := c.(string); ok {
				rw.text(i+1, r+1, rc.styles[i], s)
			}
		}
		rw.endRow()
	}
	if err := rw.finish(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	f.ZipWriter = func(io.Writer) excelize.ZipWriter {
		return newSpliceZip(&buf, map[string]*rowWriter{sheetPart(sw): rw})
	}
	if _, err := f.WriteTo(io.Discard); err != nil {
		t.Fatal(err)
	}
	g, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	got, err := g.GetRows("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// A literal _xHHHH_ naming a surrogate is written so that it reads back
// as it was (excelize's own writer loses it).
func TestRowWriterKeepsSurrogateEscapes(t *testing.T) {
	for _, s := range []string{"_xD800_", "a_xDFFF_b", "_x005F_xD800_", "_xd83d__xde00_"} {
		got := readBack(t, []rowCase{{cells: []any{s}, styles: []int{0}}})
		if len(got) != 1 || len(got[0]) != 1 || got[0][0] != s {
			t.Errorf("%q read back as %q", s, got)
		}
	}
}

// FuzzRowWriterText compares one text cell both ways.
func FuzzRowWriterText(f *testing.F) {
	for _, s := range trickyTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if utf16Len(s) > cellLimit {
			return // cut by clip before it reaches a row
		}
		rows := []rowCase{{cells: []any{s}, styles: []int{5}}}
		if surrogateBstr(s) {
			if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return !xmlChar(r) || r == '\r' }) {
				return // XML changes these anyway; the escape is checked on the rest
			}
			if got := readBack(t, rows); len(got) != 1 || len(got[0]) != 1 || got[0][0] != s {
				t.Errorf("%q read back as %q", s, got)
			}
			return
		}
		if got, want := viaRowWriter(t, rows), viaExcelize(t, rows); !bytes.Equal(got, want) {
			firstDiff(t, got, want)
		}
	})
}

func firstDiff(t *testing.T, got, want []byte) {
	t.Helper()
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-120)
	t.Errorf("rows differ from excelize's at byte %d:\n got …%q\nwant …%q", i, got[lo:min(len(got), i+120)], want[lo:min(len(want), i+120)])
}

// The temporary file of a report's rows is gone once Write returns, also
// when it fails.
func TestRowFilesRemoved(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	in := fixture(t)
	if err := Write(t.Context(), dir+"/r.xlsx", in, nil); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(dir)
	for _, e := range left {
		if e.Name() != "r.xlsx" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
