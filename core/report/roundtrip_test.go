package report

import (
	"context"
	"slices"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/ingest"
)

// TestReopenAsWorkbook reads the written report with core/ingest: the
// guides, the items with every answer set and list, every judgement (raw
// replies and unscorable ones included) and the expert ratings come back,
// so an evaluation of the report finds every judgement already made.
func TestReopenAsWorkbook(t *testing.T) {
	path, _, in := writeFixture(t, "zh", nil)
	wb, rep, err := ingest.Open(context.Background(), path, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.HasErrors() {
		for _, p := range rep.Problems {
			t.Errorf("ingest problem: %s", p.Message("en"))
		}
	}
	src := in.Workbook

	if len(wb.Guides) != len(src.Guides) {
		t.Fatalf("%d guides back, want %d", len(wb.Guides), len(src.Guides))
	}
	for i, g := range src.Guides {
		got := wb.Guides[i]
		if got.ID != g.ID || got.Title != g.Title || got.Text != g.Text || !slices.Equal(fieldNames(got.Fields), fieldNames(g.Fields)) {
			t.Errorf("guide %d: got %+v, want %+v", i, got, g)
		}
	}

	if len(wb.Items) != len(src.Items) {
		t.Fatalf("%d items back, want %d", len(wb.Items), len(src.Items))
	}
	for i, it := range src.Items {
		got := wb.Items[i]
		if got.ID != it.ID || got.Question != it.Question || got.DocID != it.DocID || got.Reference != it.Reference ||
			got.QueryType != it.QueryType || got.Category != it.Category {
			t.Errorf("item %s: fields differ: %+v", it.ID, got)
		}
		if !slices.Equal(got.Retrieved, it.Retrieved) || !slices.Equal(got.Coarse, it.Coarse) ||
			!slices.EqualFunc(got.Fine, it.Fine, slices.Equal[[]string]) {
			t.Errorf("item %s: lists differ: %q %q %q", it.ID, got.Retrieved, got.Coarse, got.Fine)
		}
		if len(got.Answers) != len(it.Answers) {
			t.Errorf("item %s: %d answer sets, want %d", it.ID, len(got.Answers), len(it.Answers))
		}
		for set, a := range it.Answers {
			want, _ := clip(a) // the 40,000-character answer comes back cut
			if got.Answer(set) != want {
				t.Errorf("item %s set %s: answer differs (%d vs %d bytes)", it.ID, set, len(got.Answer(set)), len(want))
			}
		}
	}
	for _, set := range []string{"rag", "zero", "full", "v2"} {
		if !slices.Contains(wb.Systems, set) {
			t.Errorf("answer set %q not found back (systems %q)", set, wb.Systems)
		}
	}

	if wb.Scores.Len() != src.Scores.Len() {
		t.Fatalf("%d judgements back, want %d", wb.Scores.Len(), src.Scores.Len())
	}
	unscorable := 0
	for i, j := range src.Scores.All() {
		got := wb.Scores.At(i)
		got.Row = 0
		if j.Repeat == 0 {
			j.Repeat = 1
		}
		if got != j {
			t.Errorf("judgement %d: got %+v, want %+v", i, got, j)
		}
		if !j.OK() {
			unscorable++
		}
	}
	if unscorable != 3 {
		t.Errorf("fixture has %d unscorable judgements, want 3", unscorable)
	}

	if len(wb.Human) != len(src.Human) {
		t.Fatalf("%d ratings back, want %d", len(wb.Human), len(src.Human))
	}
	for i, h := range src.Human {
		got := wb.Human[i]
		got.Row = 0
		if got != h {
			t.Errorf("rating %d: got %+v, want %+v", i, got, h)
		}
	}
}

func fieldNames(fs []dataset.Field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name+"="+f.Value)
	}
	return out
}
