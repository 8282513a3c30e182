package report

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/text"
)

// Text of the comparison that starts like a formula.
const (
	cmpQuestion = "=1+1 这个事项怎么办？"
	cmpAnswerB  = "-5 个工作日，请带上身份证"
)

// withComparison adds to the fixture a comparison of rag with a version
// "v2" whose answers equal rag's except on two questions it does worse on
// (their judgements lowered), one with formula-like text.
func withComparison(t *testing.T) func(*Input) {
	return func(in *Input) {
		wb := in.Workbook
		worse := map[string]float64{wb.Items[0].ID: 4, wb.Items[1].ID: 2}
		wb.Items[0].Question = cmpQuestion
		for i := range wb.Items {
			ans := wb.Items[i].Answer(dataset.SetRAG)
			if i == 0 {
				ans = cmpAnswerB
			}
			wb.Items[i].SetAnswer("v2", ans)
		}
		var js []dataset.Judgement
		for j := range wb.Scores.Values() {
			if j.Set != dataset.SetRAG {
				continue
			}
			j.Set = "v2"
			if d, ok := worse[j.ItemID]; ok && j.OK() {
				j.Score = max(0, j.Score-d)
			}
			js = append(js, j)
		}
		for _, j := range js {
			wb.Scores.Add(j)
		}
		a, b := compare.FromWorkbook(wb, dataset.SetRAG, "v2")
		cfg := cube.DefaultConfig()
		cfg.BootstrapB, cfg.Seed = 200, 1
		r, err := compare.Compare(a, b, compare.Options{Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Regressions) == 0 {
			t.Fatal("the constructed comparison has no regression")
		}
		in.Summary.Comparison = r
	}
}

// The Comparison sheet: the verdict and headline, a delta row per figure
// with its interval as the comparison has them, the regressions worst
// first with both answers, formula-like text kept as text; and the bullet
// on Summary. Without a comparison there is no sheet.
func TestComparisonSheet(t *testing.T) {
	for _, lang := range []text.Lang{"zh", "en"} {
		t.Run(string(lang), func(t *testing.T) {
			path, f, in := writeFixture(t, lang, withComparison(t))
			r := in.Summary.Comparison
			if !slices.Contains(f.GetSheetList(), SheetComparison) {
				t.Fatalf("sheets %v", f.GetSheetList())
			}
			verdict, _ := f.GetCellValue(SheetComparison, "A"+strconv.Itoa(cmpRowVerdict))
			if !strings.Contains(verdict, compare.VerdictText(r.Verdict).In(lang)) {
				t.Errorf("verdict cell %q, verdict %s", verdict, r.Verdict)
			}
			if h, _ := f.GetCellValue(SheetComparison, "A"+strconv.Itoa(cmpRowHeadline)); h != r.Headline.In(lang) {
				t.Errorf("headline %q, want %q", h, r.Headline.In(lang))
			}
			// Every row of the delta table, by its label: Δ, low, high.
			for _, row := range compare.Rows(r, lang) {
				y := rowLabelled(t, f, SheetComparison, row.Label)
				for col, want := range map[string]*float64{"D": row.Delta.Diff, "E": lowOf(row.Delta.CI95), "F": highOf(row.Delta.CI95), "G": row.Delta.Detectable} {
					got, _ := f.GetCellValue(SheetComparison, fmt.Sprintf("%s%d", col, y), excelize.Options{RawCellValue: true})
					if want == nil {
						if got != "n/a" && got != "不适用" {
							t.Errorf("%s %s%d = %q, want n/a", row.Key, col, y, got)
						}
						continue
					}
					v, err := strconv.ParseFloat(got, 64)
					if err != nil || abs(v-*want) > 1e-9 {
						t.Errorf("%s %s%d = %q, want %v", row.Key, col, y, got, *want)
					}
				}
			}
			// The worst regression first, both answers beside it.
			worst := r.Regressions[0]
			cell := findCell(t, f, SheetComparison, worst.ID)
			_, y, _ := excelize.CellNameToCoordinates(cell)
			a, _ := f.GetCellValue(SheetComparison, fmt.Sprintf("I%d", y))
			b, _ := f.GetCellValue(SheetComparison, fmt.Sprintf("J%d", y))
			if a != worst.AnswerA || b != worst.AnswerB || worst.ID != in.Workbook.Items[0].ID {
				t.Errorf("worst regression %s row %d: answers %q / %q", worst.ID, y, a, b)
			}
			// Formula-like question and answer: inline strings with the quote prefix.
			xml := zipParts(t, path)["xl/styles.xml"]
			xml = xml[strings.Index(xml, "<cellXfs"):]
			styles := append([]string{""}, regexp.MustCompile(`<xf [^>]*>`).FindAllString(xml, -1)...)
			for _, v := range []string{cmpQuestion, cmpAnswerB} {
				cell := findCell(t, f, SheetComparison, v)
				if typ, _ := f.GetCellType(SheetComparison, cell); typ != excelize.CellTypeInlineString && typ != excelize.CellTypeSharedString {
					t.Errorf("%s type %v, want a string", cell, typ)
				}
				if fx, _ := f.GetCellFormula(SheetComparison, cell); fx != "" {
					t.Errorf("%s has a formula %q", cell, fx)
				}
				id, _ := f.GetCellStyle(SheetComparison, cell)
				if id+1 >= len(styles) || !regexp.MustCompile(`quotePrefix="(1|true)"`).MatchString(styles[id+1]) {
					t.Errorf("%s (%q) lacks the quote prefix", cell, v)
				}
			}
			bullet, _ := f.GetCellValue(SheetSummary, "B"+strconv.Itoa(rowHeadline+1))
			if !strings.Contains(bullet, r.Headline.In(lang)) || !strings.Contains(bullet, SheetComparison) {
				t.Errorf("Summary bullet %q", bullet)
			}
			// The line wraps in its cells (it ran off the printed page).
			for _, col := range []string{"A", "B"} {
				cell := col + strconv.Itoa(rowHeadline+1)
				id, _ := f.GetCellStyle(SheetSummary, cell)
				st, err := f.GetStyle(id)
				if err != nil || st.Alignment == nil || !st.Alignment.WrapText {
					t.Errorf("%s: Summary %s does not wrap (%v)", lang, cell, err)
				}
			}
		})
	}
	_, f, _ := writeFixture(t, "en", nil)
	if slices.Contains(f.GetSheetList(), SheetComparison) {
		t.Error("a Comparison sheet without a comparison")
	}
	if v, _ := f.GetCellValue(SheetSummary, "B"+strconv.Itoa(rowHeadline+1)); v != "" {
		t.Errorf("a comparison bullet without a comparison: %q", v)
	}
}

func lowOf(ci *[2]float64) *float64 {
	if ci == nil {
		return nil
	}
	return &ci[0]
}

func highOf(ci *[2]float64) *float64 {
	if ci == nil {
		return nil
	}
	return &ci[1]
}

// rowLabelled is the row whose column A is exactly label.
func rowLabelled(t *testing.T, f *excelize.File, sheet, label string) int {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if len(r) > 0 && r[0] == label {
			return i + 1
		}
	}
	t.Fatalf("no row labelled %q on %s", label, sheet)
	return 0
}
