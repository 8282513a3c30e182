package ui

import (
	"strings"
	"testing"
	"time"

	"cubeworkbench/core/profile"
	"cubeworkbench/internal/fakeai"
)

// The sample with the two offline baselines and a judge whose scores
// ignore the answer (fakeai.Blind): the window's verdict is not 可以部署,
// its headline stays within 0–100, a banner names the judge not counted
// with its reasons, its card says so and the side-by-side table marks it.
func TestBrokenJudgeInTheWindow(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithResponder(fakeai.Blind(13, "评分：%d")))
	p := profile.Default()
	p.Bootstrap = 200
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}, {Name: "semantic", Semantic: true},
		{Name: "broken", BaseURL: srv.URL(), Model: "fake", Concurrency: 4, Repeats: 1, MaxRetries: 1}}
	w, loop := newTestWindow(t, "zh", &p)
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, 30*time.Second, "the sample", func() bool { return w.workbook() != nil })
	start := w.eval.start
	if start.Disabled() {
		t.Fatalf("Evaluate disabled: %q", w.eval.estimate.Text)
	}
	start.OnTapped()
	loop.runUntil(t, 120*time.Second, "the evaluation", func() bool { return !w.eval.running })
	if w.result() == nil {
		t.Fatalf("no result: %q", w.eval.status.Text)
	}
	r := w.results
	if strings.Contains(r.verdict.Text, "可以部署") && !strings.Contains(r.verdict.Text, "需") {
		t.Errorf("verdict %q", r.verdict.Text)
	}
	if !strings.Contains(r.cubeValue.Text, "CuBE 57.52") {
		t.Errorf("headline %q, want the baselines' 57.52", r.cubeValue.Text)
	}
	banners := strings.Join(labels(r.banners), "\n")
	if !strings.Contains(banners, "评审模型 broken 不计入结论（未通过评审资格）") || !strings.Contains(banners, "分不清好坏") {
		t.Errorf("banners:\n%s", banners)
	}
	r.judge.SetSelected("broken")
	if q := r.qualify.Text; !strings.Contains(q, "评审资格：不计入结论") || !strings.Contains(q, "✗ ") {
		t.Errorf("broken judge's card: %q", q)
	}
	r.judge.SetSelected(judgeLabel("lexical")) // 词汇基线评审
	if q := r.qualify.Text; !strings.Contains(q, "评审资格：计入结论") {
		t.Errorf("lexical judge's card: %q", q)
	}
	if side := strings.Join(labels(r.compare), "|"); !strings.Contains(side, "broken（不计入结论）") {
		t.Errorf("judges side by side: %s", side)
	}
}
