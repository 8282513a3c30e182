// Package testbook builds the workbooks tests read: sheets of rows written
// as an .xlsx file or as a folder of CSV files, so that every test writes
// its input one way (the reader's own tests in core/ingest keep theirs).
package testbook

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/xuri/excelize/v2"

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
}

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
			row := cells
			if err := f.SetSheetRow(s.Name, cell, &row); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// WriteCSV writes each sheet as NAME.csv into dir (a CSV folder workbook)
// and returns dir.
func (b *Book) WriteCSV(t testing.TB, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range b.sheets {
		f, err := os.Create(filepath.Join(dir, s.Name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		w := csv.NewWriter(f)
		for _, cells := range s.rows {
			rec := make([]string, len(cells))
			for i, c := range cells {
				if c != nil {
					rec[i] = fmt.Sprint(c)
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
