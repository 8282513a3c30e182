package ingest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// sheetRead is everything a whole-sheet read tells its caller.
type sheetRead struct {
	rows  []pipedRow
	notes []sheetNote
	err   string
}

// readSheet reads the one sheet of a miniPackage around sheetXML as the
// loader does (with notes), piped or not; fn fails at row stopAt (0: never).
func readSheet(t *testing.T, sheetXML string, piped bool, stopAt int) sheetRead {
	t.Helper()
	pkg := miniPackage([]byte(sheetXML))
	b, p, err := openBook("piped.xlsx", func() ([]byte, error) { return pkg, nil }, Options{}.withDefaults(), 0, nil)
	if err != nil || p != nil {
		t.Fatalf("the package around the sheet failed: %v %+v", err, p)
	}
	defer b.Close()
	old := pipeSheets
	pipeSheets = piped
	defer func() { pipeSheets = old }()
	var out sheetRead
	err = b.rows(context.Background(), b.sheets[0], func(row int, cells []string, issues []cellIssue) error {
		out.rows = append(out.rows, pipedRow{row, append([]string(nil), cells...), append([]cellIssue(nil), issues...)})
		if row == stopAt {
			return fmt.Errorf("fn stops at row %d", row)
		}
		return nil
	}, func(n sheetNote) { out.notes = append(out.notes, n) })
	if err != nil {
		out.err = err.Error()
	}
	return out
}

// TestPipedSheetReadMatchesPlain: reading a sheet with the XML decoded on a
// second goroutine (runPiped) gives fn the same rows, cells and issues in
// the same order, the same notes and the same error as the plain read, for
// sheets that end well, that are damaged after more rows than a batch,
// that hide rows or merge cells, and when fn itself stops the read.
func TestPipedSheetReadMatchesPlain(t *testing.T) {
	var long strings.Builder
	long.WriteString(fuzzSheetHead)
	for r := 1; r <= 3*pipeBatch+7; r++ {
		hidden := ""
		if r%97 == 0 {
			hidden = ` hidden="1"`
		}
		fmt.Fprintf(&long, `<row r="%d"%s><c r="A%d" t="inlineStr"><is><t>问题%d</t></is></c><c r="B%d" s="2"><v>0.%d</v></c><c r="C%d"><f>1+1</f></c></row>`, r, hidden, r, r, r, r, r)
	}
	good := long.String() + `</sheetData><mergeCells count="1"><mergeCell ref="D2:D5"/></mergeCells></worksheet>`
	sheets := map[string]string{
		"long":          good,
		"cut":           long.String(),
		"garbage":       long.String() + `<row r="99999"><c r="A99999" t="b"><v>1</v></c></row><<garbage>`,
		"backwards":     long.String() + `<row r="3"/></sheetData></worksheet>`,
		"bad string":    long.String() + `<row r="5000"><c r="A5000" t="s"><v>7</v></c></row></sheetData></worksheet>`,
		"empty":         fuzzSheetHead + `</sheetData></worksheet>`,
		"merged":        fuzzSheetHead + `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" s="1"><v>45292</v></c></row></sheetData><mergeCells count="1"><mergeCell ref="B2:B3"/></mergeCells></worksheet>`,
		"doctype":       `<!DOCTYPE w [<!ENTITY e "x">]>` + fuzzSheetHead + `<row><c t="inlineStr"><is><t>&e;</t></is></c></row></sheetData></worksheet>`,
		"no data":       `<?xml version="1.0"?><worksheet/>`,
		"far dimension": strings.Replace(good, `<dimension ref="A1:C3"/>`, `<dimension ref="A1:C90000"/>`, 1),
	}
	for name, sheet := range sheets {
		for _, stopAt := range []int{0, 1, pipeBatch, pipeBatch + 1, 3*pipeBatch + 7} {
			plain, piped := readSheet(t, sheet, false, stopAt), readSheet(t, sheet, true, stopAt)
			if !reflect.DeepEqual(plain, piped) {
				t.Fatalf("%s, fn stopping at row %d: piped read differs:\n plain %d rows %+v err %q\n piped %d rows %+v err %q",
					name, stopAt, len(plain.rows), plain.notes, plain.err, len(piped.rows), piped.notes, piped.err)
			}
			if damaged := name != "long" && name != "empty" && name != "merged" && name != "far dimension"; damaged && plain.err == "" {
				t.Fatalf("%s: read without error", name)
			}
			if name == "long" && stopAt == 0 && (len(plain.rows) < 3*pipeBatch || len(plain.notes) == 0) {
				t.Fatalf("the long sheet read %d rows and %d notes", len(plain.rows), len(plain.notes))
			}
		}
	}
}
