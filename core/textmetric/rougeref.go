package textmetric

// RougeLRef is a ROUGE-L target whose tokens are numbered once, to score
// many predictions against it with RougeL's result and no per-pair map: a
// prediction token the target lacks gets id -1, which equals no target id,
// and the LCS only ever compares a target id with a prediction id.
type RougeLRef struct {
	vocab map[string]int32
	ids   []int32
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
	return rougeLIDs(r.ids, buf), buf
}
