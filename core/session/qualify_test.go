package session

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/brief"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/report"
	"cubeworkbench/internal/fakeai"
	"cubeworkbench/internal/testbook"
	"cubeworkbench/prompts"
)

// brokenJudgeProfile is the sample's two offline baselines and one
// OpenAI-compatible judge whose scores ignore the answer (fakeai.Blind:
// a hash of the prompt), so the gold-guide answer is not scored above the
// no-context one (issue 22).
func brokenJudgeProfile(url string) profile.Profile {
	p := profile.Default()
	p.Language = "zh"
	p.Bootstrap = 200
	p.Judges = []profile.Endpoint{
		{Name: "lexical", Lexical: true},
		{Name: "semantic", Semantic: true},
		{Name: "broken", BaseURL: url, Model: "fake-model", Concurrency: 4},
	}
	return p
}

// evaluateWithBrokenJudge runs the bundled sample with the broken judge.
func evaluateWithBrokenJudge(t *testing.T) *Session {
	t.Helper()
	ctx := context.Background()
	srv := fakeai.New(t, fakeai.WithResponder(fakeai.Blind(13, "评分：%d")))
	s, err := Open(ctx, testbook.Sample(t, t.TempDir()), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Evaluate(ctx, brokenJudgeProfile(srv.URL()), EvalOptions{}); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBrokenJudgeNotCounted: the judge that ignores the answer does not
// qualify, is not averaged in, and SUMMARY.json says so with its reasons;
// the verdict stays what the two baselines say (not 可以部署) and the
// headline within 0–100.
func TestBrokenJudgeNotCounted(t *testing.T) {
	s := evaluateWithBrokenJudge(t)
	path := filepath.Join(t.TempDir(), "SUMMARY.json")
	if err := s.WriteSummary(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Verdict struct {
			Code string   `json:"code"`
			Cube *float64 `json:"cube"`
		} `json:"verdict"`
		Judges []struct {
			Judge     string `json:"judge"`
			Qualified bool   `json:"qualified"`
			Reasons   []struct {
				ZH, EN string
			} `json:"qualification_reasons"`
		} `json:"judges"`
		Aggregate struct {
			Cube struct {
				Mean *float64 `json:"mean"`
				N    int      `json:"n"`
			} `json:"cube"`
		} `json:"aggregate"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Verdict.Code == "deployable" {
		t.Errorf("verdict %s: a judge that ignores the answer turned the sample green", sum.Verdict.Code)
	}
	if c := sum.Verdict.Cube; c == nil || *c < 0 || *c > 100 {
		t.Errorf("headline CuBE %v, want within 0–100", c)
	}
	if sum.Aggregate.Cube.N != 2 {
		t.Errorf("%d judges averaged, want the 2 baselines", sum.Aggregate.Cube.N)
	}
	found := false
	for _, j := range sum.Judges {
		switch j.Judge {
		case "broken":
			found = true
			if j.Qualified || len(j.Reasons) == 0 || j.Reasons[0].ZH == "" || j.Reasons[0].EN == "" {
				t.Errorf("broken judge: qualified %v, reasons %+v", j.Qualified, j.Reasons)
			}
		case "lexical", "semantic":
			if !j.Qualified {
				t.Errorf("%s not qualified: %+v", j.Judge, j.Reasons)
			}
		}
	}
	if !found {
		t.Fatal("no judge called broken in SUMMARY.json")
	}
	if !strings.Contains(string(b), `"qualified": false`) {
		t.Error(`SUMMARY.json lacks "qualified": false`)
	}
	// The judge added nothing: the baselines are still all the verdict
	// rests on, and the banner says so; another names the judge left out.
	var baselineAll, notCounted bool
	for _, bn := range s.Result().Summary.Explanation.Banners {
		switch bn.Code {
		case "baseline_judge":
			baselineAll = bn.Evidence["all_judges"] == true
		case "judge_not_counted":
			notCounted = bn.Evidence["judge"] == "broken" && strings.Contains(bn.ZH, "不计入结论")
		}
	}
	if !baselineAll || !notCounted {
		t.Errorf("banners: baseline for all %v, not counted %v", baselineAll, notCounted)
	}
	checkReportAndBrief(t, s)
}

// checkReportAndBrief: the report's Summary sheet and the judge's own sheet
// mark the judge not counted with its reasons, and the brief prints the
// verdict the baselines give, no number for the broken judge and its reasons.
func checkReportAndBrief(t *testing.T, s *Session) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.xlsx")
	if err := s.WriteReport(context.Background(), path, "zh", nil); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	summary, judgeSheet := false, false
	for _, sheet := range f.GetSheetList() {
		rows, _ := f.GetRows(sheet)
		for _, row := range rows {
			line := strings.Join(row, "|")
			if strings.Contains(line, "broken") && strings.Contains(line, "不计入结论：") && strings.Contains(line, "分不清好坏") {
				summary = true
			}
			if strings.Contains(line, "评审资格：不计入结论") {
				judgeSheet = true
			}
			if strings.Contains(line, "结论") && strings.Contains(line, "可以部署") && !strings.Contains(line, "需") {
				t.Errorf("sheet %s says deployable: %s", sheet, line)
			}
		}
	}
	if !summary || !judgeSheet {
		t.Errorf("report: judges table marks broken %v, its sheet says not counted %v", summary, judgeSheet)
	}
	res, p := s.last()
	c := report.BriefContent(res.Summary, p, "zh")
	page, err := brief.Layout(c)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, b := range page.Blocks {
		text = append(text, strings.Join(b.Lines, "")+strings.Join(b.Cells, "|"))
		if b.Kind == "row" && len(b.Cells) > 1 && strings.HasPrefix(b.Cells[0], "broken") && b.Cells[1] != "不计入结论" {
			t.Errorf("brief prints the broken judge's number: %q", b.Cells)
		}
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"需改进后部署", "评审模型 broken 不计入结论（未通过评审资格）", "2 个评审模型的 CuBE 得分标准差"} {
		if !strings.Contains(all, want) {
			t.Errorf("brief lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "可以部署\n") || c.Verdict == "deployable" {
		t.Errorf("brief verdict %s", c.Verdict)
	}
}

// With only the broken judge, no judge qualifies: the verdict is
// undetermined with its reason, never a colour from its numbers.
func TestNoQualifiedJudgeUndetermined(t *testing.T) {
	ctx := context.Background()
	srv := fakeai.New(t, fakeai.WithResponder(fakeai.Blind(13, "评分：%d")))
	s, err := Open(ctx, testbook.Sample(t, t.TempDir()), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := brokenJudgeProfile(srv.URL())
	p.Judges = p.Judges[2:]
	res, err := s.Evaluate(ctx, p, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Summary.Verdict
	if v.Code != "undetermined" || len(v.Reasons) == 0 || !strings.Contains(v.Text.ZH, "无法判定") {
		t.Fatalf("verdict %+v", v)
	}
	e := res.Summary.Explanation
	found := false
	for _, b := range e.Bullets {
		if strings.Contains(b.ZH, v.Reasons[0].Text.ZH) {
			found = true
		}
	}
	if !found {
		t.Errorf("no bullet gives the reason %q: %+v", v.Reasons[0].Text.ZH, e.Bullets)
	}
}

// The offline sample's figures do not depend on the rubric prompts' text:
// the baselines read no prompt and the sample's bound answers are in the
// workbook, so editing every CuBE rubric changes no number.
func TestSampleFiguresIndependentOfPrompts(t *testing.T) {
	ctx := context.Background()
	headline := func(promptDir string) string {
		s, err := Open(ctx, testbook.Sample(t, t.TempDir()), OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p := profile.Default()
		p.Bootstrap = 100
		p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}, {Name: "semantic", Semantic: true}}
		p.PromptDir = promptDir
		res, err := s.Evaluate(ctx, p, EvalOptions{Offline: true})
		if err != nil {
			t.Fatal(err)
		}
		return res.Summary.Headline("en") + " " + string(res.Summary.Verdict.Code)
	}
	dir := t.TempDir()
	if err := prompts.Export(dir); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "cube", "*.md"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if err := os.WriteFile(f, append(b, "\n(edited)\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := headline(""), headline(dir); a != b || !strings.Contains(a, "CuBE 53.") && !strings.Contains(a, "CuBE 57.52") {
		t.Errorf("built-in prompts: %s\nedited prompts:   %s", a, b)
	}
}

// Compare uses the verdict's set of judges: its across-judges CuBE averages
// the two baselines, never the judge that did not qualify.
func TestCompareCountsOnlyQualifiedJudges(t *testing.T) {
	ctx := context.Background()
	srv := fakeai.New(t, fakeai.WithResponder(fakeai.Blind(13, "评分：%d")))
	s, err := Open(ctx, testbook.Sample(t, t.TempDir()), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := brokenJudgeProfile(srv.URL())
	res, err := s.CompareSets(ctx, p, "", "", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Aggregate.Cube; d.Judges != 2 || d.A == nil {
		t.Fatalf("across judges: %d judges, A %v", d.Judges, d.A)
	}
	if c := s.Result().Summary.Aggregate.Cube.Mean; c == nil || math.Abs(*res.Aggregate.Cube.A-*c) > 1e-9 {
		t.Errorf("Compare's CuBE of A %v, the verdict's %v", *res.Aggregate.Cube.A, c)
	}
}
