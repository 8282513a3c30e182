package report

import (
	"context"
	"cubeworkbench/core/text"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/glossary"
)

// modelWriter is a writer with no excelize file: the page models are built
// from the summary alone. Its looks are small distinct numbers, so a test
// can tell a title from a label.
func modelWriter(t *testing.T, lang text.Lang, edit func(*Input)) *writer {
	t.Helper()
	in := fixture(t)
	in.Lang = lang
	if edit != nil {
		edit(&in)
	}
	w := &writer{ctx: context.Background(), in: in, s: in.Summary, wb: in.Workbook, lang: lang,
		st: styles{title: 1, label: 2, header: 3, headerNum: 4, note: 5, subtitle: 6, na: 7}}
	for _, j := range w.s.Judges {
		w.judges = append(w.judges, j.Judge)
	}
	w.dims = w.s.Dimensions
	return w
}

// modelPages are every analysis sheet's page of the fixture, with a
// comparison.
func modelPages(t *testing.T, w *writer) []*sheetPage {
	t.Helper()
	pages := []*sheetPage{w.methodPage(), w.judgesPage(), w.correlationsPage(), w.humanPage(), w.mfssPage(), w.cofePage()}
	for i, name := range w.judgeSheetNames() {
		pages = append(pages, w.judgePage(name, w.s.Judges[i]))
	}
	if w.s.Comparison != nil {
		p, err := w.comparisonPage()
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p)
	}
	return pages
}

// Every page is a layout excelize can write: no cell written twice, every
// merged range starts on a written cell, every table starts on a written
// row, row heights within Excel's 409 points, every native chart's series
// on rows the page holds. Checked without writing a file.
func TestPagesAreWellFormed(t *testing.T) {
	for _, lang := range []text.Lang{"zh", "en"} {
		w := modelWriter(t, lang, withComparison(t))
		for _, p := range modelPages(t, w) {
			t.Run(string(lang)+"/"+p.Name, func(t *testing.T) {
				if len(p.Rows) == 0 {
					t.Fatal("empty page")
				}
				cells := map[string]bool{}
				rows := map[int]bool{}
				for _, r := range p.Rows {
					for i, c := range r.Cells {
						if c == nil {
							continue
						}
						ref, _ := excelize.CoordinatesToCellName(r.Col+i, r.Row)
						if cells[ref] {
							t.Errorf("cell %s written twice", ref)
						}
						cells[ref], rows[r.Row] = true, true
					}
				}
				for _, m := range p.Merges {
					if !cells[m[0]] {
						t.Errorf("merge %s:%s starts on an empty cell", m[0], m[1])
					}
				}
				for _, b := range p.Blocks {
					if !rows[b] {
						t.Errorf("a table starts on row %d, which is empty", b)
					}
				}
				for r, h := range p.Heights {
					if h <= 0 || h > 409 {
						t.Errorf("row %d is %v pt high", r, h)
					}
				}
				for _, d := range p.Drawings {
					if d.Chart == nil {
						continue
					}
					for _, s := range d.Chart.Series {
						for _, rng := range []string{s.Categories, s.Values} {
							if !strings.HasPrefix(rng, "'"+p.Name+"'!") {
								t.Errorf("chart at %s reads %s, not this sheet", d.Cell, rng)
							}
						}
					}
				}
			})
		}
	}
}

// The CuBE-per-judge chart of the Judges page draws one bar per judge from
// the rows that name the judges, and its error bars come from the same
// rows: a model test, no excelize file.
func TestJudgesPageChartReadsItsTable(t *testing.T) {
	w := modelWriter(t, "zh", nil)
	p := w.judgesPage()
	var bars *pageDrawing
	for i := range p.Drawings {
		if p.Drawings[i].ErrBars[0] != "" {
			bars = &p.Drawings[i]
		}
	}
	if bars == nil {
		t.Fatal("the Judges page has no chart with error bars")
	}
	// The last block of rows naming every judge in order is the chart's table.
	var first int
	for _, r := range p.Rows {
		if r.Col == 1 && len(r.Cells) == 6 && r.Cells[0] == w.judgeName(w.judges[0]) {
			first = r.Row
		}
	}
	if first == 0 {
		t.Fatal("no table row names the first judge")
	}
	last := first + len(w.judges) - 1
	want := ref(p.Name, 2, first, 2, last)
	if got := bars.Chart.Series[0].Values; got != want {
		t.Errorf("bars read %s, want %s", got, want)
	}
	if want := ref(p.Name, 5, first, 5, last); bars.ErrBars[0] != want {
		t.Errorf("plus error bars read %s, want %s", bars.ErrBars[0], want)
	}
	for i, j := range w.judges {
		if !slices.ContainsFunc(p.Rows, func(r pageRow) bool { return r.Row == first+i && r.Cells[0] == w.judgeName(j) }) {
			t.Errorf("row %d does not name judge %s", first+i, j)
		}
	}
}

// The Method page names things as the glossary does, in both languages:
// the tokens, the workbook, the dimension, the offline judges' kind.
func TestMethodPageUsesGlossaryNames(t *testing.T) {
	for _, lang := range []text.Lang{"zh", "en"} {
		w := modelWriter(t, lang, nil)
		words := w.methodPage().text()
		for _, id := range []glossary.ID{glossary.Tokens, glossary.Dimension, glossary.Profile} {
			name := capitalize(glossary.Term(id, text.Lang(lang)))
			if !slices.Contains(words, name) {
				t.Errorf("%s: the Method page does not name %s as the glossary does (%q)", lang, id, name)
			}
		}
		if lang == "zh" {
			for _, old := range []string{"令牌数", "数据文件", "维度", "评分维度", "词汇基线"} {
				if slices.Contains(words, old) {
					t.Errorf("zh: the Method page still says %q", old)
				}
			}
		}
		if !slices.Contains(words, glossary.Term(glossary.JudgeLexical, text.Lang(lang))) {
			t.Errorf("%s: the lexical judge's kind is not %q", lang, glossary.Term(glossary.JudgeLexical, text.Lang(lang)))
		}
	}
}

// The profile's settings on the Method page are worded for the reader,
// never as the profile's ids: the Chinese report says 中文, 检索命中的问题,
// 相关性权重 and the dimensions' names, not zh, retrieved, correlation and
// relevance, specificity.
func TestMethodProfileValuesInTheReadersLanguage(t *testing.T) {
	w := modelWriter(t, "zh", nil)
	for _, s := range w.methodPage().text() {
		for _, id := range []string{"zh", "retrieved", "correlation", "equal", "relevance", "specificity", "completeness", "quality"} {
			if slices.Contains(strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '(' || r == ')' }), id) {
				t.Errorf("zh Method page shows the id %q in %q", id, s)
			}
		}
	}
	en := strings.Join(modelWriter(t, "en", nil).methodPage().text(), "\n")
	for _, want := range []string{"English", "correlation weights"} {
		if !strings.Contains(en, want) {
			t.Errorf("en Method page lacks %q", want)
		}
	}
}
