package mfss

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

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
//
// With the offline embedder (embed.Hashed, local and stateless) the chunks
// are scored on every core; with any other embedder one at a time, so that
// an endpoint sees the requests it saw before. Either way the result is
// the same to the bit: a chunk's scores depend on the chunk alone, and the
// chunks are merged in order.
func Evaluate(ctx context.Context, emb embed.Embedder, items []dataset.Item, systems []string, cfg Config, progress func(done, total int)) (*Result, error) {
	workers := 1
	if _, ok := emb.(*embed.Hashed); ok {
		workers = runtime.GOMAXPROCS(0)
	}
	return evaluate(ctx, emb, items, systems, cfg, progress, workers)
}

// evaluate is Evaluate on the given number of goroutines.
func evaluate(ctx context.Context, emb embed.Embedder, items []dataset.Item, systems []string, cfg Config, progress func(done, total int), workers int) (*Result, error) {
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
	if len(pairs) > 0 {
		res.Items = make([]ItemScore, 0, len(pairs)) // nil without pairs, as before
	}
	zeroSeen := map[string]bool{}
	merge := func(start int, c chunkScores) {
		c.replay(&res.ZeroVectors, zeroSeen)
		for k, sc := range c.scores {
			p := pairs[start+k]
			res.Items = append(res.Items, ItemScore{ItemID: p.item.ID, System: p.system, Factors: sc.f})
			shapes = append(shapes, sc.shape)
		}
		if progress != nil {
			progress(start+len(c.scores), len(pairs))
		}
	}
	if err := scoreChunks(ctx, emb, pairs, cfg, workers, merge); err != nil {
		return nil, err
	}
	res.aggregate(pairs)
	res.Uninformative = flagUninformative(res, pairs, shapes)
	return res, nil
}

// scoreChunks scores pairs chunk by chunk on workers goroutines and hands
// each chunk's scores to merge in chunk order. At most two chunks per
// worker are scored ahead of the merge, so that memory stays bounded.
func scoreChunks(ctx context.Context, emb embed.Embedder, pairs []pair, cfg Config, workers int, merge func(start int, c chunkScores)) error {
	n := (len(pairs) + chunkPairs - 1) / chunkPairs
	chunk := func(c int) []pair { return pairs[c*chunkPairs : min((c+1)*chunkPairs, len(pairs))] }
	if workers = min(workers, n); workers <= 1 {
		var sc scratch
		for c := range n {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("mfss: %w", err)
			}
			scores, err := scoreChunk(ctx, emb, chunk(c), cfg, &sc)
			if err != nil {
				return err
			}
			merge(c*chunkPairs, scores)
		}
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	type slot struct {
		scores chunkScores
		err    error
		done   chan struct{}
	}
	slots := make([]slot, n)
	for c := range slots {
		slots[c].done = make(chan struct{})
	}
	ahead := make(chan struct{}, 2*workers) // a token per chunk taken and not yet merged
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sc scratch
			for {
				select {
				case ahead <- struct{}{}:
				case <-ctx.Done():
					return
				}
				c := int(next.Add(1) - 1)
				if c >= n {
					return
				}
				s := &slots[c]
				if s.err = ctx.Err(); s.err != nil {
					s.err = fmt.Errorf("mfss: %w", s.err)
				} else {
					s.scores, s.err = scoreChunk(ctx, emb, chunk(c), cfg, &sc)
				}
				close(s.done)
			}
		}()
	}
	defer func() { cancel(); wg.Wait() }() // a worker waiting for a token sees the cancel
	for c := range slots {
		s := &slots[c]
		select {
		case <-s.done:
		case <-ctx.Done():
			return fmt.Errorf("mfss: %w", ctx.Err())
		}
		if s.err != nil {
			return s.err
		}
		merge(c*chunkPairs, s.scores)
		s.scores = chunkScores{}
		<-ahead
	}
	return nil
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

// chunkScores is one chunk's scores and what zero vectors did in it, in
// the chunk's order, for the merge to count (zero texts are counted once
// per run, so the count is the merge's).
type chunkScores struct {
	scores    []scored
	zeroTexts []string // the chunk's distinct texts with a zero vector, in order
	uses      []sysUse // the pairs that zero vectors touched, in order
}

type sysUse struct {
	system string
	u      zeroUse
}

// replay adds the chunk's zero vectors to zv, as they were met.
func (c chunkScores) replay(zv *ZeroVectors, zeroSeen map[string]bool) {
	for _, t := range c.zeroTexts {
		if !zeroSeen[t] {
			zeroSeen[t] = true
			zv.Texts++
			if len(zv.Examples) < maxZeroExamples {
				zv.Examples = append(zv.Examples, t)
			}
		}
	}
	for _, su := range c.uses {
		if su.u.accuracy {
			zv.touch("accuracy", su.system)
		}
		if su.u.sentencesLeftOut > 0 {
			zv.touch("coherence", su.system)
			zv.SentencesLeftOut += su.u.sentencesLeftOut
		}
		if su.u.coherence {
			if zv.CoherenceMissing == nil {
				zv.CoherenceMissing = map[string]int{}
			}
			zv.CoherenceMissing[su.system]++
		}
	}
}

// scratch is one goroutine's buffers, reused from chunk to chunk.
type scratch struct {
	hashed embed.HashedBuffers
	parts  [][2]int
	index  []uint32 // the chunk's vectors (hashedChunk)
	value  []float32
	sorted []int32 // prepare's
}

// scoreChunk embeds every distinct text of a chunk in one call.
func scoreChunk(ctx context.Context, emb embed.Embedder, chunk []pair, cfg Config, sc *scratch) (chunkScores, error) {
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
		pp.resp = prepareWith(p.answer, zh, cfg.RougeStem, vocab, &sc.sorted)
		if len(pp.resp.tokens) == 0 {
			pp.empty = true
			preps[k] = pp
			continue
		}
		key := refKey{zh, p.item.Reference}
		ref, ok := refCache[key]
		if !ok {
			ref = prepareWith(p.item.Reference, zh, cfg.RougeStem, vocab, &sc.sorted)
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
		if h, ok := emb.(*embed.Hashed); ok {
			v = sparseVectors(hashedChunk(h, sc, chunk, preps, texts))
		} else if v, err = embedAll(ctx, emb, texts); err != nil {
			return chunkScores{}, err
		}
	}
	var out chunkScores
	for i, z := range v.zero {
		if z {
			out.zeroTexts = append(out.zeroTexts, texts[i])
		}
	}
	out.scores = make([]scored, len(chunk))
	var rs textmetric.RougeScratch
	for k, pp := range preps {
		out.scores[k].sentences = len(pp.resp.sentences)
		if pp.empty {
			out.scores[k].empty = true
			continue
		}
		// Sentence positions are not contiguous after de-duplication.
		f, u := finish(pp.resp, pp.ref, pp.respZH, cfg, v, pp.ri, pp.gi, pp.sentIdx, &rs)
		out.scores[k].f = f
		if u.accuracy || u.sentencesLeftOut > 0 || u.coherence {
			out.uses = append(out.uses, sysUse{chunk[k].system, u})
		}
	}
	return out, nil
}

// prepared is one pair of a chunk: its texts, and where their vectors are
// among the chunk's distinct texts.
type prepared struct {
	resp, ref  text
	zh, respZH bool
	empty      bool
	ri, gi     int
	sentIdx    []int
}

// hashedChunk is the offline embedder's vector of every text of a chunk:
// an answer and its sentences from one hashing (SparseParts, equal to
// Sparse bit for bit), each reference on its own.
func hashedChunk(h *embed.Hashed, sc *scratch, chunk []pair, preps []prepared, texts []string) []embed.Sparse {
	vs := make([]embed.Sparse, len(texts))
	have := make([]bool, len(texts))
	// The chunk's vectors live in sc's arrays, which the next chunk reuses:
	// they are needed only until the chunk is scored. When an array grows,
	// the vectors already made keep the old one.
	index, value := sc.index[:0], sc.value[:0]
	keep := func(i int, v embed.Sparse) {
		if have[i] {
			return
		}
		have[i] = true
		if len(v.Index) == 0 {
			return
		}
		lo := len(index)
		index, value = append(index, v.Index...), append(value, v.Value...)
		vs[i] = embed.Sparse{Index: index[lo:len(index):len(index)], Value: value[lo:len(value):len(value)]}
	}
	for k, pp := range preps {
		if pp.empty {
			continue
		}
		need := !have[pp.ri]
		for _, i := range pp.sentIdx {
			need = need || !have[i]
		}
		if need {
			answer := chunk[k].answer
			if parts, ok := sentenceParts(sc.parts[:0], answer, pp.resp.sentences); ok {
				sc.parts = parts
				whole, vparts := h.SparseParts(&sc.hashed, answer, parts)
				keep(pp.ri, whole)
				for j, i := range pp.sentIdx {
					keep(i, vparts[j])
				}
			}
		}
	}
	for i, t := range texts { // references, and anything SparseParts could not take
		if !have[i] {
			have[i] = true
			vs[i] = h.Sparse(t)
		}
	}
	sc.index, sc.value = index, value
	return vs
}

// sentenceParts finds each sentence in text, in order, as SparseParts
// takes them; false when one is not a piece of text from where the last
// ended.
func sentenceParts(parts [][2]int, text string, sentences []string) ([][2]int, bool) {
	at := 0
	for _, s := range sentences {
		i := strings.Index(text[at:], s)
		if i < 0 || s == "" {
			return parts, false
		}
		parts = append(parts, [2]int{at + i, at + i + len(s)})
		at += i + len(s)
	}
	return parts, true
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
