package textmetric

import "fmt"

// BLEURef is one reference tokenised and counted once, to score many
// hypotheses against it with SentenceBLEU's result: a service guide is the
// reference of every answer to every question about it (3 answer sets ×
// ~50 questions a guide at 100,000 questions over 2,000 guides), and
// SentenceBLEU tokenises and counts it again for each.
//
// N-grams are keyed by integer token ids, not by joined strings: the
// reference's tokens are numbered, a hypothesis token the reference lacks
// gets id 0, and an n-gram holding id 0 can match nothing. Two n-grams are
// equal exactly when their token sequences are, as with the joined strings
// (tokens never hold the separating space), so every count is the same.
type BLEURef struct {
	opt    BLEUOptions
	vocab  map[string]uint32 // reference token → id ≥ 1
	len    int
	ngrams map[ngramKey]int // the reference's n-gram counts
}

// ngramKey is an n-gram of up to four token ids; unused places are 0 and
// n tells orders apart.
type ngramKey struct {
	n   uint8
	ids [4]uint32
}

// maxKeyOrder is the longest n-gram an ngramKey holds.
const maxKeyOrder = 4

// NewBLEURef tokenises and counts ref under opt (SentenceBLEU's options:
// effective order on). A MaxOrder above 4 is refused: SentenceBLEU serves it.
func NewBLEURef(ref string, opt BLEUOptions) (*BLEURef, error) {
	opt.EffectiveOrder = true
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if opt.MaxOrder > maxKeyOrder {
		return nil, fmt.Errorf("bleu: a prepared reference counts n-grams up to %d, not %d", maxKeyOrder, opt.MaxOrder)
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
	r.ngrams = make(map[ngramKey]int, len(ids)*opt.MaxOrder)
	eachNgram(ids, opt.MaxOrder, func(k ngramKey) { r.ngrams[k]++ })
	return r, nil
}

// eachNgram calls fn with every 1..maxOrder-gram of ids.
func eachNgram(ids []uint32, maxOrder int, fn func(ngramKey)) {
	for n := 1; n <= maxOrder; n++ {
		for i := 0; i+n <= len(ids); i++ {
			k := ngramKey{n: uint8(n)}
			copy(k.ids[:], ids[i:i+n])
			fn(k)
		}
	}
}

// BLEUScratch is a hypothesis's working memory, reused across Sentence
// calls of one goroutine so that scoring allocates nothing per pair.
type BLEUScratch struct {
	ids    []uint32
	counts map[ngramKey]int
}

// Sentence is SentenceBLEU(hyp, []string{ref}, opt) for the reference r was
// made from. scratch may be nil; one goroutine at a time may use it.
func (r *BLEURef) Sentence(hyp string, scratch *BLEUScratch) (BLEUResult, error) {
	if scratch == nil {
		scratch = &BLEUScratch{}
	}
	if scratch.counts == nil {
		scratch.counts = map[ngramKey]int{}
	}
	htoks := r.opt.preprocess(hyp)
	ids := scratch.ids[:0]
	for _, t := range htoks {
		ids = append(ids, r.vocab[t]) // 0 when the reference lacks it
	}
	scratch.ids = ids
	order := r.opt.MaxOrder
	st := BLEUStats{SysLen: len(ids), RefLen: r.len, Correct: make([]int, order), Total: make([]int, order)}
	counts := scratch.counts
	clear(counts)
	for n := 1; n <= order; n++ {
		st.Total[n-1] = max(0, len(ids)-n+1)
	}
	eachNgram(ids, order, func(k ngramKey) {
		for _, id := range k.ids[:k.n] {
			if id == 0 {
				return // a token the reference lacks: no match, counted in Total only
			}
		}
		counts[k]++
	})
	for k, c := range counts {
		st.Correct[k.n-1] += min(c, r.ngrams[k])
	}
	res, err := ComputeBLEU(st, r.opt)
	res.Tokenizer = r.opt.Tokenize
	return res, err
}
