package textmetric

// RougeLRef is a ROUGE-L target whose tokens are numbered once, to score
// many predictions against it with RougeL's result and no per-pair map: a
// prediction token the target lacks gets id -1, which equals no target id,
// and the LCS only ever compares a target id with a prediction id.
type RougeLRef struct {
	vocab map[string]int32
	ids   []int32
	masks lcsMasks // ids made ready for the bit-parallel LCS
}

// NewRougeLRef numbers target's tokens.
func NewRougeLRef(target []string) *RougeLRef {
	r := &RougeLRef{vocab: make(map[string]int32, len(target)), ids: make([]int32, len(target))}
	for i, t := range target {
		id, ok := r.vocab[t]
		if !ok {
			id = int32(len(r.vocab))
			r.vocab[t] = id
		}
		r.ids[i] = id
	}
	r.masks = newLCSMasks(r.ids, len(r.vocab))
	return r
}

// L is RougeL(target, prediction) for the target r was made from. buf, when
// not nil, is reused for the prediction's ids and returned grown.
func (r *RougeLRef) L(prediction []string, buf []int32) (PRF, []int32) {
	buf = buf[:0]
	for _, t := range prediction {
		id, ok := r.vocab[t]
		if !ok {
			id = -1
		}
		buf = append(buf, id)
	}
	return r.prf(buf, nil), buf
}

// prf is ROUGE-L of the prediction's ids (rougeLIDs with r's masks); v is
// the LCS's working memory, as lcsMasks.lcs takes it.
func (r *RougeLRef) prf(pred []int32, v []uint64) PRF {
	if len(r.ids) == 0 || len(pred) == 0 {
		return PRF{}
	}
	l := float64(r.masks.lcs(pred, v))
	p, rc := l/float64(len(pred)), l/float64(len(r.ids))
	return PRF{p, rc, fmeasure(p, rc)}
}

// RougeScratch is a prediction's working memory, reused across LText calls
// of one goroutine so that scoring allocates nothing per pair.
type RougeScratch struct {
	ids []int32
	tok []byte
	v   []uint64
}

// LText is L(tokens, …) of the tokens TokenizeChinese (chinese) or
// RougeTokenize(text, stem) make of text, without making them as strings.
// scratch may be nil; one goroutine at a time may use it.
func (r *RougeLRef) LText(text string, chinese, stem bool, scratch *RougeScratch) PRF {
	if scratch == nil {
		scratch = &RougeScratch{}
	}
	scratch.ids, scratch.tok = rougeIDs(scratch.ids[:0], text, chinese, stem, r.vocab, scratch.tok)
	if cap(scratch.v) < r.masks.words {
		scratch.v = make([]uint64, r.masks.words)
	}
	return r.prf(scratch.ids, scratch.v)
}
