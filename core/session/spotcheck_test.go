package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/humancheck"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/report"
)

// sampleSession is the bundled sample opened from a temporary copy and
// evaluated offline by both baseline judges.
func sampleSession(t *testing.T) (*Session, profile.Profile) {
	t.Helper()
	path := filepath.Join(t.TempDir(), sample.FileName)
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(context.Background(), path, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := profile.Default()
	p.Language = "zh"
	p.Bootstrap = 50
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}, {Name: "semantic", Semantic: true}}
	if _, err := s.Evaluate(context.Background(), p, EvalOptions{Offline: true}); err != nil {
		t.Fatal(err)
	}
	return s, p
}

// The sample's 120 loaded human ratings give the Table-5-style comparison
// in the summary and in the report (its own sheet and the Summary's line).
func TestSampleHumanRatingsTable5(t *testing.T) {
	s, _ := sampleSession(t)
	sc := s.Result().Summary.SpotCheck
	if sc == nil || sc.Ratings != 120 || len(sc.Raters) != 2 || sc.Weighted {
		t.Fatalf("spot check from the human sheet: %+v", sc)
	}
	var dims int
	for _, row := range sc.Table {
		if row.Human.Mean != nil && row.Key != humancheck.RowOverall {
			dims++
			for _, j := range []string{"lexical", "semantic"} {
				if row.Judges[j].Mean == nil {
					t.Errorf("%s: no %s mean", row.Key, j)
				}
			}
		}
	}
	if dims == 0 || sc.Trust == "" {
		t.Fatalf("no dimension compared, or no judge to trust: %+v", sc.Table)
	}
	// Every judge agrees with people less than 0.667: a banner says so.
	var doubt string
	for _, b := range s.Result().Summary.Explanation.Banners {
		if b.Code == BannerSpotCheckDoubt {
			doubt = b.ZH
		}
	}
	if !strings.Contains(doubt, "请勿单凭评审模型的评分下结论") {
		t.Errorf("no spot-check banner: %q", doubt)
	}
	path := filepath.Join(t.TempDir(), "report.xlsx")
	if err := s.WriteReport(context.Background(), path, "zh", nil); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(report.SheetSpotCheck)
	if err != nil {
		t.Fatalf("no spot-check sheet: %v", err)
	}
	text := joinRows(rows)
	for _, want := range []string{"CuBE 论文表 5", "人工", "lexical", "semantic", "克里彭多夫 α 一致性系数", "个回答经 2 名人员抽检"} {
		if !strings.Contains(text, want) {
			t.Errorf("spot-check sheet lacks %q", want)
		}
	}
	summary, _ := f.GetRows(report.SheetSummary)
	if !strings.Contains(joinRows(summary), "个回答经 2 名人员抽检，评审模型与人工评分一致性 α = ") {
		t.Error("the Summary page lacks the spot-check line")
	}
}

func joinRows(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(r, "\t"))
		b.WriteByte('\n')
	}
	return b.String()
}

// Draw, rate, reopen: the ratings are in the run store, a new session on
// the same files finds them, the agreement figures use them, and the
// report's human sheet carries the system answers' ratings.
func TestSpotCheckRatingsSurviveReopen(t *testing.T) {
	ctx := context.Background()
	s, p := sampleSession(t)
	d, err := s.DrawSpotCheck(ctx, humancheck.DrawOptions{N: 12, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	cards, err := s.SpotCards(ctx)
	if err != nil || len(cards) != 12 {
		t.Fatalf("%d cards, %v", len(cards), err)
	}
	dims := s.SpotDimensions()
	for i, c := range cards {
		for k, dim := range dims {
			if err := s.Rate(ctx, c.Seq, "甲", dim, float64((i+k)%11)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Rate(ctx, cards[0].Seq, "", dims[0], 5); err == nil {
		t.Error("a rating without a rater was stored")
	}
	if err := s.Rate(ctx, cards[0].Seq, "甲", dims[0], 11); err == nil {
		t.Error("a rating of 11 was stored")
	}

	again, err := Open(ctx, s.Path, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := again.Evaluate(ctx, p, EvalOptions{Offline: true}); err != nil {
		t.Fatal(err)
	}
	mine, err := again.RatingsBy(ctx, "甲")
	if err != nil || len(mine) != 12 {
		t.Fatalf("after reopening: %d answers rated, %v", len(mine), err)
	}
	sc := again.Result().Summary.SpotCheck
	if sc == nil || !sc.Weighted || sc.Ratings != 12*len(dims) || sc.Design == nil || sc.Design.ID != d.ID {
		t.Fatalf("agreement after reopening: %+v", sc)
	}
	rag := 0
	for _, task := range d.Tasks {
		if task.Set == "rag" {
			rag++
		}
	}
	path := filepath.Join(t.TempDir(), "r.xlsx")
	if err := again.WriteReport(ctx, path, "en", nil); err != nil {
		t.Fatal(err)
	}
	wb, _, err := ingest.Open(ctx, path, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := 120 + rag*len(dims); len(wb.Human) != want {
		t.Errorf("report's human sheet: %d ratings, want %d (120 loaded + %d system answers × %d dimensions)", len(wb.Human), want, rag, len(dims))
	}
}
