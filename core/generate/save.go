package generate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/aspect"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/text"
)

// Sheet and column names of a saved test set. The guides and qa sheets use
// the workbook's canonical names (workbook.md), so the file opens like any
// workbook; aspect, guide_title, generator, origin and original_question
// are extra qa columns the reader keeps out of the way. The aspect's title
// also goes in category, so breakdowns by category are by aspect.
const (
	SheetReview = "审核记录 review"
)

var qaColumns = []string{"id", "question", "doc_id", "query_type", "category", "aspect", "guide_title", "generator", "origin", "original_question"}

// WriteTestSet saves the accepted candidates as the qa sheet of a new
// workbook beside every guide (the knowledge base the set is evaluated
// against), with a review sheet listing every candidate, its decision and
// the filters' reasons, for the audit. The file is written whole, then
// renamed into place.
func WriteTestSet(path string, guides []dataset.Guide, cands []Candidate, lang text.Lang) (accepted int, err error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "guides"); err != nil {
		return 0, err
	}
	if err := writeGuides(f, guides); err != nil {
		return 0, err
	}
	if _, err := f.NewSheet("qa"); err != nil {
		return 0, err
	}
	rows := [][]any{toAny(qaColumns)}
	for _, c := range cands {
		if c.Decision != Accepted {
			continue
		}
		cat, asp := "", c.Aspect
		if a, ok := aspect.Lookup(c.Aspect); ok {
			cat = a.Title(lang)
		}
		rows = append(rows, []any{c.ID, c.Question, c.GuideID, c.QueryType, cat, asp, c.GuideTitle, c.Model, OriginTitle(c.Origin, lang), c.Original})
	}
	accepted = len(rows) - 1
	if err := writeRows(f, "qa", rows); err != nil {
		return 0, err
	}
	if _, err := f.NewSheet(SheetReview); err != nil {
		return 0, err
	}
	review := [][]any{{"id", "question", "doc_id", "decision", "flags"}}
	for _, c := range cands {
		var reasons []string
		for _, fl := range c.Flags {
			reasons = append(reasons, fl.In(lang))
		}
		review = append(review, []any{c.ID, c.Question, c.GuideID, decisionTitle(c.Decision, lang), strings.Join(reasons, "\n")})
	}
	if err := writeRows(f, SheetReview, review); err != nil {
		return 0, err
	}
	dir, base := filepath.Split(path)
	tmp := filepath.Join(dir, "."+base+".partial.xlsx")
	if err := f.SaveAs(tmp); err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("generate: save %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("generate: save %s: %w", path, err)
	}
	return accepted, nil
}

// decisionTitles are the review decisions as the review sheet says them.
var decisionTitles = map[string]text.Text{
	Accepted: text.New("采用", "accepted"),
	Rejected: text.New("不采用", "rejected"),
	Pending:  text.New("未审核", "not reviewed"),
}

func decisionTitle(d string, lang text.Lang) string { return decisionTitles[d].In(lang) }

// writeGuides writes doc_id, title, text, target_doc and every other field
// in the order the guides had them.
func writeGuides(f *excelize.File, guides []dataset.Guide) error {
	head := []string{"doc_id", "title", "text", "target_doc"}
	var extra []string
	seen := map[string]bool{}
	for _, g := range guides {
		for _, fl := range g.Fields {
			if !seen[fl.Name] {
				seen[fl.Name] = true
				extra = append(extra, fl.Name)
			}
		}
	}
	rows := [][]any{toAny(append(head, extra...))}
	for _, g := range guides {
		row := []any{g.ID, g.Title, g.Text, g.TargetDoc}
		for _, name := range extra {
			v, _ := fieldValue(g, name)
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	return writeRows(f, "guides", rows)
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func writeRows(f *excelize.File, sheet string, rows [][]any) error {
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sheet, cell, &r); err != nil {
			return fmt.Errorf("generate: sheet %s row %d: %w", sheet, i+1, err)
		}
	}
	return nil
}
