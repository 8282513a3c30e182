package ui

import (
	"fmt"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/cofe"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// mfssFactorIDs are the glossary names of mfss.FactorNames, in order.
var mfssFactorIDs = map[string]glossary.ID{
	"accuracy": glossary.MFSSAccuracy, "factual_consistency": glossary.MFSSFactualConsistency,
	"readability": glossary.MFSSReadability, "coherence": glossary.MFSSCoherence,
	"rouge": glossary.MFSSRouge, "conciseness": glossary.MFSSConciseness,
}

// factorName is an MFSS factor's name in the window's language.
func factorName(f string) string {
	if id, ok := mfssFactorIDs[f]; ok {
		return glossary.Term(id, currentLanguage())
	}
	return f
}

// grid is a compact table: as wide as its cells, header row bold.
func grid(head []string, rows [][]string) fyne.CanvasObject {
	g := container.NewGridWithColumns(len(head))
	for _, h := range head {
		g.Add(cellLabel(h, true))
	}
	for _, r := range rows {
		for _, c := range r {
			g.Add(cellLabel(c, false))
		}
	}
	return container.NewHBox(g)
}

// otherTables are MFSS and CoFE-RAG as tables, named apart from CuBE's
// guide recall (指南召回率@k): CoFE's is 关键词召回率.
func otherTables(win fyne.Window, s *result.Summary, lang text.Lang) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	if m := s.MFSS; m != nil {
		out = append(out, container.NewHBox(heading("results.mfss"), notesButton(win, lang)),
			wrapLabel(trf("results.mfss_embedder", map[string]any{"Embedder": m.Embedder})))
		head := []string{tr("col.set")}
		for _, f := range mfss.FactorNames {
			head = append(head, factorName(f))
		}
		head = append(head, glossary.Term(glossary.MFSSTotal, lang), tr("results.scored"))
		var rows [][]string
		for _, n := range systemOrder(m.Systems) {
			f := m.Systems[n]
			vals := map[string]float64{"accuracy": f.Accuracy, "factual_consistency": f.FactualConsistency, "readability": f.Readability,
				"coherence": f.Coherence, "rouge": f.Rouge, "conciseness": f.Conciseness}
			row := []string{setName(n)}
			for _, fn := range mfss.FactorNames {
				if f.Has(fn) {
					row = append(row, fmt.Sprintf("%.3f", vals[fn]))
				} else {
					row = append(row, tr("na"))
				}
			}
			row = append(row, fmt.Sprintf("%.3f", f.Total), fmt.Sprint(m.Scored[n]))
			rows = append(rows, row)
		}
		out = append(out, grid(head, rows))
		var notes []string
		for _, fl := range m.Uninformative {
			notes = append(notes, "⚠ "+trf("results.uninformative", map[string]any{"Factor": factorName(fl.Factor)})+" "+fl.Reason.In(lang))
		}
		if z := m.ZeroVectors.Message().In(lang); z != "" {
			notes = append(notes, "⚠ "+z)
		}
		if m.SkippedNoReference > 0 {
			notes = append(notes, trf("results.no_reference", map[string]any{"N": m.SkippedNoReference}))
		}
		if len(notes) > 0 {
			out = append(out, wrapLabel(strings.Join(notes, "\n")))
		}
	}
	if c := s.CoFE; c != nil {
		out = append(out, widget.NewSeparator(), heading("results.cofe"), wrapLabel(tr("results.cofe_not_cube")))
		head := []string{glossary.Term(glossary.QueryType, lang), tr("results.queries"),
			strings.Replace(glossary.Term(glossary.KeywordAccuracy, lang), "@k", fmt.Sprintf("@%d", c.K), 1),
			glossary.Term(glossary.KeywordRecall, lang), glossary.Term(glossary.KeywordCoverage, lang), tr("results.hit")}
		row := func(name string, m cofe.Metrics) []string {
			return []string{name, fmt.Sprint(m.Queries), fmtPct(m.AccuracyAtK), fmtPct(m.Recall), fmtPct(m.Coverage), fmtNum(m.MeanHitScore, 3)}
		}
		rows := [][]string{row(tr("results.all_types"), c.Metrics)}
		types := make([]string, 0, len(c.ByQueryType))
		for k := range c.ByQueryType {
			types = append(types, k)
		}
		sort.Strings(types)
		for _, k := range types {
			rows = append(rows, row(glossary.Name(glossary.QueryTypeID, k, lang), c.ByQueryType[k]))
		}
		out = append(out, grid(head, rows))
		if c.EmptyKeywordQueries > 0 {
			out = append(out, wrapLabel("⚠ "+trf("results.empty_keywords", map[string]any{"N": c.EmptyKeywordQueries})))
		}
	}
	if bl := s.Baselines; bl != nil {
		out = append(out, widget.NewSeparator(), heading("results.baselines"))
		var rows [][]string
		for _, set := range []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull} {
			rows = append(rows, []string{setName(set), fmtNum(bl.BLEU[set], 2), fmtNum(bl.RougeL[set], 2)})
		}
		rows = append(rows, []string{tr("results.normalized"), fmtNum(bl.BLEUNorm, 2), fmtNum(bl.RougeLNorm, 2)})
		out = append(out, grid([]string{tr("col.set"), "BLEU", "ROUGE-L"}, rows))
	}
	if len(out) == 0 {
		out = append(out, wrapLabel(tr("results.no_other")))
	}
	return out
}

// systemOrder lists the answer sets: zero, system, gold first, then any
// other system by name.
func systemOrder[V any](m map[string]V) []string {
	var out, rest []string
	for _, s := range []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull} {
		if _, ok := m[s]; ok {
			out = append(out, s)
		}
	}
	for k := range m {
		if k != dataset.SetZero && k != dataset.SetRAG && k != dataset.SetFull {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// notesButton shows what each MFSS factor measures, can and cannot tell
// (mfss.FactorNotes, measured on TruthfulQA and the sample).
func notesButton(win fyne.Window, lang text.Lang) *widget.Button {
	return widget.NewButtonWithIcon("", theme.QuestionIcon(), func() {
		var b strings.Builder
		for _, n := range mfss.FactorNotes(lang) {
			fmt.Fprintf(&b, "%s\n  %s %s\n  %s %s\n  %s %s\n\n", n.Name, tr("results.note_measures"), n.Measures,
				tr("results.note_can"), n.Can, tr("results.note_cannot"), n.Cannot)
		}
		l := widget.NewLabel(strings.TrimSpace(b.String()))
		l.Wrapping = fyne.TextWrapWord
		d := dialog.NewCustom(tr("results.mfss"), tr("dialog.close"), container.NewVScroll(l), win)
		d.Resize(fyne.NewSize(720, 460))
		d.Show()
	})
}
