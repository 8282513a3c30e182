package ui

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/explain"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// evaluatedSample opens the bundled sample in a test window and evaluates
// it offline, as an officer would.
func evaluatedSample(t *testing.T, lang string) *Window {
	t.Helper()
	w, loop := newTestWindow(t, lang, nil)
	test.Tap(w.open.openSample)
	loop.runUntil(t, 30*time.Second, "the sample to load", func() bool { return w.workbook() != nil || w.loadErr != nil })
	if w.loadErr != nil {
		t.Fatal(w.loadErr)
	}
	w.eval.offline.SetChecked(true)
	test.Tap(w.eval.start)
	loop.runUntil(t, 60*time.Second, "the evaluation", func() bool { return !w.eval.running })
	if w.result() == nil || w.result().Summary == nil || w.result().Summary.Explanation == nil {
		t.Fatalf("no explained result: %q", w.eval.status.Text)
	}
	return w
}

// texts collects every label, button and check text under o.
func texts(o fyne.CanvasObject) []string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *flowText:
			out = append(out, x.Text)
		case *widget.Button:
			out = append(out, x.Text)
		case *widget.Check:
			out = append(out, x.Text)
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case *container.Scroll:
			walk(x.Content)
		case *tabPage:
			walk(x.content)
		}
	}
	walk(o)
	return out
}

// findButton is the button labelled text under o.
func findButton(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Button:
			if x.Text == text {
				found = x
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(o)
	if found == nil {
		t.Fatalf("no button %q", text)
	}
	return found
}

// TestQuestionGridOnSample: open the sample → evaluate offline → 60 rows,
// filter counts equal to the why panel's, 未检索到 gives the 12 questions
// whose guide is not in the top 8, a click shows the three answers and
// every judge's scores with translated reasons.
func TestQuestionGridOnSample(t *testing.T) {
	for _, tc := range []struct {
		lang, other, own string // a reason in the other language must not show, in its own must
	}{
		{"zh", "question words in the answer", "个出现在回答中"},
		{"en", "个出现在回答中", "question words in the answer"}, // stored in both languages: each window shows its own
	} {
		t.Run(tc.lang, func(t *testing.T) {
			w := evaluatedSample(t, tc.lang)
			opened := -1
			g := newQuestionGrid(w.shell(), func(i int) { opened = i })
			refreshAndWait(t, g, w.sess)
			sum := w.result().Summary
			if mw := g.object().MinSize().Width; mw > 1000 {
				t.Errorf("the grid needs %v px: it would push a 1024 px window wider", mw)
			}
			if rows, _ := g.table.Length(); rows != 60 || len(sum.ItemDetails) != 60 {
				t.Fatalf("grid shows %d rows, result has %d questions; want 60", rows, len(sum.ItemDetails))
			}
			for i, code := range gridReasons {
				if got, want := g.model.counts[i], sum.Explanation.WeakCounts[code]; got != want {
					t.Errorf("filter %s counts %d, the why panel %d", code, got, want)
				}
				if !strings.Contains(g.checks[i].Text, fmt.Sprintf("(%d)", g.model.counts[i])) {
					t.Errorf("check box %q does not show its count %d", g.checks[i].Text, g.model.counts[i])
				}
			}

			g.checks[0].SetChecked(true) // not retrieved
			if len(g.view) != 12 || sum.Result.Items-sum.Result.Retrieved != 12 {
				t.Fatalf("未检索到 shows %d questions; the result misses %d of %d; want 12", len(g.view),
					sum.Result.Items-sum.Result.Retrieved, sum.Result.Items)
			}
			for _, row := range g.view {
				if d := g.model.detail(row); !d.GoldKnown || d.Rank != 0 {
					t.Errorf("%s in the not-retrieved filter has rank %d", d.ID, d.Rank)
				}
			}
			if want := trf("grid.count", map[string]any{"N": 12, "Total": 60}); g.count.Text != want {
				t.Errorf("count %q, want %q", g.count.Text, want)
			}

			// Searching within the filter by a question's id keeps only it.
			row := g.view[0]
			id := g.model.ids[row]
			g.search.SetText(strings.ToUpper(id))
			if len(g.view) != 1 || g.view[0] != row {
				t.Fatalf("searching %q shows rows %v, want [%d]", id, g.view, row)
			}
			g.search.SetText("")
			if len(g.view) != 12 {
				t.Fatalf("clearing the search shows %d rows, want 12", len(g.view))
			}

			g.table.OnSelected(widget.TableCellID{Row: 0, Col: 1})
			if g.list.Visible() || !g.detail.Visible() {
				t.Fatal("a click did not open the detail")
			}
			it := w.result().Workbook.Items[opened]
			if it.ID != id {
				t.Fatalf("opened item %d (%s), want %s", opened, it.ID, id)
			}
			all := strings.Join(texts(g.detail), "\n")
			for _, set := range []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull} {
				if a := it.Answer(set); a == "" || !strings.Contains(all, a) {
					t.Errorf("detail lacks the %s answer %q", set, a)
				}
			}
			for _, name := range []string{"零上下文回答（下界）", "被测系统回答", "标准指南回答（上界）"} {
				if tc.lang == "zh" && !strings.Contains(all, name) {
					t.Errorf("detail lacks the heading %s", name)
				}
			}
			for _, jr := range sum.Result.Judges {
				if !strings.Contains(all, judgeLabel(jr.Judge)) {
					t.Errorf("detail does not name judge %s", judgeLabel(jr.Judge))
				}
			}
			// Every judgement of the question shows, as its score text.
			n := 0
			for j := range w.result().Workbook.Scores.Values() {
				if j.ItemID == it.ID && j.OK() {
					n++
					if !strings.Contains(all, scoresText([]dataset.Judgement{j})) {
						t.Errorf("detail lacks %s's %s score %v on %s", j.Judge, j.Set, j.Score, j.Dimension)
					}
				}
			}
			if n == 0 {
				t.Fatal("the opened question has no scores")
			}
			if strings.Contains(all, tc.other) || !strings.Contains(all, tc.own) {
				t.Errorf("lexical reasons not shown in %s:\n%s", tc.lang, all)
			}
			if !strings.Contains(all, tr("grid.not_retrieved")) {
				t.Errorf("detail of a not-retrieved question does not say so")
			}
			if !strings.Contains(all, it.Question) {
				t.Errorf("detail lacks the question")
			}
			test.Tap(findButton(t, g.detail, tr("grid.back")))
			if !g.list.Visible() {
				t.Error("back did not return to the grid")
			}
		})
	}
}

// TestQuestionGridSorts: worst first by the overall score by default; a
// header click sorts by its column, a second click flips it.
func TestQuestionGridSorts(t *testing.T) {
	test.NewTempApp(t)
	useLanguage("en")
	m := synthModel(t, 300, 2)
	g := newQuestionGrid(shell{}, nil)
	g.model = nil
	g.refreshModel(m)
	ascending := func(c int, desc bool) {
		t.Helper()
		for i := 1; i < len(g.view); i++ {
			a, b := m.key[c][g.view[i-1]], m.key[c][g.view[i]]
			if desc {
				a, b = b, a
			}
			if a > b {
				t.Fatalf("column %d (desc %v): row %d key %v before %v", c, desc, i, a, b)
			}
		}
	}
	if g.sortCol != g.overallCol() || g.desc {
		t.Fatalf("default sort column %d desc %v, want overall %d ascending", g.sortCol, g.desc, g.overallCol())
	}
	ascending(g.sortCol, false)
	if first := m.val[g.sortCol][g.view[0]]; m.ok[g.sortCol][g.view[0]] && first > m.val[g.sortCol][g.view[len(g.view)-1]] {
		t.Fatal("worst is not first")
	}
	for c := range m.cols {
		h := g.table.CreateHeader()
		g.table.UpdateHeader(widget.TableCellID{Row: -1, Col: c}, h)
		test.Tap(h.(*widget.Button))
		if g.sortCol != c || g.desc {
			t.Fatalf("tap on header %d: sort %d desc %v", c, g.sortCol, g.desc)
		}
		ascending(c, false)
		g.table.UpdateHeader(widget.TableCellID{Row: -1, Col: c}, h)
		if !strings.HasSuffix(h.(*widget.Button).Text, "▲") {
			t.Errorf("header %q does not mark the sort", h.(*widget.Button).Text)
		}
		test.Tap(h.(*widget.Button))
		if !g.desc {
			t.Fatalf("second tap on header %d did not flip", c)
		}
		ascending(c, true)
	}
}

// TestLexicalReasonsTranslated: every sentence the lexical judge writes
// reads in the window's language (stored in both languages today); and a
// run stored before that, with the lexical judge's English sentences,
// still reads in Chinese through the legacy table.
func TestLexicalReasonsTranslated(t *testing.T) {
	t.Setenv("LANGUAGE", os.Getenv("LANGUAGE"))
	inputs := []judge.Inputs{
		{Question: "办理护照需要什么材料？", Answer: "需要身份证和照片 2 张，10 个工作日。", Document: "办理护照需要身份证、照片 2 张。时限 10 个工作日。",
			Reference: "身份证和照片", Contexts: []string{"办理护照需要身份证"}},
		{Question: "What documents do I need?", Answer: "", Document: "", Reference: ""},
		{Question: "？", Answer: "好的好的", Document: "材料"},
		{Question: "passport fee", Answer: "The fee is 120 yuan.", Document: "Fee: 120 yuan. Bring ID.", Contexts: []string{"fee 120"}},
	}
	for _, lang := range []text.Lang{"zh", "en"} {
		useLanguage(lang)
		seen := 0
		for _, name := range []string{"relevance", "specificity", "completeness", "quality", "correctness", "faithfulness", "relevancy"} {
			d, ok := judge.Builtin(name)
			if !ok {
				t.Fatalf("no built-in %s", name)
			}
			for _, in := range inputs {
				out, err := judge.Lexical{}.Score(context.Background(), d, in, 1)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range []string{out.Raw, out.Reason} {
					if s == "" {
						continue
					}
					seen++
					got := judgeReason(s)
					if got == strings.TrimPrefix(s, "lexical ") || strings.Contains(got, "{{") {
						t.Errorf("%s: %q is not translated: %q", lang, s, got)
					}
					if lang == "zh" && strings.Contains(got, " words") {
						t.Errorf("zh: %q still English: %q", s, got)
					}
				}
			}
		}
		if seen < 20 {
			t.Fatalf("only %d reasons seen", seen)
		}
	}
	useLanguage("zh")
	if got := judgeReason("lexical relevance: 3/5 question words in the answer"); got != "相关性：问题的 5 个词中有 3 个出现在回答中" {
		t.Errorf("an old run's lexical reason reads %q", got)
	}
	useLanguage("en")
	if got := judgeReason("The answer is fine."); got != "The answer is fine." {
		t.Errorf("an LLM reason was changed: %q", got)
	}
}

// synthModel is a result of n questions and nj judges on the four default
// dimensions, without running an evaluation.
func synthModel(tb testing.TB, n, nj int) *gridModel {
	tb.Helper()
	res := synthResult(tb, n, nj)
	return newGridModel(res)
}

func synthResult(tb testing.TB, n, nj int) *engine.Result {
	tb.Helper()
	wb := &dataset.Workbook{}
	for g := 0; g < 100; g++ {
		wb.Guides = append(wb.Guides, dataset.Guide{ID: fmt.Sprintf("G%03d", g), Title: fmt.Sprintf("事项 %d", g), Text: "材料"})
	}
	dims := []string{"relevance", "specificity", "completeness", "quality"}
	for i := 0; i < n; i++ {
		g := i % 100
		it := dataset.Item{ID: fmt.Sprintf("q%05d", i), Question: fmt.Sprintf("事项 %d 需要什么材料？（%d）", g, i), DocID: wb.Guides[g].ID, Row: i + 2}
		if i%5 != 0 { // one in five not retrieved
			it.Retrieved = []string{wb.Guides[(g+1)%100].ID, wb.Guides[g].ID}
		}
		for _, set := range []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull} {
			it.SetAnswer(set, "回答")
		}
		wb.Items = append(wb.Items, it)
		for j := 0; j < nj; j++ {
			for k, d := range dims {
				for s, set := range []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull} {
					v := float64((i*7+j*3+k*5)%11) * float64(s+1) / 3
					st := dataset.StatusOK
					if (i+k)%97 == 0 && set == dataset.SetRAG {
						st = dataset.StatusUnscorable
					}
					wb.Scores.Add(dataset.Judgement{ItemID: it.ID, Set: set, Judge: fmt.Sprintf("judge%d", j),
						Dimension: d, Repeat: 1, Score: min(v, 10), Status: st})
				}
			}
		}
	}
	r, err := cube.Evaluate(wb.Items, wb.Scores, nil, cube.Config{TopN: 8, Trim: 0.1, Subset: cube.SubsetRetrieved,
		Dimensions: dims, Weights: cube.WeightsEqual})
	if err != nil {
		tb.Fatal(err)
	}
	return &engine.Result{Workbook: wb, Summary: &result.Summary{Result: r}}
}

// TestQuestionGridScale: at 10,000 questions a refresh builds only the
// cells on screen, and filtering, sorting and updating a cell reuse their
// storage (counted work, never the clock; times are logged only).
func TestQuestionGridScale(t *testing.T) {
	a := test.NewTempApp(t)
	useLanguage("zh")
	res := synthResult(t, 10000, 2)
	g := newQuestionGrid(shell{app: a}, nil)
	win := test.NewWindow(g.object())
	defer win.Close()
	win.Resize(fyne.NewSize(1366, 768))

	start := time.Now()
	g.refreshModel(newGridModel(res))
	win.Canvas().Refresh(g.object())
	built := g.built
	rows, cols := g.table.Length()
	t.Logf("refresh of %d×%d took %v and updated %d cells", rows, cols, time.Since(start), built)
	if rows != 10000 {
		t.Fatalf("%d rows, want 10000", rows)
	}
	if visible := (768/20 + 2) * cols * 3; built == 0 || built > visible {
		t.Errorf("a refresh updated %d cells; the screen holds at most %d: cells are built eagerly", built, visible)
	}
	m := g.model
	if n := m.counts[0]; n != 2000 {
		t.Errorf("%d not retrieved, want 2000", n)
	}
	if allocs := testing.AllocsPerRun(20, func() { g.view = m.filter(g.view, g.order, 1, "") }); allocs != 0 {
		t.Errorf("filtering allocates %v times", allocs)
	}
	if allocs := testing.AllocsPerRun(20, func() { g.view = m.filter(g.view, g.order, 0, "q0999") }); allocs != 0 {
		t.Errorf("searching allocates %v times", allocs)
	}
	if allocs := testing.AllocsPerRun(5, func() { g.order = m.sorted(g.order, 3, false) }); allocs > 1 {
		t.Errorf("sorting allocates %v times", allocs)
	}
	cell := newGridCell()
	if allocs := testing.AllocsPerRun(100, func() { g.updateCell(widget.TableCellID{Row: 5, Col: 3}, cell) }); allocs > 3 {
		t.Errorf("updating a score cell allocates %v times", allocs)
	}
	if want := explain.Classify(explain.Input{Result: res.Summary.Result, Items: res.Workbook.Items, Scores: res.Workbook.Scores}); len(want) != m.rows() {
		t.Errorf("model has %d rows, explain %d", m.rows(), len(want))
	}
}

func benchGrid(b *testing.B) (*questionGrid, *gridModel, *engine.Result) {
	test.NewTempApp(b)
	useLanguage("zh")
	res := synthResult(b, 10000, 2)
	g := newQuestionGrid(shell{}, nil)
	m := newGridModel(res)
	g.refreshModel(m)
	return g, m, res
}

func BenchmarkGridModel10k(b *testing.B) {
	_, _, res := benchGrid(b)
	b.ResetTimer()
	for range b.N {
		newGridModel(res)
	}
}

func BenchmarkGridSort10k(b *testing.B) {
	g, m, _ := benchGrid(b)
	b.ResetTimer()
	for i := range b.N {
		g.order = m.sorted(g.order, i%len(m.cols), i%2 == 1)
	}
}

func BenchmarkGridFilter10k(b *testing.B) {
	g, m, _ := benchGrid(b)
	b.ResetTimer()
	for i := range b.N {
		g.view = m.filter(g.view, g.order, uint8(1+i%4), "")
	}
}

func BenchmarkGridSearch10k(b *testing.B) {
	g, m, _ := benchGrid(b)
	b.ResetTimer()
	for range b.N {
		g.view = m.filter(g.view, g.order, 0, "q0999")
	}
}

func BenchmarkGridRefresh10k(b *testing.B) {
	g, m, _ := benchGrid(b)
	b.ResetTimer()
	for range b.N {
		g.refreshModel(m)
	}
}

// The question grid's model is built with the result index, off the UI
// thread (evaluate.go builds the index in the run's goroutine): at 10,000
// questions it takes 26–44 ms, more than a frame. The UI thread only
// shows it (refreshModel).
func TestGridModelBuiltWithIndex(t *testing.T) {
	test.NewTempApp(t)
	res := synthResult(t, 300, 2)
	idx := newResultIndex(res)
	if idx.grid == nil {
		t.Fatal("the result index carries no grid model: the UI thread would build it")
	}
	want := newGridModel(res)
	if idx.grid.res != res || !reflect.DeepEqual(idx.grid.ids, want.ids) || !reflect.DeepEqual(idx.grid.key, want.key) {
		t.Error("the index's grid model differs from the one the UI thread would build")
	}
}

// TestUnscorableReasonsInBothLanguages: what the grid shows for a judge's
// unscorable outcome — an LLM reply the parser cannot read (no verdict
// line, no YES/NO, an out-of-scale number, an empty reply) and the offline
// judges' own refusals — reads in the window's language: no reason code
// (no_score) or English sentence in the Chinese grid, no Chinese in the
// English one. The replies quoted are Chinese data, allowed in both.
func TestUnscorableReasonsInBothLanguages(t *testing.T) {
	t.Setenv("LANGUAGE", os.Getenv("LANGUAGE"))
	score, _ := judge.Builtin("relevance")
	yesno, _ := judge.Builtin("faithfulness")
	var reasons []string
	for _, c := range []struct {
		raw string
		d   judge.Dimension
	}{{"回答很好。", score}, {"回答很好。", yesno}, {"评分：15", score}, {"", score}, {"评分：3-4", score}} {
		_, ok, reason := judge.Reparse(c.raw, c.d)
		if ok {
			t.Fatalf("%q scored", c.raw)
		}
		reasons = append(reasons, reason)
	}
	for _, s := range []judge.Scorer{judge.Lexical{}, judge.NewSemantic()} {
		out, err := s.Score(context.Background(), score, judge.Inputs{Question: "？", Answer: "好"}, 1)
		if err != nil || out.OK {
			t.Fatalf("%+v %v", out, err)
		}
		out2, _ := s.Score(context.Background(), judge.Dimension{Name: "politeness", Min: 0, Max: 10}, judge.Inputs{Question: "护照", Answer: "好"}, 1)
		reasons = append(reasons, out.Reason, out2.Reason)
	}
	data := "回答很好。评分：15 评分：3-4 politeness"
	for _, lang := range []text.Lang{"zh", "en"} {
		useLanguage(lang)
		for _, r := range reasons {
			got := judgeReason(r)
			if got == "" {
				t.Errorf("%s: %q shows nothing", lang, r)
				continue
			}
			for _, code := range []string{judge.ReasonNoScore, judge.ReasonEmpty, judge.ReasonOutOfRange, judge.ReasonAmbiguous} {
				if strings.Contains(got, code+":") {
					t.Errorf("%s: %q shows the code %s: %q", lang, r, code, got)
				}
			}
			if lang == "zh" {
				if words := glossary.UnexpectedASCII(got, "politeness"); len(words) > 0 {
					t.Errorf("zh: %q shows %q: English %v", r, got, words)
				}
			} else if cjk := unexpectedCJK(got, data); len(cjk) > 0 {
				t.Errorf("en: %q shows %q: Chinese %v", r, got, cjk)
			}
		}
	}
	useLanguage("en")
}
