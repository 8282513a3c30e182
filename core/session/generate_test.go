package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/generate"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/profile"
	"cubeworkbench/internal/fakeai"
)

// generatorProfile names the fake as generator and as the system under
// test, with the offline lexical judge.
func generatorProfile(url string) profile.Profile {
	p := profile.Default()
	p.Language = "zh"
	p.Bootstrap = 50
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}}
	p.Generator = &profile.Endpoint{Name: "gen", BaseURL: url, Model: "fake-gen", MaxRetries: -1}
	p.Target = &profile.Target{Kind: "openai", BaseURL: url, Model: "fake-rag"}
	return p
}

// The officer's path on the sample's guides: generate, filter, review
// (accept 20, one of them edited; reject one), save; the saved workbook
// re-opens with the same questions, types and aspects, and evaluates.
func TestGenerateReviewSaveEvaluate(t *testing.T) {
	ctx := context.Background()
	srv := fakeai.New(t, fakeai.WithResponder(fakeai.Generator))
	dir := t.TempDir()
	path := filepath.Join(dir, sample.FileName)
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, path, OpenOptions{AllGuides: true})
	if err != nil {
		t.Fatal(err)
	}
	p := generatorProfile(srv.URL())
	ts, err := s.Generate(ctx, p, GenerateOptions{
		Select: generate.Selection{Sample: 30, Seed: 5},
		Spec:   generate.Spec{PerGuide: 1, Aspects: []string{"materials", "time_limit", "fees"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Candidates) != 30 || len(ts.Problems) != 0 || len(ts.Guides) != 30 {
		t.Fatalf("%d candidates from %d guides, problems %v", len(ts.Candidates), len(ts.Guides), ts.Problems)
	}
	calls := len(srv.Chats())
	if calls != 60 { // 30 questions + 30 critic calls
		t.Errorf("%d calls, want 60", calls)
	}
	byType, byAspect := ts.Counts()
	if len(byType) != 4 || byAspect["materials"] == 0 {
		t.Errorf("counts by type %v, by aspect %v", byType, byAspect)
	}
	for _, c := range ts.Candidates {
		if c.Decision != generate.Pending || c.Origin != generate.OriginGenerated || c.Model == "" || c.QueryType == "" {
			t.Fatalf("candidate %+v", c)
		}
	}
	// review: accept 20, edit the first accepted, reject one
	accepted := 0
	for i := range ts.Candidates {
		c := &ts.Candidates[i]
		switch {
		case accepted < 20:
			c.Decision = generate.Accepted
			accepted++
		default:
			c.Decision = generate.Rejected
		}
	}
	ts.Candidates[0].Edit("我想问一下，" + ts.Candidates[0].Question)
	out := filepath.Join(dir, "qa.xlsx")
	n, err := s.SaveTestSet(out, ts, "zh")
	if err != nil || n != 20 {
		t.Fatalf("saved %d, %v", n, err)
	}
	wb, rep, err := ingest.Open(ctx, out, ingest.Options{})
	if err != nil || rep.HasErrors() {
		t.Fatalf("reopen: %v %v", err, rep)
	}
	if len(wb.Items) != 20 || len(wb.Guides) != len(s.Workbook.Guides) {
		t.Fatalf("reopened %d questions, %d guides", len(wb.Items), len(wb.Guides))
	}
	for i, it := range wb.Items {
		c := ts.Candidates[i]
		if it.ID != c.ID || it.Question != c.Question || it.DocID != c.GuideID || it.QueryType != c.QueryType {
			t.Errorf("row %d: %+v, want %+v", i, it, c)
		}
	}
	if wb.Items[0].Question[:len("我想问一下")] != "我想问一下" {
		t.Errorf("the edit was not saved: %q", wb.Items[0].Question)
	}
	// and it evaluates: the target answers, the generator writes the bounds
	again, err := Open(ctx, out, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := again.Evaluate(ctx, p, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Result == nil || res.Summary.Items != 20 {
		t.Fatalf("evaluation of the reviewed set: %+v", res.Summary.Result)
	}
	// The same set again comes from the run store: no new calls.
	before := len(srv.Chats())
	if _, err := s.Generate(ctx, p, GenerateOptions{Select: generate.Selection{Sample: 30, Seed: 5},
		Spec: generate.Spec{PerGuide: 1, Aspects: []string{"materials", "time_limit", "fees"}}}); err != nil {
		t.Fatal(err)
	}
	if after := len(srv.Chats()); after != before {
		t.Errorf("generating the same set again made %d calls", after-before)
	}
}
