package session_test

import (
	"strconv"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/session"
)

// A clone holds its items once more but not their answers (issue 27: a
// map an item was 0.3 KB a question, the second copy of every answer map
// the session kept while the engine ran); an answer the engine adds to the
// clone still never reaches the workbook it was cloned from.
func TestCloneSharesAnswersWithoutWritingThem(t *testing.T) {
	wb := &dataset.Workbook{}
	for i := range 1000 {
		it := dataset.Item{ID: "Q" + strconv.Itoa(i)}
		it.SetAnswer(dataset.SetRAG, "answer "+strconv.Itoa(i))
		wb.Items = append(wb.Items, it)
	}
	if allocs := testing.AllocsPerRun(5, func() { session.Clone(wb) }); allocs > 8 {
		t.Errorf("Clone of 1,000 items: %.0f allocations; want a few, not one an item", allocs)
	}
	c := session.Clone(wb)
	c.Items[7].SetAnswer(dataset.SetZero, "generated")
	c.Items[7].SetAnswer(dataset.SetRAG, "asked again")
	if got := wb.Items[7].Answer(dataset.SetZero); got != "" {
		t.Errorf("original item got the clone's zero answer %q", got)
	}
	if got := wb.Items[7].Answer(dataset.SetRAG); got != "answer 7" {
		t.Errorf("original item's rag answer = %q, want %q", got, "answer 7")
	}
	if got := c.Items[7].Answer(dataset.SetZero); got != "generated" {
		t.Errorf("clone's zero answer = %q", got)
	}
	if got := c.Items[8].Answer(dataset.SetRAG); got != "answer 8" {
		t.Errorf("clone's other items lost their answers: %q", got)
	}
}
