package textmetric

// BLEURef is one reference tokenised and counted once, to score many
// hypotheses against it with SentenceBLEU's result: a service guide is the
// reference of every answer to every question about it (3 answer sets ×
// ~50 questions a guide at 100,000 questions over 2,000 guides), and
// SentenceBLEU tokenises and counts it again for each.
//
// N-grams are numbered, not keyed by joined strings: the reference's
// tokens get ids ≥ 1, its n-grams indexes, each n-gram's index found from
// its first n−1 tokens' index and its last token's id. A hypothesis token
// the reference lacks gets id 0, which begins and extends no n-gram. Two
// n-grams get one index exactly when their token sequences are equal, as
// with the joined strings (tokens never hold the separating space), so
// every count is the same; a hypothesis n-gram not in the reference counts
// in Total only, as before, since its clipped count is min(c, 0).
type BLEURef struct {
	opt   BLEUOptions
	vocab map[string]uint32 // reference token → id ≥ 1
	len   int
	uni   []int32          // token id → index of its unigram
	ext   map[uint64]int32 // index of an n-gram << 32 | next token id → index of the (n+1)-gram
	count []int32          // the reference's count of each n-gram index
}

// NewBLEURef tokenises and counts ref under opt (SentenceBLEU's options:
// effective order on).
func NewBLEURef(ref string, opt BLEUOptions) (*BLEURef, error) {
	opt.EffectiveOrder = true
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	toks := opt.preprocess(ref)
	r := &BLEURef{opt: opt, vocab: make(map[string]uint32, len(toks)), len: len(toks)}
	ids := make([]uint32, len(toks))
	for i, t := range toks {
		id, ok := r.vocab[t]
		if !ok {
			id = uint32(len(r.vocab) + 1)
			r.vocab[t] = id
		}
		ids[i] = id
	}
	r.uni = make([]int32, len(r.vocab)+1)
	for id := range r.uni {
		r.uni[id] = int32(id) // unigram indexes are the ids; index 0 is never counted
	}
	r.count = make([]int32, len(r.uni), len(r.uni)+len(ids)*(opt.MaxOrder-1))
	r.ext = make(map[uint64]int32, len(ids)*(opt.MaxOrder-1))
	for i := range ids {
		k := r.uni[ids[i]]
		r.count[k]++
		for _, id := range ids[i+1 : min(len(ids), i+opt.MaxOrder)] {
			key := uint64(k)<<32 | uint64(id)
			next, ok := r.ext[key]
			if !ok {
				next = int32(len(r.count))
				r.ext[key] = next
				r.count = append(r.count, 0)
			}
			r.count[next]++
			k = next
		}
	}
	return r, nil
}

// BLEUScratch is a hypothesis's working memory, reused across Sentence
// and Score calls of one goroutine so that scoring allocates nothing per
// pair (Sentence allocates its result's slices).
type BLEUScratch struct {
	tokens         bleuTokens
	ids            []uint32
	seen           []int32 // per n-gram index: the hypothesis's count so far
	touched        []int32 // indexes whose seen is not 0
	correct, total []int
	res            [3][]float64 // Score's result slices
}

// stats is the hypothesis's segment statistics against the reference,
// backed by scratch.
func (r *BLEURef) stats(hyp string, sc *BLEUScratch) BLEUStats {
	ids := sc.tokens.bleuIDs(sc.ids[:0], hyp, r.opt, r.vocab)
	sc.ids = ids
	order := r.opt.MaxOrder
	if cap(sc.correct) < order {
		sc.correct, sc.total = make([]int, order), make([]int, order)
	}
	st := BLEUStats{SysLen: len(ids), RefLen: r.len, Correct: sc.correct[:order], Total: sc.total[:order]}
	clear(st.Correct)
	for n := 1; n <= order; n++ {
		st.Total[n-1] = max(0, len(ids)-n+1)
	}
	if len(sc.seen) < len(r.count) {
		sc.seen = make([]int32, len(r.count))
	}
	seen := sc.seen
	bump := func(k int32, n int) {
		seen[k]++
		if seen[k] == 1 {
			sc.touched = append(sc.touched, k)
		}
		if seen[k] <= r.count[k] {
			st.Correct[n]++
		}
	}
	for i, id := range ids {
		if id == 0 {
			continue // a token the reference lacks: no n-gram from here matches
		}
		k := r.uni[id]
		bump(k, 0)
		for n, next := range ids[i+1 : min(len(ids), i+order)] {
			var ok bool
			if k, ok = r.ext[uint64(k)<<32|uint64(next)]; !ok {
				break // not in the reference, nor any longer n-gram from i
			}
			bump(k, n+1)
		}
	}
	for _, k := range sc.touched {
		seen[k] = 0
	}
	sc.touched = sc.touched[:0]
	return st
}

// Sentence is SentenceBLEU(hyp, []string{ref}, opt) for the reference r was
// made from. scratch may be nil; one goroutine at a time may use it.
func (r *BLEURef) Sentence(hyp string, scratch *BLEUScratch) (BLEUResult, error) {
	if scratch == nil {
		scratch = &BLEUScratch{}
	}
	st := r.stats(hyp, scratch)
	order := len(st.Correct)
	res := BLEUResult{Precisions: make([]float64, order), Counts: make([]float64, order), Totals: make([]float64, order), Tokenizer: r.opt.Tokenize}
	computeBLEU(st, r.opt, &res)
	return res, nil
}

// Score is Sentence(hyp, scratch).Score, allocating nothing.
func (r *BLEURef) Score(hyp string, scratch *BLEUScratch) float64 {
	st := r.stats(hyp, scratch)
	order := len(st.Correct)
	res := BLEUResult{}
	for i, p := range []*[]float64{&res.Precisions, &res.Counts, &res.Totals} {
		if cap(scratch.res[i]) < order {
			scratch.res[i] = make([]float64, order)
		}
		*p = scratch.res[i][:order]
		clear(*p)
	}
	computeBLEU(st, r.opt, &res)
	return res.Score
}
