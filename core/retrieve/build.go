package retrieve

import (
	"context"
	"fmt"

	"cubeworkbench/core/chunk"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/text"
)

// New builds the retriever a profile names (bm25, dense, hybrid) over
// chunks, and returns a label for reports ("dense:offline-hash"). emb is
// needed by dense and hybrid only.
func New(ctx context.Context, name string, chunks []chunk.Chunk, emb embed.Embedder) (Retriever, string, error) {
	switch name {
	case NameBM25:
		return NewBM25(chunks), NameBM25, nil
	case NameDense, NameHybrid:
		if emb == nil {
			return nil, "", text.NewError(text.New(fmt.Sprintf("检索方式 %s 需要嵌入模型", name),
				fmt.Sprintf("retrieve: %s needs an embedder", name)), nil)
		}
		d, err := NewDense(ctx, emb, chunks)
		if err != nil {
			return nil, "", err
		}
		if name == NameDense {
			return d, NameDense + ":" + emb.Name(), nil
		}
		return NewHybrid(NewBM25(chunks), d), NameHybrid + ":bm25+" + emb.Name(), nil
	}
	return nil, "", text.NewError(text.New(fmt.Sprintf("未知的检索方式 %q（可选：bm25、dense、hybrid）", name),
		fmt.Sprintf("retrieve: unknown retriever %q (bm25, dense, hybrid)", name)), nil)
}

// Docs returns the distinct documents of hits in rank order: the document
// list a chunk ranking amounts to.
func Docs(hits []Hit) []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range hits {
		if !seen[h.DocID] {
			seen[h.DocID] = true
			out = append(out, h.DocID)
		}
	}
	return out
}
