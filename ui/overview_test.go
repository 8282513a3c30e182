package ui

import (
	"strings"
	"testing"
	"time"

	"cubeworkbench/core/text"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestWhyPanel: on the sample evaluated offline the overview shows the
// summary's own explanation (the words SUMMARY.json and the report hold):
// its banners, bullets, the weakest questions as links that open their
// detail; the comparison says there is one judge instead of "± n/a"; the
// MFSS·CoFE tab is tables.
func TestWhyPanel(t *testing.T) {
	for _, lang := range []string{"zh", "en"} {
		t.Run(lang, func(t *testing.T) {
			w, loop := newTestWindow(t, lang, nil)
			path, err := w.writeSample()
			if err != nil {
				t.Fatal(err)
			}
			w.loadWorkbook(path, false)
			loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil })
			test.Tap(w.eval.start)
			loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running && w.index != nil })
			s := w.result().Summary
			e := s.Explanation
			if e == nil || len(e.Bullets) == 0 {
				t.Fatalf("no explanation in the summary")
			}
			r := w.results
			for _, b := range e.Bullets {
				if !strings.Contains(r.why.Text, b.In(text.Lang(lang))) {
					t.Errorf("why panel %q lacks bullet %q", r.why.Text, b.In(text.Lang(lang)))
				}
			}
			if len(r.banners.Objects) < len(e.Banners) || len(e.Banners) == 0 {
				t.Errorf("%d banners shown for %d (the sample with the baseline judge has two)", len(r.banners.Objects), len(e.Banners))
			}
			if len(e.Weakest) == 0 || len(r.weakest.Objects) != len(e.Weakest) {
				t.Fatalf("%d weakest links for %d", len(r.weakest.Objects), len(e.Weakest))
			}
			r.weakest.Objects[0].(*flowText).shown.(*widget.Hyperlink).OnTapped()
			if r.inner.Selected() != r.gridTab {
				t.Errorf("the link did not open the question grid")
			}
			if !r.grid.detail.Visible() || len(r.grid.detail.Objects) == 0 {
				t.Errorf("the grid does not show the detail of %s", e.Weakest[0].ID)
			}
			if len(s.Result.Judges) == 1 {
				var texts []string
				for _, o := range r.compare.Objects {
					if l, ok := o.(*widget.Label); ok {
						texts = append(texts, l.Text)
					}
				}
				if !strings.Contains(strings.Join(texts, " "), tr("results.single_judge")) {
					t.Errorf("one judge, but the comparison says %q", texts)
				}
			}
			if s.MFSS != nil && len(r.other.Objects) < 3 {
				t.Errorf("MFSS·CoFE tab holds %d objects, want heading, embedder and table", len(r.other.Objects))
			}
		})
	}
}

// TestTwoOfflineJudges: ticking the semantic judge beside the lexical one
// puts two offline judges side by side on the sample — the comparison has
// its mean ± SD row and no "only one judge" note.
func TestTwoOfflineJudges(t *testing.T) {
	w, loop := newTestWindow(t, "zh", nil)
	w.judges.semantic.SetChecked(true)
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil })
	test.Tap(w.eval.start)
	loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running && w.index != nil })
	s := w.result().Summary
	if len(s.Result.Judges) != 2 {
		t.Fatalf("%d judges, want lexical and semantic", len(s.Result.Judges))
	}
	view := strings.Join(labels(w.results.compare), " ")
	if strings.Contains(view, tr("results.single_judge")) || !strings.Contains(view, tr("results.mean_sd")) {
		t.Errorf("comparison with two judges: %q", view)
	}
	if len(w.judges.llmJudges()) != 0 {
		t.Errorf("the offline judges are listed as LLM judges")
	}
}
