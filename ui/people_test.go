package ui

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/generate"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/humancheck"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/stats"
	"cubeworkbench/internal/fakeai"
)

// The officer's path in the window: from the sample's guides a fake
// generator writes 21 questions; the review screen edits and accepts one,
// rejects one and accepts the rest in bulk (20 accepted); the set is saved,
// opens as the workbook and evaluates with the fake as the system.
func TestReviewScreenAcceptEditReject(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithResponder(fakeai.Generator))
	p := profile.Default()
	p.Bootstrap = 50
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}}
	p.Generator = &profile.Endpoint{Name: "gen", BaseURL: srv.URL(), Model: "fake-gen", MaxRetries: -1}
	p.Target = &profile.Target{Kind: "openai", BaseURL: srv.URL(), Model: "fake-rag"}
	w, loop := newTestWindow(t, "zh", &p)
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil })

	r := w.people.review
	w.tabs.Select(w.people.item)
	r.mode.SetSelected(r.mode.Options[2])
	r.sample.SetText("21")
	r.aspects.SetSelected([]string{"申请材料", "办理时限"})
	test.Tap(r.run)
	loop.runUntil(t, time.Minute, "the questions", func() bool { return r.set != nil && !r.running })
	if n := len(r.set.Candidates); n != 21 {
		t.Fatalf("%d candidates, want 21: %s", n, r.status.Text)
	}
	for _, c := range r.set.Candidates {
		if c.Flagged() {
			t.Fatalf("the fake's question %q is flagged: %v", c.Question, c.Flags)
		}
	}
	before := len(srv.Chats())

	r.list.Select(0)
	edited := "我想先问一下，" + r.set.Candidates[0].Question
	r.question.SetText(edited)
	test.Tap(r.edit)
	if c := r.set.Candidates[0]; c.Question != edited || c.Origin != generate.OriginEdited || c.Original == "" {
		t.Fatalf("after the edit: %+v", c)
	}
	test.Tap(r.accept)
	if r.selected != 1 {
		t.Fatalf("accept did not move on: selected %d", r.selected)
	}
	rejected := r.set.Candidates[1].Question
	test.Tap(r.reject)
	test.Tap(r.bulk[0]) // accept all that passed the filters
	if got := r.accepted(); got != 20 {
		t.Fatalf("%d accepted, want 20", got)
	}
	if !strings.Contains(r.counts.Text, "已采用 20 个，共 21 个") || !strings.Contains(r.counts.Text, "申请材料") {
		t.Errorf("counts: %q", r.counts.Text)
	}
	if after := len(srv.Chats()); after != before {
		t.Errorf("reviewing called the endpoint %d times", after-before)
	}

	out := filepath.Join(t.TempDir(), "问题集.xlsx")
	r.saveTo(out)
	loop.runUntil(t, time.Minute, "the saved set to open", func() bool {
		return w.sess != nil && w.path == out && w.tabs.Selected() == w.eval.item
	})
	wb := w.workbook()
	if len(wb.Items) != 20 || wb.Items[0].Question != edited {
		t.Fatalf("reopened %d questions, first %q", len(wb.Items), wb.Items[0].Question)
	}
	for _, it := range wb.Items {
		if it.Question == rejected {
			t.Fatalf("the rejected question was saved")
		}
	}
	test.Tap(w.eval.start)
	loop.runUntil(t, 3*time.Minute, "the evaluation", func() bool { return !w.eval.running && w.index != nil })
	if res := w.result(); res == nil || res.Summary.Result == nil || res.Summary.Items != 20 {
		t.Fatalf("evaluation of the reviewed set: %v", w.eval.status.Text)
	}
}

// blindTexts is every text the rating screen shows, entries' contents too.
func blindTexts(o fyne.CanvasObject) []string {
	out := widgetTexts(o)
	var visit func(o fyne.CanvasObject)
	visit = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				visit(c)
			}
		case *widget.Entry:
			out = append(out, v.Text)
		}
	}
	visit(o)
	return out
}

// The sample's 120 human ratings show as the Table-5 comparison; a rater
// then rates 10 drawn answers blind, by keyboard, and the agreement the
// window shows is core/stats' on the same ratings; a new window on the
// same workbook finds the ratings again.
func TestSpotCheckRatesTenAnswers(t *testing.T) {
	w, loop := newTestWindow(t, "zh", nil)
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil })
	test.Tap(w.eval.start)
	loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running && w.index != nil })

	s := w.people.spot
	w.tabs.Select(w.people.item)
	w.people.inner.SelectIndex(1)
	sc := s.shown
	if sc == nil || sc.Ratings != 120 || sc.Weighted {
		t.Fatalf("the sample's human sheet is not shown: %+v", sc)
	}
	judges := s.judges()
	if len(judges) != 2 {
		t.Fatalf("judges %v", judges)
	}
	for _, row := range sc.Table {
		if row.Key == humancheck.RowNormalized || row.Key == humancheck.RowCube {
			continue
		}
		if got := s.cells["t5|"+row.Key+"|people"].Text; got != s.meanSD(row.Human) || row.Human.Mean == nil {
			t.Errorf("Table 5 %s people: %q", row.Key, got)
		}
		for _, j := range judges {
			if s.cells["t5|"+row.Key+"|"+j] == nil || row.Judges[j].Mean == nil {
				t.Errorf("Table 5 %s %s missing", row.Key, j)
			}
		}
	}

	s.size.SetText("10")
	test.Tap(s.draw)
	s.rater.SetText("甲")
	test.Tap(s.rate)
	rs := s.rating
	if rs == nil || len(rs.cards) != 10 {
		t.Fatalf("rating screen: %+v (%s)", rs, s.status.Text)
	}
	// blind: no set, no judge, no score of theirs on the screen
	forbidden := append([]string{"rag", "zero", "full", "lexical", "semantic", "评分：", "Score:"}, judges...)
	for _, id := range []glossary.ID{glossary.SetRAG, glossary.SetZero, glossary.SetFull, glossary.SetZeroShort, glossary.SetFullShort, glossary.Judge} {
		forbidden = append(forbidden, glossary.Term(id, "zh"))
	}
	c := w.win.Canvas()
	dims := rs.dims
	for i := range rs.cards {
		for _, text := range blindTexts(rs.content) {
			for _, f := range forbidden {
				if strings.Contains(text, f) {
					t.Fatalf("the blind screen shows %q in %q", f, text)
				}
			}
		}
		for k := range dims {
			if c.Focused() != rs.scores[k] {
				t.Fatalf("answer %d dimension %d: the focus is not on its entry", i, k)
			}
			for _, ch := range fmt.Sprint((3*i + 2*k) % 11) { // typed into whatever has the focus
				c.Focused().TypedRune(ch)
			}
			c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		}
	}
	if !strings.Contains(rs.message.Text, "最后一个") {
		t.Fatalf("after the last answer: %q", rs.message.Text)
	}
	test.Tap(findButton(t, rs.content, "完成"))
	loop.runUntil(t, time.Minute, "the agreement", func() bool { return s.shown != nil && s.shown.Weighted })
	sc = s.shown
	if sc.Answers != 10 || sc.Ratings != 10*len(dims) {
		t.Fatalf("agreement over %d answers, %d ratings", sc.Answers, sc.Ratings)
	}

	// The same figures from core/stats on the same ratings.
	sess := w.sess
	design, err := sess.SpotCheckDesign(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mine, err := sess.RatingsBy(context.Background(), "甲")
	if err != nil {
		t.Fatal(err)
	}
	scores := w.result().Workbook.Scores
	for _, judge := range judges {
		for _, dim := range dims {
			var jx, hx, wt []float64
			for seq, byDim := range mine {
				task, _ := design.Task(seq)
				if v, ok := judgeMean(scores, judge, task.ItemID, task.Set, dim); ok {
					jx, hx, wt = append(jx, v), append(hx, byDim[dim]), append(wt, task.Weight())
				}
			}
			a, ok := sc.For(judge, dim)
			if !ok || a.N != len(jx) {
				t.Fatalf("%s %s: %+v, want %d pairs", judge, dim, a, len(jx))
			}
			diffs := make([]float64, len(jx))
			for i := range jx {
				diffs[i] = math.Abs(jx[i] - hx[i])
			}
			wantA, okA := stats.PairAlpha(jx, hx)
			wantR, okR := stats.Spearman(jx, hx)
			wantM, _ := stats.WeightedMean(diffs, wt)
			same := func(got *float64, want float64, ok bool) bool {
				return !ok && got == nil || ok && got != nil && math.Abs(*got-want) < 1e-12
			}
			if !same(a.Alpha.Value, wantA, okA) || !same(a.Spearman.Value, wantR, okR) || !same(a.MAD.Value, wantM, true) {
				t.Errorf("%s %s: α %v ρ %v MAD %v; core/stats %v %v %v", judge, dim, a.Alpha.Value, a.Spearman.Value, *a.MAD.Value, wantA, wantR, wantM)
			}
			// The window shows those figures: the label is the value that
			// equals core/stats' (to 1e-12; the sums' order differs, so a
			// value on a rounding edge is compared as the window formats it).
			key := "ag|" + judge + "|" + dim
			if got := s.cells[key+"|mad"].Text; !strings.HasPrefix(got, fmt.Sprintf("%.2f ", *a.MAD.Value)) {
				t.Errorf("%s: the window shows MAD %q, the figure is %.4f", key, got, *a.MAD.Value)
			}
			if okA && !strings.HasPrefix(s.cells[key+"|alpha"].Text, fmt.Sprintf("%.2f ", *a.Alpha.Value)) {
				t.Errorf("%s: the window shows α %q, the figure is %.4f", key, s.cells[key+"|alpha"].Text, *a.Alpha.Value)
			}
		}
	}

	// A restart: a new window opens the same workbook and finds the ratings.
	w2, loop2 := newTestWindow(t, "zh", nil)
	w2.loadWorkbook(path, false)
	loop2.runUntil(t, 5*time.Minute, "the restored evaluation", func() bool {
		return w2.people.spot.shown != nil && w2.people.spot.shown.Weighted
	})
	if got := w2.people.spot.shown; got.Answers != 10 || got.Ratings != 10*len(dims) {
		t.Errorf("after the restart: %d answers, %d ratings", got.Answers, got.Ratings)
	}
	// and the rater resumes with their scores in place
	w2.people.spot.rater.SetText("甲")
	test.Tap(w2.people.spot.rate)
	rs2 := w2.people.spot.rating
	if rs2 == nil || len(rs2.cards) != 10 {
		t.Fatalf("resumed rating screen: %+v", rs2)
	}
	last := len(rs2.cards) - 1
	if want := fmt.Sprint((3*last + 2*(len(dims)-1)) % 11); rs2.pos != last || rs2.scores[len(dims)-1].Text != want {
		t.Errorf("resumed at answer %d with %q, want answer %d with %q", rs2.pos, rs2.scores[len(dims)-1].Text, last, want)
	}
	// a new draw over a rated sample asks first
	test.Tap(w2.people.spot.draw)
	if d, _ := w2.sess.SpotCheckDesign(context.Background()); d == nil || d.ID != design.ID {
		t.Error("a new draw replaced the rated sample without asking")
	}
}

func judgeMean(scores dataset.Scores, judge, item, set, dim string) (float64, bool) {
	var xs []float64
	for j := range scores.Values() {
		if j.Judge == judge && j.ItemID == item && j.Set == set && j.Dimension == dim && j.OK() {
			xs = append(xs, j.Score)
		}
	}
	return stats.Mean(xs)
}
