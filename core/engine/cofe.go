package engine

import (
	"context"
	"fmt"

	"cubeworkbench/core/chunk"
	"cubeworkbench/core/cofe"
	"cubeworkbench/core/docparse"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// cofe runs the CoFE-RAG keyword evaluation over the guides when any item
// carries coarse keywords; nil when there is nothing to evaluate.
func (r *runner) cofe(ctx context.Context, emb embed.Embedder) (*cofe.Result, error) {
	s := r.opt.Profile.CoFE
	if !r.hasCoFEInput() {
		return nil, nil
	}
	if r.opt.PartialGuides && s.Corpus == "" {
		r.opt.Progress.Event(Event{Message: text.New(
			"已跳过 CoFE-RAG：知识库已流式写入运行记录库，只载入了问题涉及的指南，而 CoFE 需要在全部语料上检索。",
			"CoFE-RAG skipped: the knowledge base was streamed into the store and only the guides the questions name were loaded; CoFE retrieves over the whole corpus.").In(r.lang)})
		return nil, nil
	}
	chunker, err := chunk.New(s.Chunker, s.ChunkSize, s.Overlap)
	if err != nil {
		return nil, fmt.Errorf("engine: CoFE chunker: %w", err)
	}
	rr := r.rr // built by prepare, before any paid call
	docs, err := r.corpus(ctx)
	if err != nil {
		return nil, err
	}
	counter := newStepCounter(r.opt.Progress, StepMetrics, "CoFE-RAG", len(r.wb.Items))
	defer counter.finish()
	last := 0
	res, err := cofe.Evaluate(ctx, cofe.Config{K: s.K, RecallN: s.RecallN, Chunker: chunker, Retriever: s.Retriever, Embedder: emb, Reranker: rr},
		docs, r.wb.Items, func(done, total int) {
			for ; last < done; last++ {
				counter.add(false, 0, 0, 0, 0)
			}
		})
	if err != nil {
		return nil, fmt.Errorf("engine: CoFE: %w", err)
	}
	return res, nil
}

// hasCoFEInput says the workbook asks for CoFE-RAG's keyword evaluation:
// keywords on some question, and guides or a corpus to retrieve over.
func (r *runner) hasCoFEInput() bool {
	for _, it := range r.wb.Items {
		if len(it.Coarse) > 0 {
			return len(r.wb.Guides) > 0 || r.opt.Profile.CoFE.Corpus != ""
		}
	}
	return false
}

// cofeRuns says the keyword evaluation will run (and so call the reranker).
func (r *runner) cofeRuns() bool {
	return r.hasCoFEInput() && !(r.opt.PartialGuides && r.opt.Profile.CoFE.Corpus == "")
}

// corpus is what CoFE retrieves over: the profile's document folder when it
// names one (unreadable files are reported and skipped), else the guides.
func (r *runner) corpus(ctx context.Context) ([]cofe.Doc, error) {
	dir := r.opt.Profile.CoFE.Corpus
	if dir == "" {
		docs := make([]cofe.Doc, len(r.wb.Guides))
		for i, g := range r.wb.Guides {
			docs[i] = cofe.Doc{ID: g.ID, Text: g.Text}
		}
		return docs, nil
	}
	parsed, errs := docparse.Folder(ctx, dir)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, e := range errs {
		r.problem(result.Problem{Step: StepMetrics, Reason: "CoFE corpus: " + e.Error()})
	}
	if len(parsed) == 0 {
		return nil, fmt.Errorf("engine: CoFE corpus %s has no readable document", dir)
	}
	docs := make([]cofe.Doc, len(parsed))
	for i, d := range parsed {
		docs[i] = cofe.Doc{ID: d.ID, Text: d.Text}
	}
	return docs, nil
}
