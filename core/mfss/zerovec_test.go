package mfss

import (
	"context"
	"math"
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
)

// Texts for the zero-vector cases: the table embedder (mfss_test.go) knows
// every text; zv gives the unknown ones a zero vector, as a word-vector
// model does for words it has never seen.
const (
	zvAnswer3 = "Alpha beta. Gamma delta. Epsilon zeta."
	zvAnswer2 = "Alpha beta. Gamma delta."
	zvRef     = "Alpha beta gamma delta epsilon zeta."
	zvS1      = "Alpha beta."
	zvS2      = "Gamma delta."
	zvS3      = "Epsilon zeta."
)

func zvTable(zero ...string) tableEmbedder {
	t := tableEmbedder{
		zvAnswer3: {1, 0, 0}, zvAnswer2: {1, 0, 0}, zvRef: {0.8, 0.6, 0},
		zvS1: {1, 0, 0}, zvS2: {0, 1, 0}, zvS3: {0.6, 0.8, 0},
	}
	for _, z := range zero {
		t[z] = []float32{0, 0, 0}
	}
	return t
}

func TestZeroVectors(t *testing.T) {
	ctx := context.Background()
	cfg := DefaultConfig()
	// The unknown middle sentence is left out: coherence is cos(S1, S3) =
	// 0.6, not (0 + 0)/2 = 0 as when its zero vector counted.
	f, err := Score(ctx, zvTable(zvS2), zvAnswer3, zvRef, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.Coherence-0.6) > 1e-6 || len(f.Missing) != 0 || f.ZeroVectors != 1 {
		t.Errorf("middle sentence unknown: coherence %v missing %v zero %d, want 0.6, none, 1", f.Coherence, f.Missing, f.ZeroVectors)
	}
	// Two sentences, one unknown: coherence cannot be measured.
	f, _ = Score(ctx, zvTable(zvS2), zvAnswer2, zvRef, cfg)
	if f.Has("coherence") || f.Coherence != 0 {
		t.Errorf("one of two sentences unknown: coherence %v missing %v, want missing", f.Coherence, f.Missing)
	}
	// Unknown reference: accuracy is missing and the total is the weighted
	// mean of the five other factors.
	f, _ = Score(ctx, zvTable(zvRef), zvAnswer3, zvRef, cfg)
	if f.Has("accuracy") || f.Accuracy != 0 {
		t.Errorf("reference unknown: accuracy %v missing %v, want missing", f.Accuracy, f.Missing)
	}
	want := (0.20*f.FactualConsistency + 0.15*f.Readability + 0.15*f.Coherence + 0.15*f.Rouge + 0.10*f.Conciseness) / 0.75
	if math.Abs(f.Total-want) > 1e-9 {
		t.Errorf("total %v, want %v (renormalised without accuracy)", f.Total, want)
	}
	// A non-finite vector is no vector either; NaN never reaches a factor.
	nan := zvTable()
	nan[zvAnswer3] = []float32{float32(math.NaN()), 0, 0}
	f, _ = Score(ctx, nan, zvAnswer3, zvRef, cfg)
	if f.Has("accuracy") || math.IsNaN(f.Total) || math.IsNaN(f.Accuracy) {
		t.Errorf("NaN vector: %+v", f)
	}
	// Vectors of different dimensions are an error, not a cosine of 0.
	bad := zvTable()
	bad[zvRef] = []float32{1, 0}
	if _, err := Score(ctx, bad, zvAnswer3, zvRef, cfg); err == nil || !strings.Contains(err.Error(), "dimensions") {
		t.Errorf("mixed dimensions: err %v", err)
	}
}

func TestEvaluateCountsZeroVectors(t *testing.T) {
	items := []dataset.Item{
		{ID: "1", Reference: zvRef, Answers: map[string]string{"a": zvAnswer3, "b": zvAnswer2}},
		{ID: "2", Reference: zvRef, Answers: map[string]string{"a": zvS1}},
	}
	res, err := Evaluate(context.Background(), zvTable(zvS2, zvS1), items, []string{"a", "b"}, DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	z := res.ZeroVectors
	// Item 1 a: S1, S2 left out, one sentence remains → coherence missing.
	// Item 1 b: both sentences unknown → missing. Item 2 a: one sentence,
	// coherence 1 by definition; the answer text S1 itself is unknown →
	// accuracy missing.
	if z.Texts != 2 || z.SentencesLeftOut != 4 || z.Touched["coherence"]["a"] != 1 || z.Touched["coherence"]["b"] != 1 ||
		z.CoherenceMissing["a"] != 1 || z.CoherenceMissing["b"] != 1 || z.Touched["accuracy"]["a"] != 1 || len(z.Examples) != 2 {
		t.Errorf("zero vectors %+v", z)
	}
	// System a's coherence is the mean over the one answer that has it
	// (item 2, 1 by definition); b has none, so it is missing, not 0.
	if a := res.Systems["a"]; a.Coherence != 1 || !a.Has("coherence") || a.ZeroVectors != 3 {
		t.Errorf("system a mean %+v", a)
	}
	if b := res.Systems["b"]; b.Has("coherence") {
		t.Errorf("system b mean %+v: coherence should be missing", b)
	}
	msg := z.Message()
	if !strings.Contains(msg.EN, "zero vector for 2 texts") || !strings.Contains(msg.ZH, "零向量") {
		t.Errorf("message %+v", msg)
	}
	if (ZeroVectors{}).Message() != (Text{}) {
		t.Error("message without zero vectors")
	}
}
