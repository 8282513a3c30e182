package judge_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/stats"
)

// TestSemanticOnSample: on the bundled sample the semantic judge orders
// the three sets as the method expects (zero < rag < full, on average, per
// dimension), and its scores go with the lexical judge's without copying
// them: Spearman over every (question, set) pair between 0.2 and 0.95, per
// dimension and pooled.
func TestSemanticOnSample(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, sample.FileName)
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	wb, rep, err := ingest.Open(context.Background(), path, ingest.Options{})
	if err != nil || rep.HasErrors() {
		t.Fatalf("sample: %v %+v", err, rep)
	}
	idx := wb.GuideIndex()
	sets := []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull}
	var allSem, allLex, ragSem, ragLex []float64
	for _, d := range judge.CubeDimensions() {
		var sem, lex []float64
		means := map[string]float64{}
		for _, set := range sets {
			var sum float64
			n := 0
			for _, it := range wb.Items {
				i, ok := idx[it.DocID]
				if !ok {
					t.Fatalf("%s: gold guide %q not in the sample", it.ID, it.DocID)
				}
				in := judge.Inputs{Question: it.Question, Answer: it.Answer(set), Document: wb.Guides[i].Text}
				s, err := judge.Semantic{}.Score(context.Background(), d, in, 1)
				if err != nil {
					t.Fatal(err)
				}
				l, err := judge.Lexical{}.Score(context.Background(), d, in, 1)
				if err != nil {
					t.Fatal(err)
				}
				if !s.OK || !l.OK {
					t.Fatalf("%s %s %s unscorable: semantic %q, lexical %q", it.ID, set, d.Name, s.Reason, l.Reason)
				}
				sum += s.Score
				n++
				sem, lex = append(sem, s.Score), append(lex, l.Score)
				if set == dataset.SetRAG {
					ragSem, ragLex = append(ragSem, s.Score), append(ragLex, l.Score)
				}
			}
			means[set] = sum / float64(n)
		}
		rho, ok := stats.Spearman(sem, lex)
		t.Logf("%-12s zero %.2f  rag %.2f  full %.2f  Spearman with lexical %.3f", d.Name, means[dataset.SetZero], means[dataset.SetRAG], means[dataset.SetFull], rho)
		if !(means[dataset.SetZero] < means[dataset.SetRAG] && means[dataset.SetRAG] < means[dataset.SetFull]) {
			t.Errorf("%s: means zero %.2f, rag %.2f, full %.2f are not in the order zero < rag < full", d.Name, means[dataset.SetZero], means[dataset.SetRAG], means[dataset.SetFull])
		}
		if !ok || rho < 0.2 || rho > 0.95 {
			t.Errorf("%s: Spearman with lexical %.3f (ok %v), want 0.2–0.95: related but not a copy", d.Name, rho, ok)
		}
		allSem, allLex = append(allSem, sem...), append(allLex, lex...)
	}
	rho, ok := stats.Spearman(allSem, allLex)
	ragRho, _ := stats.Spearman(ragSem, ragLex)
	t.Logf("pooled over dimensions: Spearman %.3f over %d scores; rag answers only %.3f over %d", rho, len(allSem), ragRho, len(ragSem))
	if !ok || rho < 0.2 || rho > 0.95 {
		t.Errorf("pooled Spearman with lexical %.3f (ok %v), want 0.2–0.95", rho, ok)
	}
}
