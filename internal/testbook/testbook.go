// Package testbook builds the workbooks tests read: sheets of rows written
// as an .xlsx file or as a folder of CSV files, so that every test writes
// its input one way (the reader's own tests in core/ingest keep theirs).
package testbook

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"

	"cubeworkbench/assets/sample"
)

// Book is a workbook being built: sheets in the order they were added.
type Book struct {
	sheets []*Sheet
}

// Sheet is one sheet: a header row and data rows.
type Sheet struct {
	Name string
	rows [][]any
	// hidden are the 1-based sheet rows hidden by hand (Excel's row
	// "Hide"); filter the header row's range with an AutoFilter when
	// filtered is set, as Excel does when a filter hides rows.
	hidden   []int
	filtered bool
	state    string // "", "hidden" or "veryHidden"
}

// Error is an Excel error value (#N/A, #VALUE!, …) written as Excel writes
// a formula that failed: a cell of type "e" with the error as its value, so
// the reader sees what a failed VLOOKUP leaves in a saved workbook. In a
// CSV it is the text, as Excel saves it.
type Error string

// New starts an empty workbook.
func New() *Book { return &Book{} }

// Sheet adds a sheet with its header row and returns it for its rows.
func (b *Book) Sheet(name string, header ...string) *Sheet {
	s := &Sheet{Name: name}
	h := make([]any, len(header))
	for i, x := range header {
		h[i] = x
	}
	s.rows = append(s.rows, h)
	b.sheets = append(b.sheets, s)
	return s
}

// Row appends a data row; nil leaves a cell empty.
func (s *Sheet) Row(cells ...any) *Sheet {
	s.rows = append(s.rows, cells)
	return s
}

// HideRows hides sheet rows (1-based, the header is row 1) as Excel's
// "Hide" does: the row stays in the file with hidden="1".
func (s *Sheet) HideRows(rows ...int) *Sheet {
	s.hidden = append(s.hidden, rows...)
	return s
}

// Filter puts an AutoFilter over the sheet's data and hides rows as a
// filter that excludes them does (hidden="1" under an autoFilter range).
func (s *Sheet) Filter(rows ...int) *Sheet {
	s.filtered = true
	return s.HideRows(rows...)
}

// State hides the whole sheet: "hidden" or "veryHidden".
func (s *Sheet) State(state string) *Sheet {
	s.state = state
	return s
}

// WriteXLSX writes the book as an .xlsx file at path.
func (b *Book) WriteXLSX(t testing.TB, path string) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, s := range b.sheets {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", s.Name); err != nil {
				t.Fatal(err)
			}
		} else if _, err := f.NewSheet(s.Name); err != nil {
			t.Fatal(err)
		}
		for r, cells := range s.rows {
			cell, err := excelize.CoordinatesToCellName(1, r+1)
			if err != nil {
				t.Fatal(err)
			}
			row := make([]any, len(cells))
			for c, v := range cells {
				if e, ok := v.(Error); ok {
					v = errorMark + string(e)
				}
				row[c] = v
			}
			if err := f.SetSheetRow(s.Name, cell, &row); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.hide(f, len(s.rows)); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	if err := markErrors(path); err != nil {
		t.Fatal(err)
	}
	return path
}

func (s *Sheet) hide(f *excelize.File, rows int) error {
	if s.filtered {
		last, _ := excelize.ColumnNumberToName(max(1, len(s.rows[0])))
		if err := f.AutoFilter(s.Name, fmt.Sprintf("A1:%s%d", last, rows), nil); err != nil {
			return err
		}
	}
	for _, r := range s.hidden {
		if err := f.SetRowVisible(s.Name, r, false); err != nil {
			return err
		}
	}
	if s.state != "" {
		return f.SetSheetVisible(s.Name, false, s.state == "veryHidden")
	}
	return nil
}

// errorMark prefixes the text of an Error cell until markErrors turns the
// cell into an error cell.
const errorMark = "\u2063testbook-error:"

var markedCell = regexp.MustCompile(`<c r="([A-Z]+[0-9]+)"([^>]*?) t="s"([^>]*)><v>([0-9]+)</v></c>`)

// markErrors rewrites the saved package so that every cell whose shared
// string carries errorMark is an error cell (t="e") holding the error.
func markErrors(path string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	parts := map[string][]byte{}
	var names []string
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			zr.Close()
			return err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			zr.Close()
			return err
		}
		parts[zf.Name] = b
		names = append(names, zf.Name)
	}
	zr.Close()
	sst := parts["xl/sharedStrings.xml"]
	if !bytes.Contains(sst, []byte(errorMark)) {
		return nil
	}
	var strs []string
	for _, m := range regexp.MustCompile(`(?s)<si>(.*?)</si>`).FindAllSubmatch(sst, -1) {
		var text bytes.Buffer
		for _, t := range regexp.MustCompile(`(?s)<t[^>]*>(.*?)</t>`).FindAllSubmatch(m[1], -1) {
			text.Write(t[1])
		}
		strs = append(strs, text.String())
	}
	for _, name := range names {
		if filepath.Dir(name) != "xl/worksheets" {
			continue
		}
		parts[name] = markedCell.ReplaceAllFunc(parts[name], func(c []byte) []byte {
			m := markedCell.FindSubmatch(c)
			var i int
			fmt.Sscan(string(m[4]), &i)
			if i >= len(strs) || !bytes.HasPrefix([]byte(strs[i]), []byte(errorMark)) {
				return c
			}
			val := strs[i][len(errorMark):]
			return []byte(fmt.Sprintf(`<c r="%s"%s t="e"%s><f>VLOOKUP(A1,Sheet9!A:B,2,FALSE)</f><v>%s</v></c>`, m[1], m[2], m[3], val))
		})
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, name := range names {
		w, err := zw.Create(name)
		if err != nil {
			return err
		}
		if _, err := w.Write(parts[name]); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// WriteCSV writes each sheet as NAME.csv into dir (a CSV folder workbook)
// and returns dir.
func (b *Book) WriteCSV(t testing.TB, dir string) string {
	t.Helper()
	return b.writeCSV(t, dir, nil)
}

// WriteCSVGB18030 writes the CSV folder as Chinese Excel's "CSV (comma
// delimited)" does: GB18030 (GBK for the common characters), no BOM.
func (b *Book) WriteCSVGB18030(t testing.TB, dir string) string {
	t.Helper()
	return b.writeCSV(t, dir, simplifiedchinese.GB18030.NewEncoder())
}

func (b *Book) writeCSV(t testing.TB, dir string, enc *encoding.Encoder) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range b.sheets {
		f, err := os.Create(filepath.Join(dir, s.Name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		var out io.Writer = f
		if enc != nil {
			out = enc.Writer(f)
		}
		w := csv.NewWriter(out)
		for _, cells := range s.rows {
			rec := make([]string, len(cells))
			for i, c := range cells {
				if c != nil {
					rec[i] = fmt.Sprint(c) // an Error is its text, as Excel saves it
				}
			}
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
		}
		w.Flush()
		if err := w.Error(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Sample writes the bundled sample workbook into dir and returns its path.
func Sample(t testing.TB, dir string) string {
	t.Helper()
	path := filepath.Join(dir, sample.FileName)
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
