package humancheck

import (
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/text"
	"cubeworkbench/prompts"
)

// Card is what a rater sees of one drawn answer: the question, the gold
// guide and the answer. It has no field for the set the answer came from,
// the stratum, or any score, so no screen built from cards can show them.
type Card struct {
	Seq      int // the task's place in the draw, the key ratings are stored under
	Question string
	Guide    string // "" when the gold guide is unknown
	Answer   string
}

// Cards are the draw's answers in their shuffled order, as a rater sees
// them. A task whose question or answer the workbook no longer has is left
// out.
func Cards(d *Design, wb *dataset.Workbook) []Card {
	if d == nil || wb == nil {
		return nil
	}
	items := make(map[string]*dataset.Item, len(wb.Items))
	for i := range wb.Items {
		items[wb.Items[i].ID] = &wb.Items[i]
	}
	guides := wb.GuideIndex()
	var out []Card
	for _, t := range d.Tasks {
		it := items[t.ItemID]
		if it == nil || strings.TrimSpace(it.Answer(t.Set)) == "" {
			continue
		}
		c := Card{Seq: t.Seq, Question: it.Question, Answer: it.Answer(t.Set)}
		if g, ok := guides[it.DocID]; ok && it.DocID != "" {
			c.Guide = wb.Guides[g].Text
		}
		out = append(out, c)
	}
	return out
}

// Task returns the draw's task with sequence number seq.
func (d *Design) Task(seq int) (Task, bool) {
	if d == nil {
		return Task{}, false
	}
	for _, t := range d.Tasks {
		if t.Seq == seq {
			return t, true
		}
	}
	return Task{}, false
}

// Rubric is the scoring guidance of a dimension as the judges read it: the
// system part of its prompt (promptDir's edited copy when there is one),
// without the front matter, the data-fence warning and the reply format,
// which speak to a model, not a person. "" when the dimension has no
// prompt.
func Rubric(dimension string, lang text.Lang, promptDir string) string {
	text, err := prompts.Load(promptDir, "cube/"+dimension, lang)
	if err != nil {
		return ""
	}
	if strings.HasPrefix(text, "---") {
		if _, rest, ok := strings.Cut(text[3:], "\n---"); ok {
			text = rest
		}
	}
	text, _, _ = strings.Cut(text, "=== user ===")
	var keep []string
	for _, para := range strings.Split(text, "\n\n") {
		p := strings.TrimSpace(para)
		if p == "" || strings.Contains(p, "<<<") || strings.HasPrefix(p, "Reply format") || strings.HasPrefix(p, "回复格式") {
			continue
		}
		keep = append(keep, p)
	}
	return strings.Join(keep, "\n\n")
}
