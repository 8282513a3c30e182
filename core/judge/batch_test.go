package judge

import (
	"context"
	"reflect"
	"testing"

	"cubeworkbench/core/dimension"
)

// TestScoreAllEqualsScore: the offline judges' ScoreAll, which derives the
// answer once and each guide once across calls, gives Score's outcome on
// every built-in dimension, field by field, for Chinese and English
// answers, an empty answer, a missing guide and retrieved passages; and a
// second item over the same guide (served from the memo) too.
func TestScoreAllEqualsScore(t *testing.T) {
	var dims []Dimension
	for _, b := range dimension.All() {
		d, ok := Builtin(b.Name)
		if !ok {
			t.Fatalf("no rubric for built-in dimension %s", b.Name)
		}
		dims = append(dims, d)
	}
	enDoc := "Bring your identity card and two photos. The permit is issued within five working days. It is free of charge."
	inputs := []Inputs{
		{Question: semQ, Answer: semPart, Document: semDoc, Reference: semPart, Contexts: []string{semDoc, "其他指南。"}},
		{Question: semQ, Answer: semRepeated, Document: semDoc, Reference: semVague},
		{Question: semQ, Answer: semVague, Document: semDoc},
		{Question: semQ, Answer: semUnrelated, Document: semDoc, Contexts: []string{semDoc}},
		{Question: semQ, Answer: "", Document: semDoc},
		{Question: semQ, Answer: semPart},
		{Question: "How long does the permit take?", Answer: "Five working days; bring your identity card. Bring your identity card.", Document: enDoc,
			Reference: "Five working days.", Contexts: []string{enDoc}},
	}
	ctx := context.Background()
	for _, pair := range []struct {
		name    string
		zero    Scorer
		batcher Batcher
	}{{"lexical", Lexical{}, NewLexical()}, {"semantic", Semantic{}, NewSemantic()}} {
		for round := range 2 { // the second round reads every guide from the memo
			for i, in := range inputs {
				got, err := pair.batcher.ScoreAll(ctx, dims, in)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(dims) {
					t.Fatalf("%s: %d outcomes for %d dimensions", pair.name, len(got), len(dims))
				}
				for k, d := range dims {
					want, err := pair.zero.Score(ctx, d, in, 1)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got[k], want) {
						t.Errorf("%s round %d input %d %s:\n ScoreAll %+v\n Score    %+v", pair.name, round, i, d.Name, got[k], want)
					}
					if one, _ := pair.batcher.Score(ctx, d, in, 1); !reflect.DeepEqual(one, want) {
						t.Errorf("%s round %d input %d %s: Score with a memo %+v, without %+v", pair.name, round, i, d.Name, one, want)
					}
				}
			}
		}
	}
}
