package mfss

import (
	"context"
	"fmt"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	bilingual "cubeworkbench/core/text"
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
	// ZeroVectors counts what the embedder could not embed and what that
	// left unmeasured; Uninformative lists the factors that could not tell
	// this run's answers apart (see FactorNotes for what each can tell).
	ZeroVectors   ZeroVectors `json:"zero_vectors"`
	Uninformative []Flag      `json:"uninformative"`
	Items         []ItemScore `json:"-"` // per pair, for the report; too large for SUMMARY.json at scale
}

// ZeroVectors counts the texts an embedder returned a zero or non-finite
// vector for (typically a real word-vector model on words it does not
// know, e.g. the fragment "S." of a badly split "U.S."). Such a vector
// decides no factor: the answer's accuracy or coherence is missing instead
// (see Factors), or coherence runs over the other sentences.
type ZeroVectors struct {
	Texts    int      `json:"texts"`              // distinct texts with a zero vector
	Examples []string `json:"examples,omitempty"` // the first few of them
	// Touched is factor → system → answers: for accuracy the answers whose
	// accuracy is missing; for coherence those that lost a sentence (and
	// CoherenceMissing those left with fewer than two, so it is missing).
	Touched          map[string]map[string]int `json:"touched,omitempty"`
	CoherenceMissing map[string]int            `json:"coherence_missing,omitempty"`
	SentencesLeftOut int                       `json:"sentences_left_out"`
}

// maxZeroExamples is how many zero-vector texts a result quotes.
const maxZeroExamples = 5

func (z *ZeroVectors) touch(factor, system string) {
	if z.Touched == nil {
		z.Touched = map[string]map[string]int{}
	}
	if z.Touched[factor] == nil {
		z.Touched[factor] = map[string]int{}
	}
	z.Touched[factor][system]++
}

// Message is a bilingual line for the user, "" when nothing was zero.
func (z ZeroVectors) Message() bilingual.Text {
	if z.Texts == 0 {
		return bilingual.Text{}
	}
	sum := func(m map[string]int) int {
		n := 0
		for _, v := range m {
			n += v
		}
		return n
	}
	acc, coh := sum(z.Touched["accuracy"]), sum(z.Touched["coherence"])
	return bilingual.Text{
		EN: fmt.Sprintf("The embedder returned a zero vector for %d texts (e.g. %q): accuracy is n/a for %d answers; "+
			"coherence left out %d sentences in %d answers and is n/a for %d. These answers are not scored 0 on those factors.",
			z.Texts, z.Examples[0], acc, z.SentencesLeftOut, coh, sum(z.CoherenceMissing)),
		ZH: fmt.Sprintf("向量模型对 %d 段文本返回了零向量（如 %q）：%d 个回答的准确性无法计算；%d 个回答的连贯性略去了 %d 个句子，"+
			"其中 %d 个无法计算。这些回答在这些因子上不计 0 分，而是记为无值。",
			z.Texts, z.Examples[0], acc, coh, z.SentencesLeftOut, sum(z.CoherenceMissing)),
	}
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
	shapes := make([]shape, 0, len(pairs))
	zeroSeen := map[string]bool{}
	for start := 0; start < len(pairs); start += chunkPairs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("mfss: %w", err)
		}
		chunk := pairs[start:min(start+chunkPairs, len(pairs))]
		scores, err := scoreChunk(ctx, emb, chunk, cfg, &res.ZeroVectors, zeroSeen)
		if err != nil {
			return nil, err
		}
		for k, p := range chunk {
			res.Items = append(res.Items, ItemScore{ItemID: p.item.ID, System: p.system, Factors: scores[k].f})
			shapes = append(shapes, scores[k].shape)
		}
		if progress != nil {
			progress(start+len(chunk), len(pairs))
		}
	}
	res.aggregate(pairs)
	res.Uninformative = flagUninformative(res, pairs, shapes)
	return res, nil
}

// shape is what the uninformative-factor checks need of one answer.
type shape struct {
	empty     bool
	sentences int // sentences of the answer
}

type scored struct {
	f Factors
	shape
}

// scoreChunk embeds every distinct text of a chunk in one call.
func scoreChunk(ctx context.Context, emb embed.Embedder, chunk []pair, cfg Config, zv *ZeroVectors, zeroSeen map[string]bool) ([]scored, error) {
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
	type refKey struct {
		zh  bool
		ref string
	}
	refCache := map[refKey]text{}  // a reference is prepared once per language mode
	vocab := textmetric.NewVocab() // the chunk's tokens
	for k, p := range chunk {
		respZH := textmetric.IsChinese(p.answer)
		zh := respZH || textmetric.IsChinese(p.item.Reference) // pairIsChinese, the answer read once
		pp := prepared{zh: zh, respZH: respZH}
		pp.resp = prepare(p.answer, zh, cfg.RougeStem, vocab)
		if len(pp.resp.tokens) == 0 {
			pp.empty = true
			preps[k] = pp
			continue
		}
		key := refKey{zh, p.item.Reference}
		ref, ok := refCache[key]
		if !ok {
			ref = prepare(p.item.Reference, zh, cfg.RougeStem, vocab)
			refCache[key] = ref
		}
		pp.ref = ref
		pp.ri, pp.gi = add(p.answer), add(p.item.Reference)
		for _, s := range pp.resp.sentences {
			pp.sentIdx = append(pp.sentIdx, add(s))
		}
		preps[k] = pp
	}
	var v vectors
	if len(texts) > 0 {
		var err error
		if v, err = embedAll(ctx, emb, texts); err != nil {
			return nil, err
		}
	}
	for i, z := range v.zero {
		if z && !zeroSeen[texts[i]] {
			zeroSeen[texts[i]] = true
			zv.Texts++
			if len(zv.Examples) < maxZeroExamples {
				zv.Examples = append(zv.Examples, texts[i])
			}
		}
	}
	out := make([]scored, len(chunk))
	var scratch textmetric.RougeScratch
	for k, pp := range preps {
		out[k].sentences = len(pp.resp.sentences)
		if pp.empty {
			out[k].empty = true
			continue
		}
		// Sentence positions are not contiguous after de-duplication.
		f, u := finish(pp.resp, pp.ref, pp.respZH, cfg, v, pp.ri, pp.gi, pp.sentIdx, &scratch)
		out[k].f = f
		sys := chunk[k].system
		if u.accuracy {
			zv.touch("accuracy", sys)
		}
		if u.sentencesLeftOut > 0 {
			zv.touch("coherence", sys)
			zv.SentencesLeftOut += u.sentencesLeftOut
		}
		if u.coherence {
			if zv.CoherenceMissing == nil {
				zv.CoherenceMissing = map[string]int{}
			}
			zv.CoherenceMissing[sys]++
		}
	}
	return out, nil
}

// acc sums factors over the answers that measured them.
type acc struct {
	sum   [7]float64
	count [7]int
	zero  int
	n     int
}

func (a *acc) add(f Factors) {
	v := f.vector()
	for i := range v {
		if f.Has(FactorNames[i]) {
			a.sum[i] += v[i]
			a.count[i]++
		}
	}
	if f.Has("total") {
		a.sum[6] += f.Total
		a.count[6]++
	}
	a.zero += f.ZeroVectors
	a.n++
}

func (a *acc) mean() Factors {
	var m [7]float64
	var missing []string
	for i := range m {
		if a.count[i] > 0 {
			m[i] = a.sum[i] / float64(a.count[i])
		} else if i < 6 {
			missing = append(missing, FactorNames[i])
		} else {
			missing = append(missing, "total")
		}
	}
	return Factors{Accuracy: m[0], FactualConsistency: m[1], Readability: m[2], Coherence: m[3], Rouge: m[4],
		Conciseness: m[5], Total: m[6], Missing: missing, ZeroVectors: a.zero}
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
