package ui

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// setName is an answer set's name from the glossary ("被测系统回答", …);
// a set the glossary does not know (a second system) as it is.
func setName(set string) string {
	switch set {
	case dataset.SetZero:
		return glossary.Term(glossary.SetZeroShort, currentLanguage())
	case dataset.SetFull:
		return glossary.Term(glossary.SetFullShort, currentLanguage())
	case dataset.SetRAG:
		return glossary.Term(glossary.SetRAG, currentLanguage())
	}
	return set
}

// The why panel shows the summary's explanation (the words SUMMARY.json,
// the CLI and the report show) in parts, each filled by its own task:
// banners above the headline, bullets, the weakest questions as links, the
// recommendations.

// showBanners fills the warning strips: a loud document mapping, then the
// explanation's banners.
func (t *resultsTab) showBanners(s *result.Summary, lang text.Lang) {
	t.banners.Objects = nil
	defer t.banners.Refresh()
	if m := s.DocMapping; m != nil && m.Loud() {
		t.banners.Add(banner(strings.Join(m.Messages(lang, 3), "\n")))
	}
	if e := s.Explanation; e != nil {
		for _, b := range e.Banners {
			t.banners.Add(banner(b.In(lang)))
		}
	}
}

// showWhy fills the explanation's bullets.
func (t *resultsTab) showWhy(s *result.Summary, lang text.Lang) {
	e := s.Explanation
	if e == nil {
		t.why.SetText(tr("results.no_why"))
		return
	}
	var lines []string
	for _, b := range e.Bullets {
		lines = append(lines, "• "+b.In(lang))
	}
	if p := e.Precision.In(lang); p != "" {
		lines = append(lines, "• "+p)
	}
	t.why.SetText(strings.Join(lines, "\n"))
}

// showWeakest lists the weakest questions, each a link to its detail.
func (t *resultsTab) showWeakest(s *result.Summary, lang text.Lang) {
	t.weakest.Objects = nil
	defer t.weakest.Refresh()
	e := s.Explanation
	if e == nil {
		return
	}
	for _, wi := range e.Weakest {
		wi := wi
		line := wi.ID + " · " + wi.In(lang)
		line += " · " + oneLine(wi.Question)
		// A link that truncates: a button would be as wide as its text
		// and push the window past a small screen.
		t.weakest.Add(newFitLink(line, func() { t.openItem(wi.ID) }))
	}
	if len(e.Weakest) == 0 {
		t.weakest.Add(wrapLabel(tr("results.no_weak")))
	}
}

// showRecommendations lists the explanation's recommendations, each with
// the side it is for; without an explanation, the summary's list (the one
// list, core/explain).
func (t *resultsTab) showRecommendations(s *result.Summary, lang text.Lang) {
	var recs []string
	if e := s.Explanation; e != nil {
		for _, r := range e.Recommendations {
			recs = append(recs, "→ ["+tr("results.side_"+r.Side)+"] "+r.In(lang))
		}
	}
	if len(recs) == 0 {
		for _, rec := range s.Recommendations() {
			recs = append(recs, "→ "+rec.In(lang))
		}
	}
	if len(recs) == 0 {
		recs = []string{tr("results.no_recs")}
	}
	t.recs.SetText(strings.Join(recs, "\n"))
}

// banner is a warning strip: the baseline judge, the bundled sample, a
// document mapping that mostly failed.
func banner(text string) fyne.CanvasObject {
	bg := canvas.NewRectangle(color.NRGBA{R: 0xfd, G: 0xf0, B: 0xc8, A: 0xff})
	bg.CornerRadius = 4
	return container.NewStack(bg, newFlowText("⚠ "+text))
}

// openItem shows question id in the item explorer.
func (t *resultsTab) openItem(id string) {
	if t.index == nil || t.result() == nil {
		return
	}
	// The question grid's detail shows the three answers side by side and
	// every judge's scores and reasons: the most a weak question needs.
	for i, it := range t.result().Workbook.Items {
		if it.ID == id {
			t.inner.Select(t.gridTab)
			t.grid.openItem(i)
			return
		}
	}
}

// foundText is what the run found in its input, loudly: the summary's
// warnings (hidden sheets, mapping, MFSS flags) and the document mapping.
func foundText(s *result.Summary, lang text.Lang) string {
	var lines []string
	for _, w := range s.Warnings {
		lines = append(lines, "⚠ "+w.In(lang))
	}
	if m := s.DocMapping; m != nil {
		for _, msg := range m.Messages(lang, 20) {
			lines = append(lines, "• "+msg)
		}
	}
	if n := len(s.Problems); n > 0 {
		lines = append(lines, trf("results.problems_n", map[string]any{"N": n}))
		for i, p := range s.Problems {
			if i == 10 {
				lines = append(lines, "  …")
				break
			}
			lines = append(lines, fmt.Sprintf("  %s %s %s %s: %s", stepName(p.Step), p.ItemID, judgeLabel(p.Judge), dimLabel(p.Dim), p.Reason))
		}
	}
	if len(lines) == 0 {
		return tr("results.found_none")
	}
	return strings.Join(lines, "\n")
}
