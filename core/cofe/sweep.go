package cofe

import (
	"context"
	"fmt"

	"cubeworkbench/core/chunk"
	"cubeworkbench/core/dataset"
)

// SweepResult is one row per chunker × retriever, chunkers outermost: the
// data of the chunk-size figure.
type SweepResult struct {
	Rows []Result `json:"rows"`
}

// Sweep evaluates every chunker with every retriever; cfg gives K, RecallN,
// the embedder, the reranker and the workers (its Chunker and Retriever are
// ignored). Coverage is computed once per chunker. progress counts queries
// over the whole sweep.
func Sweep(ctx context.Context, docs []Doc, items []dataset.Item, chunkers []chunk.Chunker, retrievers []string,
	cfg Config, progress func(done, total int)) (*SweepResult, error) {
	cfg = cfg.normalized()
	total := len(chunkers) * len(retrievers) * len(items)
	out := &SweepResult{}
	for ci, c := range chunkers {
		chunks := Chunks(c, docs)
		corpus := CorpusGold(chunks, items)
		for ri, name := range retrievers {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			run := cfg
			run.Chunker, run.Retriever = c, name
			base := (ci*len(retrievers) + ri) * len(items)
			var p func(int, int)
			if progress != nil {
				p = func(done, _ int) { progress(base+done, total) }
			}
			res, err := evaluate(ctx, run, chunks, corpus, items, p)
			if err != nil {
				return nil, fmt.Errorf("cofe: sweep %s × %s: %w", c.Name(), name, err)
			}
			out.Rows = append(out.Rows, *res)
		}
	}
	return out, nil
}

// Table renders the sweep as text cells, header first; undefined is "n/a".
func (s *SweepResult) Table() [][]string {
	rows := [][]string{{"chunker", "retriever", "chunks", "accuracy@k", "recall", "coverage", "mean_hit_score"}}
	for _, r := range s.Rows {
		rows = append(rows, []string{r.Chunker, r.Retriever, fmt.Sprint(r.Chunks),
			fmtShare(r.AccuracyAtK), fmtShare(r.Recall), fmtShare(r.Coverage), fmtShare(r.MeanHitScore)})
	}
	return rows
}

func fmtShare(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.4f", *p)
}
