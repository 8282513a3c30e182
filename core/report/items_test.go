package report

import (
	"strconv"
	"testing"

	"github.com/xuri/excelize/v2"
)

// The Items sheet is sorted worst first (the mean score of the system
// answer, items without one last), and the retrieval miss reads yes exactly
// where the rank is 0.
func TestItemsWorstFirstWithMissColumn(t *testing.T) {
	_, f, in := writeFixture(t, "en", nil)
	rows, err := f.GetRows(SheetItems, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	if head[2] != "Mean score of the system answer (0–10)" || head[3] != "Gold guide not retrieved" || head[4] != "Judges disagree (SD, 0–10)" || head[5] != "Rank (0 = not retrieved)" {
		t.Fatalf("header %q", head[:6])
	}
	prev, seenNA, misses := -1.0, false, 0
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			seenNA = true
			continue
		}
		if seenNA {
			t.Errorf("%s: a scored item after an unscored one", r[0])
		}
		if v < prev {
			t.Errorf("%s: mean %v after %v: not worst first", r[0], v, prev)
		}
		prev = v
		if (r[5] == "0") != (r[3] == "yes") {
			t.Errorf("%s: rank %s, not retrieved %q", r[0], r[5], r[3])
		}
		if r[3] == "yes" {
			misses++
		}
	}
	if want := in.Summary.Items - in.Summary.Retrieved - in.Summary.UnknownGold; misses != want {
		t.Errorf("%d misses marked, want %d", misses, want)
	}
}
