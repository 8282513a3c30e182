package cofe

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"golang.org/x/sync/errgroup"

	"cubeworkbench/core/chunk"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/retrieve"
)

// Defaults of the paper (formulas.md §3).
const (
	DefaultK       = 4
	DefaultRecallN = 30
	defaultWorkers = 4
)

// Doc is one document of the corpus.
type Doc struct {
	ID   string
	Text string
}

// Reranker reorders retrieved texts; rerank.Client implements it.
type Reranker interface {
	Rerank(ctx context.Context, query string, docs []string, topN int) ([]retrieve.Ranked, error)
}

// Config is one evaluation's pipeline.
type Config struct {
	K         int            // Accuracy@K after reranking; 0 → 4
	RecallN   int            // length of the retrieved list; 0 → 30 (raised to K if smaller)
	Chunker   chunk.Chunker  // nil → one chunk per document
	Retriever string         // bm25 (default), dense, hybrid
	Embedder  embed.Embedder // for dense and hybrid
	Reranker  Reranker       // nil → the retrieved order is kept
	Workers   int            // concurrent queries; 0 → 4
}

// Metrics are shares of queries; nil when there is no query to count.
type Metrics struct {
	AccuracyAtK  *float64 `json:"accuracy_at_k"`
	Recall       *float64 `json:"recall"`
	Coverage     *float64 `json:"coverage"`
	MeanHitScore *float64 `json:"mean_hit_score"`
	Queries      int      `json:"queries"`
}

// QueryResult is one query's outcome.
type QueryResult struct {
	ItemID     string
	QueryType  string
	Empty      bool    // empty keyword lists (EmptyKeywords)
	GoldAtK    bool    // gold on the first K after reranking
	GoldRecall bool    // gold on the whole retrieved list
	GoldCorpus bool    // gold on every chunk of the corpus
	HitScore   float64 // hit score at K
	Retrieved  []int   // chunk indices, reranked order
}

// Result is an evaluation's summary (SUMMARY.json "cofe").
type Result struct {
	K int `json:"k"`
	Metrics
	ByQueryType         map[string]Metrics `json:"by_query_type"`
	EmptyKeywordQueries int                `json:"empty_keyword_queries"`
	EmptyKeywordIDs     []string           `json:"empty_keyword_ids,omitempty"`
	Chunker             string             `json:"chunker"`
	Retriever           string             `json:"retriever"`
	Reranked            bool               `json:"reranked"`
	RecallN             int                `json:"recall_n"`
	Chunks              int                `json:"chunks"`
	PerQuery            []QueryResult      `json:"-"`
	// Generation is the generation half: judges' correctness, faithfulness
	// and relevancy of the system's answers, BLEU and ROUGE-L against the
	// reference, by query type. nil when not run.
	Generation *Generation `json:"generation,omitempty"`
}

// UnknownType labels queries without a query type in ByQueryType.
const UnknownType = "unknown"

func (c Config) normalized() Config {
	if c.K <= 0 {
		c.K = DefaultK
	}
	if c.RecallN <= 0 {
		c.RecallN = DefaultRecallN
	}
	c.RecallN = max(c.RecallN, c.K)
	if c.Chunker == nil {
		c.Chunker = chunk.PerDocument()
	}
	if c.Retriever == "" {
		c.Retriever = retrieve.NameBM25
	}
	if c.Workers <= 0 {
		c.Workers = defaultWorkers
	}
	return c
}

// Chunks splits every document with the chunker, in document order.
func Chunks(c chunk.Chunker, docs []Doc) []chunk.Chunk {
	var out []chunk.Chunk
	for _, d := range docs {
		out = append(out, c.Chunk(d.ID, d.Text)...)
	}
	return out
}

// Evaluate runs chunk → index → retrieve → (rerank) → keyword metrics.
// progress (may be nil) is called after each query.
func Evaluate(ctx context.Context, cfg Config, docs []Doc, items []dataset.Item, progress func(done, total int)) (*Result, error) {
	cfg = cfg.normalized()
	chunks := Chunks(cfg.Chunker, docs)
	return evaluate(ctx, cfg, chunks, nil, items, progress)
}

// evaluate takes chunks already made and, optionally, corpus verdicts
// already computed (they depend on the chunker only, so a sweep shares them).
func evaluate(ctx context.Context, cfg Config, chunks []chunk.Chunk, corpus []bool, items []dataset.Item, progress func(done, total int)) (*Result, error) {
	r, label, err := retrieve.New(ctx, cfg.Retriever, chunks, cfg.Embedder)
	if err != nil {
		return nil, fmt.Errorf("cofe: %w", err)
	}
	if corpus == nil {
		corpus = CorpusGold(chunks, items)
	}
	res := &Result{K: cfg.K, Chunker: cfg.Chunker.Name(), Retriever: label, Reranked: cfg.Reranker != nil,
		RecallN: cfg.RecallN, Chunks: len(chunks), PerQuery: make([]QueryResult, len(items))}

	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(cfg.Workers)
	var mu sync.Mutex
	done := 0
	for i := range items {
		g.Go(func() error {
			q, err := evalQuery(gctx, cfg, r, chunks, &items[i])
			if err != nil {
				return fmt.Errorf("cofe: item %s: %w", items[i].ID, err)
			}
			q.GoldCorpus = corpus[i]
			res.PerQuery[i] = q
			mu.Lock()
			done++
			if progress != nil {
				progress(done, len(items))
			}
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	res.summarize()
	return res, nil
}

func evalQuery(ctx context.Context, cfg Config, r retrieve.Retriever, chunks []chunk.Chunk, it *dataset.Item) (QueryResult, error) {
	q := QueryResult{ItemID: it.ID, QueryType: dataset.CanonicalQueryType(it.QueryType), Empty: EmptyKeywords(it.Coarse, it.Fine)}
	if q.QueryType == "" {
		q.QueryType = UnknownType
	}
	hits, err := r.Search(ctx, it.Question, cfg.RecallN)
	if err != nil {
		return q, err
	}
	order := make([]int, len(hits))
	for i, h := range hits {
		order[i] = h.ChunkIndex
	}
	if cfg.Reranker != nil && len(order) > 0 {
		if order, err = rerank(ctx, cfg.Reranker, it.Question, chunks, order); err != nil {
			return q, err
		}
	}
	q.Retrieved = order
	texts := make([]string, len(order))
	for i, c := range order {
		texts[i] = Clean(chunks[c].Text)
	}
	atK := Find(texts[:min(cfg.K, len(texts))], it.Coarse, it.Fine)
	q.HitScore, q.GoldAtK = atK.HitScore, atK.Gold
	q.GoldRecall = Find(texts, it.Coarse, it.Fine).Gold
	return q, nil
}

// rerank reorders the retrieved chunks; any the server leaves out keep
// their retrieval order after the ones it ranked.
func rerank(ctx context.Context, rr Reranker, query string, chunks []chunk.Chunk, order []int) ([]int, error) {
	texts := make([]string, len(order))
	for i, c := range order {
		texts[i] = chunks[c].Text
	}
	ranked, err := rr.Rerank(ctx, query, texts, 0)
	if err != nil {
		return nil, err
	}
	out := make([]int, 0, len(order))
	used := make([]bool, len(order))
	for _, rk := range ranked {
		if rk.Index >= 0 && rk.Index < len(order) && !used[rk.Index] {
			used[rk.Index] = true
			out = append(out, order[rk.Index])
		}
	}
	for i, c := range order {
		if !used[i] {
			out = append(out, c)
		}
	}
	return out, nil
}

// CorpusGold says, per item, whether the query is gold over every chunk of
// the corpus (in corpus order): Coverage, the upper bound any retriever over
// these chunks can reach. Chunk texts are cleaned once.
func CorpusGold(chunks []chunk.Chunk, items []dataset.Item) []bool {
	cleaned := make([]string, len(chunks))
	for i, c := range chunks {
		cleaned[i] = Clean(c.Text)
	}
	out := make([]bool, len(items))
	for i := range items {
		out[i] = Find(cleaned, items[i].Coarse, items[i].Fine).Gold
	}
	return out
}

// summarize fills the overall and per-type metrics. Every query counts in
// every denominator, empty-keyword ones included (as misses with hit score
// 0 unless the formula makes them gold, see Match).
func (r *Result) summarize() {
	r.Metrics = metricsOf(r.PerQuery, func(QueryResult) bool { return true })
	r.ByQueryType = map[string]Metrics{}
	types := map[string]bool{}
	for _, q := range r.PerQuery {
		types[q.QueryType] = true
		if q.Empty {
			r.EmptyKeywordQueries++
			r.EmptyKeywordIDs = append(r.EmptyKeywordIDs, q.ItemID)
		}
	}
	for t := range types {
		r.ByQueryType[t] = metricsOf(r.PerQuery, func(q QueryResult) bool { return q.QueryType == t })
	}
	sort.Strings(r.EmptyKeywordIDs)
}

func metricsOf(qs []QueryResult, keep func(QueryResult) bool) Metrics {
	var m Metrics
	var acc, rec, cov, hit float64
	for _, q := range qs {
		if !keep(q) {
			continue
		}
		m.Queries++
		acc += b2f(q.GoldAtK)
		rec += b2f(q.GoldRecall)
		cov += b2f(q.GoldCorpus)
		hit += q.HitScore
	}
	if m.Queries == 0 {
		return m
	}
	n := float64(m.Queries)
	m.AccuracyAtK, m.Recall, m.Coverage, m.MeanHitScore = ptr(acc/n), ptr(rec/n), ptr(cov/n), ptr(hit/n)
	return m
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func ptr(f float64) *float64 { return &f }
