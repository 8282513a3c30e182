package session

import (
	"context"

	"cubeworkbench/core/chunk"
	"cubeworkbench/core/cofe"
	"cubeworkbench/core/docparse"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/embed/openaiembed"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/rerank"
)

// ErrNoDocuments says a sweep needs guides or a corpus folder to retrieve over.
var ErrNoDocuments = refusal("没有可检索的文档：工作簿没有办事指南，配置也未指定语料目录", "no documents to retrieve over: the workbook has no guides and the profile names no corpus")

// Sweep runs CoFE-RAG over every chunker with every retriever on the same
// corpus and questions. Files of the corpus folder that cannot be read are
// returned in skipped; the sweep goes on without them.
func (s *Session) Sweep(ctx context.Context, p profile.Profile, chunkers []chunk.Chunker, retrievers []string,
	progress func(done, total int)) (res *cofe.SweepResult, skipped []error, err error) {
	if err := s.Check(); err != nil {
		return nil, nil, err
	}
	if s.Streamed > 0 && p.CoFE.Corpus == "" {
		return nil, nil, refusal("知识库已写入运行记录库，请完整载入或在配置中指定语料目录", "the knowledge base was streamed into the run store; open it with all guides or name a corpus folder in the profile")
	}
	var docs []cofe.Doc
	if p.CoFE.Corpus != "" {
		parsed, errs := docparse.Folder(ctx, p.CoFE.Corpus)
		skipped = errs
		if ctx.Err() != nil {
			// Interrupted while parsing: say so, not "no documents".
			return nil, skipped, ctx.Err()
		}
		for _, d := range parsed {
			docs = append(docs, cofe.Doc{ID: d.ID, Text: d.Text})
		}
	} else {
		for _, g := range s.Workbook.Guides {
			docs = append(docs, cofe.Doc{ID: g.ID, Text: g.Text})
		}
	}
	if len(docs) == 0 {
		return nil, skipped, ErrNoDocuments
	}
	var emb embed.Embedder = embed.NewHashed()
	if ep := p.Embedder; ep != nil && ep.BaseURL != "" {
		if emb, err = openaiembed.New(openaiembed.Config{BaseURL: ep.BaseURL, Model: ep.Model, APIKeyEnv: ep.APIKeyEnv}); err != nil {
			return nil, skipped, err
		}
	}
	rr, err := rerank.FromProfile(p.Reranker)
	if err != nil {
		return nil, skipped, err
	}
	res, err = cofe.Sweep(ctx, docs, s.Workbook.Items, chunkers, retrievers, cofe.Config{K: p.CoFE.K, RecallN: p.CoFE.RecallN, Embedder: emb, Reranker: rr}, progress)
	if err != nil {
		return nil, skipped, err
	}
	s.mu.Lock()
	if s.result != nil {
		s.result.Summary.Sweep = res // the report's CoFE sheet shows it
	}
	s.mu.Unlock()
	return res, skipped, nil
}
