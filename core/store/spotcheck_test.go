package store

import (
	"context"
	"testing"
)

// An older store (no spot-check tables) gains them on open, keeps what it
// had, and ratings survive closing and reopening the file.
func TestSpotCheckTablesOnOldStoreAndReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if err := s.PutAnswer(ctx, Answer{ItemID: "q1", Set: "rag", Source: "t", Text: "旧回答"}); err != nil {
		t.Fatal(err)
	}
	// make it look like a store written before the spot check existed
	for _, stmt := range []string{`DROP TABLE human_ratings`, `DROP TABLE spot_checks`} {
		if _, err := s.w.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatalf("reopen old store: %v", err)
	}
	if _, ok, err := s.LatestSpotCheck(ctx); err != nil || ok {
		t.Fatalf("old store: spot check %v %v, want none", ok, err)
	}
	answers, err := s.Answers(ctx)
	if err != nil || len(answers) != 1 || answers[0].Text != "旧回答" {
		t.Fatalf("old answers %v %v", answers, err)
	}
	id, err := s.PutSpotCheck(ctx, `{"n":2}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []HumanRating{
		{CheckID: id, Seq: 1, Rater: "甲", ItemID: "q1", Set: "rag", Dimension: "relevance", Score: 3},
		{CheckID: id, Seq: 1, Rater: "甲", ItemID: "q1", Set: "rag", Dimension: "relevance", Score: 7}, // corrected
		{CheckID: id, Seq: 2, Rater: "乙", ItemID: "q2", Set: "zero", Dimension: "quality", Score: 0},
	} {
		if err := s.PutHumanRating(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, ok, err := s.LatestSpotCheck(ctx)
	if err != nil || !ok || c.ID != id || c.Design != `{"n":2}` {
		t.Fatalf("spot check after reopen: %+v %v %v", c, ok, err)
	}
	got, err := s.HumanRatings(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Score != 7 || got[0].Rater != "甲" || got[1].Set != "zero" || got[1].Score != 0 {
		t.Fatalf("ratings after reopen: %+v", got)
	}
}
