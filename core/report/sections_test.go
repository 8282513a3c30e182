package report

import (
	"testing"

	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// The Problems sheet lists the rows skipped when reading and the warnings
// about the input, read from the summary's own fields; without them it
// says "None." under each heading.
func TestProblemsSheetListsSkippedRowsAndWarnings(t *testing.T) {
	skipped := "qa.xlsx, sheet qa, row 7: the id q3 appears twice"
	warn := result.Warning{Source: "ingest", Code: "hidden_sheet", Where: "book.xlsx · notes", Text: text.New("工作表 notes 被隐藏，未读取。", "The sheet notes is hidden and was not read.")}
	cases := []struct {
		name string
		edit func(*Input)
		want []string // texts the sheet must hold; nil: "None." under both headings
	}{
		{"with both", func(in *Input) {
			in.Summary.Skipped = []string{skipped}
			in.Summary.Warnings = []result.Warning{warn}
		}, []string{skipped, warn.EN, "hidden_sheet", "ingest"}},
		{"with neither", func(in *Input) { in.Summary.Skipped, in.Summary.Warnings = nil, nil }, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, f, _ := writeFixture(t, "en", c.edit)
			for _, v := range c.want {
				findCell(t, f, SheetProblems, v)
			}
			rows, err := f.GetRows(SheetProblems)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range rows {
				if len(r) > 0 && (r[0] == "Rows skipped when reading the workbook" || r[0] == "Warnings about the input") {
					next := rows[i+1]
					isNone := len(next) > 0 && next[0] == "None."
					if isNone != (c.want == nil) {
						t.Errorf("under %q: %v", r[0], next)
					}
				}
			}
		})
	}
}
