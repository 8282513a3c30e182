package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"cubeworkbench/core/dataset"
)

// The data sheets use workbook.md's canonical English sheet and column names
// so that core/ingest reads the report back as a workbook.

func (w *writer) guidesSheet() error {
	var fields []string
	seen := map[string]bool{}
	for _, g := range w.wb.Guides {
		for _, fl := range g.Fields {
			if !seen[fl.Name] {
				seen[fl.Name] = true
				fields = append(fields, fl.Name)
			}
		}
	}
	head := append([]string{"doc_id", "title", "text"}, fields...)
	widths := []float64{14, 30, 60}
	for range fields {
		widths = append(widths, 20)
	}
	if err := w.dataPrintArea(SheetGuides, len(head)); err != nil {
		return err
	}
	s, err := w.stream(SheetGuides, widths, true)
	if err != nil {
		return err
	}
	if err := s.header(head...); err != nil {
		return err
	}
	row := make([]any, len(head))
	for i, g := range w.wb.Guides {
		clear(row)
		row[0], row[1], row[2] = g.ID, g.Title, g.Text
		for _, fl := range g.Fields {
			for k, name := range fields {
				if name == fl.Name && row[3+k] == nil {
					row[3+k] = fl.Value
					break
				}
			}
		}
		if err := s.line(row...); err != nil {
			return err
		}
		if (i+1)%tickEvery == 0 {
			if err := w.tick(tickEvery); err != nil {
				return err
			}
		}
	}
	if err := w.tick(len(w.wb.Guides) % tickEvery); err != nil {
		return err
	}
	return s.flush()
}

// answerSets lists the answer sets of the items: rag, zero, full, then the
// workbook's systems, then any other set found, in order of appearance.
func (w *writer) answerSets() []string {
	out := []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull}
	seen := map[string]bool{}
	for _, s := range out {
		seen[s] = true
	}
	for _, s := range w.wb.Systems {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, it := range w.wb.Items {
		for s := range it.Answers {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

func (w *writer) qaSheet() error {
	answerSets := w.answerSets()
	hasContexts := false
	for _, it := range w.wb.Items {
		if len(it.Contexts) > 0 {
			hasContexts = true
			break
		}
	}
	head := []string{"id", "question", "doc_id", "retrieved"}
	widths := []float64{10, 40, 14, 30}
	if hasContexts {
		head, widths = append(head, "contexts"), append(widths, 40)
	}
	for _, set := range answerSets {
		switch set {
		case dataset.SetRAG:
			head = append(head, "answer")
		case dataset.SetZero:
			head = append(head, "answer_zero")
		case dataset.SetFull:
			head = append(head, "answer_full")
		default:
			head = append(head, "answer:"+set)
		}
		widths = append(widths, 40)
	}
	head = append(head, "reference", "query_type", "category", "coarse_keywords", "fine_keywords")
	widths = append(widths, 40, 12, 12, 24, 30)
	if err := w.dataPrintArea(SheetQA, len(head)); err != nil {
		return err
	}
	s, err := w.stream(SheetQA, widths, true)
	if err != nil {
		return err
	}
	if err := s.header(head...); err != nil {
		return err
	}
	row := make([]any, 0, len(head))
	for i := range w.wb.Items {
		it := &w.wb.Items[i]
		row = append(row[:0], it.ID, it.Question, it.DocID, jsonList(it.Retrieved))
		if hasContexts {
			row = append(row, jsonFit(it.Contexts))
		}
		for _, set := range answerSets {
			row = append(row, it.Answer(set))
		}
		row = append(row, it.Reference, it.QueryType, it.Category, jsonList(it.Coarse), jsonGroups(it.Fine))
		if err := s.line(row...); err != nil {
			return err
		}
		if (i+1)%tickEvery == 0 {
			if err := w.tick(tickEvery); err != nil {
				return err
			}
		}
	}
	if err := w.tick(len(w.wb.Items) % tickEvery); err != nil {
		return err
	}
	return s.flush()
}

// scoresSheet streams every judgement in long format; beyond Excel's row
// limit the rows continue on "scores (2)", …, which core/ingest reads as
// one scores sheet (the Problems sheet says so for other readers).
func (w *writer) scoresSheet() error {
	head := []string{"id", "set", "judge", "dimension", "score", "repeat", "raw", "status", "reason"}
	widths := []float64{10, 8, 16, 14, 8, 8, 60, 11, 30}
	names := append([]string{SheetScores}, w.overflow...)
	scores := &w.wb.Scores
	for k, name := range names {
		lo, hi := min(k*maxDataRows, scores.Len()), min((k+1)*maxDataRows, scores.Len())
		if err := w.dataPrintArea(name, len(head)); err != nil {
			return err
		}
		s, err := w.stream(name, widths, true)
		if err != nil {
			return err
		}
		if err := s.header(head...); err != nil {
			return err
		}
		for i := range hi - lo {
			j := scores.At(lo + i)
			s.begin()
			s.text(1, j.ItemID)
			s.text(2, j.Set)
			s.text(3, j.Judge)
			s.text(4, j.Dimension)
			if j.OK() {
				s.raw(5, j.Score)
			}
			s.integer(6, max(j.Repeat, 1))
			s.text(7, j.Raw)
			s.text(8, j.Status)
			s.text(9, j.Reason)
			if err := s.end(); err != nil {
				return err
			}
			if (i+1)%tickEvery == 0 {
				if err := w.tick(tickEvery); err != nil {
					return err
				}
			}
		}
		if err := w.tick((hi - lo) % tickEvery); err != nil {
			return err
		}
		if err := s.flush(); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) ratingsSheet() error {
	if err := w.dataPrintArea(SheetRatings, 4); err != nil {
		return err
	}
	s, err := w.stream(SheetRatings, []float64{10, 14, 8, 14}, true)
	if err != nil {
		return err
	}
	if err := s.header("id", "dimension", "score", "rater"); err != nil {
		return err
	}
	for _, h := range w.wb.Human {
		if err := s.line(h.ItemID, h.Dimension, rawNum(h.Score), h.Rater); err != nil {
			return err
		}
	}
	if err := w.tick(len(w.wb.Human)); err != nil {
		return err
	}
	return s.flush()
}

// rawNum keeps a data value in General format: a rounded display would be
// read back rounded.
type rawNumber float64

func rawNum(v any) any {
	if f, ok := v.(float64); ok {
		return rawNumber(f)
	}
	return v
}

// jsonList writes a list as a JSON array, the one list form that survives
// any separator inside an entry.
func jsonList(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return marshal(l)
}

func jsonGroups(g [][]string) string {
	if len(g) == 0 {
		return ""
	}
	return marshal(g)
}

func marshal(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimRight(b.String(), "\n")
}

// jsonFit writes texts as a JSON array that fits one cell: when the whole
// is too long each text is shortened (with a marker), so the cell stays a
// valid list rather than being cut mid-JSON.
func jsonFit(l []string) string {
	s := jsonList(l)
	if utf16Len(s) <= cellLimit {
		return s
	}
	budget := cellLimit / max(1, len(l))
	for budget > 16 {
		short := make([]string, len(l))
		for i, x := range l {
			short[i] = x
			if r := []rune(x); len(r) > budget {
				short[i] = string(r[:budget]) + "…[截断 truncated]"
			}
		}
		if s = jsonList(short); utf16Len(s) <= cellLimit {
			return s
		}
		budget = budget * 3 / 4
	}
	return "" // contexts are optional; a list that cannot fit is left out
}
