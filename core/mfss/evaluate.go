package mfss

import (
	"context"
	"fmt"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/textmetric"
)

// ItemScore is one system's factors on one item.
type ItemScore struct {
	ItemID  string  `json:"item_id"`
	System  string  `json:"system"`
	Factors Factors `json:"factors"`
}

// Result is an MFSS evaluation: means per system, broken down per category
// and per query type. A system with no scored item has no entry (its mean is
// undefined, not 0).
type Result struct {
	Embedder    string                        `json:"embedder"`
	Systems     map[string]Factors            `json:"systems"`
	ByCategory  map[string]map[string]Factors `json:"by_category"`   // system → category → means
	ByQueryType map[string]map[string]Factors `json:"by_query_type"` // system → query type → means
	Scored      map[string]int                `json:"scored"`        // system → answers scored
	// Items without a reference are skipped for every system and counted
	// once here; answers a system does not have are counted per system.
	SkippedNoReference int            `json:"skipped_no_reference"`
	SkippedNoAnswer    map[string]int `json:"skipped_no_answer"`
	Items              []ItemScore    `json:"-"` // per pair, for the report; too large for SUMMARY.json at scale
}

// chunkPairs is how many (item, system) pairs share one embedding call: big
// enough to fill an endpoint's batches, small enough to report progress.
const chunkPairs = 128

type pair struct {
	item   *dataset.Item
	system string
	answer string
}

// Evaluate scores every listed system's answer on every item with a
// reference. An item without a reference is skipped and counted; a system
// with no entry in an item's Answers is skipped and counted; an entry that
// is present but blank is an empty response and scores 0. progress, when
// set, is called after each chunk with pairs done and pairs in all.
func Evaluate(ctx context.Context, emb embed.Embedder, items []dataset.Item, systems []string, cfg Config, progress func(done, total int)) (*Result, error) {
	cfg, err := cfg.normalized()
	if err != nil {
		return nil, err
	}
	res := &Result{Embedder: emb.Name(), Systems: map[string]Factors{}, ByCategory: map[string]map[string]Factors{},
		ByQueryType: map[string]map[string]Factors{}, Scored: map[string]int{}, SkippedNoAnswer: map[string]int{}}
	var pairs []pair
	for i := range items {
		it := &items[i]
		if len(textmetric.TokenizeEnglish(it.Reference)) == 0 {
			res.SkippedNoReference++
			continue
		}
		for _, sys := range systems {
			ans, ok := it.Answers[sys]
			if !ok {
				res.SkippedNoAnswer[sys]++
				continue
			}
			pairs = append(pairs, pair{it, sys, ans})
		}
	}
	for start := 0; start < len(pairs); start += chunkPairs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("mfss: %w", err)
		}
		chunk := pairs[start:min(start+chunkPairs, len(pairs))]
		scores, err := scoreChunk(ctx, emb, chunk, cfg)
		if err != nil {
			return nil, err
		}
		for k, p := range chunk {
			res.Items = append(res.Items, ItemScore{ItemID: p.item.ID, System: p.system, Factors: scores[k]})
		}
		if progress != nil {
			progress(start+len(chunk), len(pairs))
		}
	}
	res.aggregate(pairs)
	return res, nil
}

// scoreChunk embeds every distinct text of a chunk in one call.
func scoreChunk(ctx context.Context, emb embed.Embedder, chunk []pair, cfg Config) ([]Factors, error) {
	index := map[string]int{}
	var texts []string
	add := func(s string) int {
		if i, ok := index[s]; ok {
			return i
		}
		index[s] = len(texts)
		texts = append(texts, s)
		return len(texts) - 1
	}
	type prepared struct {
		resp, ref  text
		zh, respZH bool
		empty      bool
		ri, gi     int
		sentIdx    []int
	}
	preps := make([]prepared, len(chunk))
	refCache := map[string]text{} // key: mode + reference
	for k, p := range chunk {
		zh := pairIsChinese(p.answer, p.item.Reference)
		pp := prepared{zh: zh, respZH: textmetric.IsChinese(p.answer)}
		pp.resp = prepare(p.answer, zh, cfg.RougeStem)
		if len(pp.resp.tokens) == 0 {
			pp.empty = true
			preps[k] = pp
			continue
		}
		key := fmt.Sprint(zh) + "\x00" + p.item.Reference
		ref, ok := refCache[key]
		if !ok {
			ref = prepare(p.item.Reference, zh, cfg.RougeStem)
			refCache[key] = ref
		}
		pp.ref = ref
		pp.ri, pp.gi = add(p.answer), add(p.item.Reference)
		for _, s := range pp.resp.sentences {
			pp.sentIdx = append(pp.sentIdx, add(s))
		}
		preps[k] = pp
	}
	var cos cosines
	if len(texts) > 0 {
		var err error
		if cos, err = embedAll(ctx, emb, texts); err != nil {
			return nil, err
		}
	}
	out := make([]Factors, len(chunk))
	for k, pp := range preps {
		if pp.empty {
			continue
		}
		// Sentence positions are not contiguous after de-duplication.
		sent := pp.sentIdx
		out[k] = finish(pp.resp, pp.ref, pp.respZH, cfg, cos(pp.ri, pp.gi),
			func(j int) float64 { return cos(sent[j], sent[j+1]) })
	}
	return out, nil
}

type acc struct {
	sum [7]float64
	n   int
}

func (a *acc) add(f Factors) {
	v := f.vector()
	for i := range v {
		a.sum[i] += v[i]
	}
	a.sum[6] += f.Total
	a.n++
}

func (a *acc) mean() Factors {
	n := float64(a.n)
	return Factors{a.sum[0] / n, a.sum[1] / n, a.sum[2] / n, a.sum[3] / n, a.sum[4] / n, a.sum[5] / n, a.sum[6] / n}
}

func (r *Result) aggregate(pairs []pair) {
	sys := map[string]*acc{}
	cat := map[string]map[string]*acc{}
	qt := map[string]map[string]*acc{}
	into := func(m map[string]map[string]*acc, s, key string, f Factors) {
		key = strings.TrimSpace(key)
		if key == "" {
			return
		}
		if m[s] == nil {
			m[s] = map[string]*acc{}
		}
		if m[s][key] == nil {
			m[s][key] = &acc{}
		}
		m[s][key].add(f)
	}
	for k, p := range pairs {
		f := r.Items[k].Factors
		if sys[p.system] == nil {
			sys[p.system] = &acc{}
		}
		sys[p.system].add(f)
		into(cat, p.system, p.item.Category, f)
		into(qt, p.system, dataset.CanonicalQueryType(p.item.QueryType), f)
	}
	for s, a := range sys {
		r.Systems[s] = a.mean()
		r.Scored[s] = a.n
	}
	for s, m := range cat {
		r.ByCategory[s] = map[string]Factors{}
		for c, a := range m {
			r.ByCategory[s][c] = a.mean()
		}
	}
	for s, m := range qt {
		r.ByQueryType[s] = map[string]Factors{}
		for q, a := range m {
			r.ByQueryType[s][q] = a.mean()
		}
	}
}
