package mfss

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"cubeworkbench/core/embed"
	bilingual "cubeworkbench/core/text"
	"cubeworkbench/core/textmetric"
)

// Factors are one answer's six MFSS factors and their weighted total.
//
// Missing names the factors that could not be measured (FactorNames keys):
// accuracy when the embedder returned a zero vector for the answer or the
// reference, coherence when an answer of two or more sentences kept fewer
// than two with a vector. A missing factor reads 0 here but is n/a: it is
// left out of every mean and of the total, whose weights are renormalised
// over the factors measured. On a mean (Result.Systems and the breakdowns)
// Missing lists the factors no answer could measure, and each factor is the
// mean over the answers that measured it.
//
// ZeroVectors counts the texts of this answer (the answer, the reference,
// its sentences) that came back as zero or non-finite vectors; on a mean it
// is the sum over the answers.
type Factors struct {
	Accuracy           float64  `json:"accuracy"`
	FactualConsistency float64  `json:"factual_consistency"`
	Readability        float64  `json:"readability"`
	Coherence          float64  `json:"coherence"`
	Rouge              float64  `json:"rouge"`
	Conciseness        float64  `json:"conciseness"`
	Total              float64  `json:"total"`
	Missing            []string `json:"missing,omitempty"`
	ZeroVectors        int      `json:"zero_vectors,omitempty"`
}

// Has reports whether factor (a FactorNames key) was measured.
func (f Factors) Has(factor string) bool { return !slices.Contains(f.Missing, factor) }

// Weights of the total; they are renormalised to sum 1.
type Weights struct {
	Accuracy           float64 `json:"accuracy"`
	FactualConsistency float64 `json:"factual_consistency"`
	Readability        float64 `json:"readability"`
	Coherence          float64 `json:"coherence"`
	Rouge              float64 `json:"rouge"`
	Conciseness        float64 `json:"conciseness"`
}

// FactorNames are the factor keys in report order (also the keys of
// WeightsFromMap and of the JSON).
var FactorNames = []string{"accuracy", "factual_consistency", "readability", "coherence", "rouge", "conciseness"}

// Config holds the configurable constants of formulas.md §2.
type Config struct {
	Weights             Weights
	TargetSentenceLenEN float64    // ℓ* for English, default 17.5
	TargetSentenceLenZH float64    // ℓ* for Chinese, default 25 (our reading)
	RougeWeights        [3]float64 // weights of R1, R2, RL F1 in the ROUGE factor, default equal
	RougeStem           bool       // Porter stemming for English ROUGE (rouge-score's use_stemmer); default off
}

// DefaultConfig is formulas.md §2's default.
func DefaultConfig() Config {
	return Config{
		Weights: Weights{Accuracy: 0.25, FactualConsistency: 0.20, Readability: 0.15,
			Coherence: 0.15, Rouge: 0.15, Conciseness: 0.10},
		TargetSentenceLenEN: 17.5,
		TargetSentenceLenZH: 25,
		RougeWeights:        [3]float64{1, 1, 1},
	}
}

// WeightsFromMap reads weights keyed by FactorNames (the profile's
// [mfss.weights] table); factors it omits keep their defaults.
func WeightsFromMap(m map[string]float64) (Weights, error) {
	w := DefaultConfig().Weights
	for k, v := range m {
		switch k {
		case "accuracy":
			w.Accuracy = v
		case "factual_consistency":
			w.FactualConsistency = v
		case "readability":
			w.Readability = v
		case "coherence":
			w.Coherence = v
		case "rouge":
			w.Rouge = v
		case "conciseness":
			w.Conciseness = v
		default:
			return w, configError(fmt.Sprintf("未知的 MFSS 因子 %q（可选：%s）", k, strings.Join(FactorNames, "、")),
				fmt.Sprintf("unknown factor %q in weights (known: %s)", k, strings.Join(FactorNames, ", ")))
		}
	}
	return w, nil
}

func (w Weights) vector() [6]float64 {
	return [6]float64{w.Accuracy, w.FactualConsistency, w.Readability, w.Coherence, w.Rouge, w.Conciseness}
}

func (f Factors) vector() [6]float64 {
	return [6]float64{f.Accuracy, f.FactualConsistency, f.Readability, f.Coherence, f.Rouge, f.Conciseness}
}

// ErrConfig marks weights or constants that cannot be used.
var ErrConfig error = bilingual.NewError(bilingual.New("MFSS 配置无效", "mfss: invalid configuration"), nil)

// configError is ErrConfig saying what is wrong, in both languages.
func configError(zh, en string) error {
	return bilingual.NewError(bilingual.New("MFSS 配置无效："+zh, "mfss: invalid configuration: "+en), ErrConfig)
}

// ErrNoReference marks an item without a reference answer: it cannot be
// scored (it is skipped and counted, never scored 0).
var ErrNoReference error = bilingual.NewError(bilingual.New("缺少参考答案", "mfss: no reference answer"), nil)

// normalized checks cfg and returns it with both weight sets summing to 1.
func (cfg Config) normalized() (Config, error) {
	wv := cfg.Weights.vector()
	var sum float64
	for _, v := range wv {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return cfg, configError(fmt.Sprintf("因子权重 %v", v), fmt.Sprintf("factor weight %v", v))
		}
		sum += v
	}
	if sum <= 0 {
		return cfg, configError("因子权重之和为 0", "factor weights sum to 0")
	}
	cfg.Weights = Weights{wv[0] / sum, wv[1] / sum, wv[2] / sum, wv[3] / sum, wv[4] / sum, wv[5] / sum}
	var rs float64
	for _, v := range cfg.RougeWeights {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return cfg, configError(fmt.Sprintf("ROUGE 权重 %v", v), fmt.Sprintf("ROUGE weight %v", v))
		}
		rs += v
	}
	if rs <= 0 {
		return cfg, configError("ROUGE 权重之和为 0", "ROUGE weights sum to 0")
	}
	for i := range cfg.RougeWeights {
		cfg.RougeWeights[i] /= rs
	}
	if !(cfg.TargetSentenceLenEN > 0) || !(cfg.TargetSentenceLenZH > 0) {
		return cfg, configError("目标句长须大于 0", "target sentence length must be > 0")
	}
	return cfg, nil
}

// text is everything MFSS needs from one text under one language mode. Its
// tokens are ids of the vocabulary of the texts it is compared with (a
// chunk's, in Evaluate), so that comparing two texts compares integers.
type text struct {
	sentences []string
	tokens    []int32 // MFSS tokens, all sentences in order
	sentLens  []int   // tokens per sentence
	content   []int32 // sorted distinct content tokens
	distinct  int     // distinct tokens
	rouge     *textmetric.RougeText
}

func prepare(s string, zh, stem bool, v *textmetric.Vocab) text {
	return prepareWith(s, zh, stem, v, nil)
}

// prepareWith is prepare with a buffer for the sorted tokens, which it
// needs only while it runs; buf may be nil.
func prepareWith(s string, zh, stem bool, v *textmetric.Vocab, buf *[]int32) text {
	var t text
	t.sentences = textmetric.Sentences(s)
	tok := textmetric.TokEnglish
	if zh {
		tok = textmetric.TokChinese
	}
	for _, sent := range t.sentences {
		n := len(t.tokens)
		t.tokens = v.AppendIDs(t.tokens, sent, tok)
		t.sentLens = append(t.sentLens, len(t.tokens)-n)
	}
	var sorted []int32
	if zh { // ROUGE's tokens are these: sorted once for both
		t.rouge = textmetric.NewRougeText(t.tokens)
		sorted = t.rouge.Sorted()
	} else {
		rtok := textmetric.TokRouge
		if stem {
			rtok = textmetric.TokRougeStem
		}
		t.rouge = textmetric.NewRougeText(v.AppendIDs(nil, s, rtok))
		if buf != nil {
			sorted = append((*buf)[:0], t.tokens...)
			*buf = sorted
		} else {
			sorted = slices.Clone(t.tokens)
		}
		slices.Sort(sorted)
	}
	for i, id := range sorted {
		if i > 0 && id == sorted[i-1] {
			continue
		}
		t.distinct++
		if !v.Stopword(id, zh) {
			t.content = append(t.content, id)
		}
	}
	return t
}

// sentence is the tokens of sentence i.
func (t text) sentence(i int) []int32 {
	start := 0
	for _, n := range t.sentLens[:i] {
		start += n
	}
	return t.tokens[start : start+t.sentLens[i]]
}

// pairIsChinese is the language rule shared with textmetric.Rouge: a pair is
// Chinese when either text is.
func pairIsChinese(response, reference string) bool {
	return textmetric.IsChinese(reference) || textmetric.IsChinese(response)
}

// lexical computes the five factors that need no embeddings.
func lexical(resp, ref text, respIsZH bool, cfg Config, scratch *textmetric.RougeScratch) Factors {
	var f Factors
	// Factual consistency over content-token sets.
	switch {
	case len(ref.content) == 0 && len(resp.content) == 0:
		f.FactualConsistency = 1
	case len(ref.content) == 0:
		f.FactualConsistency = 0
	default:
		f.FactualConsistency = float64(textmetric.SortedOverlap(resp.content, ref.content)) / float64(len(ref.content))
	}
	// Conciseness = (1 − ρ)² · λ. A sentence repeats an earlier one when
	// their tokens are the same (the same as comparing them joined by a
	// space: no token holds one).
	repeated := 0
	for i := range resp.sentLens {
		for j := range i {
			if slices.Equal(resp.sentence(j), resp.sentence(i)) {
				repeated++
				break
			}
		}
	}
	rho := float64(repeated) / float64(len(resp.sentLens))
	ratio := float64(len(resp.tokens)) / float64(max(1, len(ref.tokens)))
	lambda := 1.0
	if ratio > 2 {
		lambda = math.Exp(-(ratio - 2))
	}
	f.Conciseness = (1 - rho) * (1 - rho) * lambda
	// Readability = ½·SLS + ½·LD.
	target := cfg.TargetSentenceLenEN
	if respIsZH {
		target = cfg.TargetSentenceLenZH
	}
	meanLen := float64(len(resp.tokens)) / float64(len(resp.sentLens))
	sls := max(0, 1-math.Abs(meanLen-target)/target)
	f.Readability = 0.5*sls + 0.5*float64(resp.distinct)/float64(len(resp.tokens))
	// ROUGE = weighted mean of the R1, R2, RL F1.
	r1, r2, rl := textmetric.RougeIDs(ref.rouge, resp.rouge, scratch)
	f.Rouge = cfg.RougeWeights[0]*r1.F + cfg.RougeWeights[1]*r2.F + cfg.RougeWeights[2]*rl.F
	return f
}

// total applies normalised weights over the measured factors; with none
// weighted among them the total is missing too.
func (f *Factors) total(w Weights) {
	fv, wv := f.vector(), w.vector()
	f.Total = 0
	var sum float64
	for i := range fv {
		if f.Has(FactorNames[i]) {
			f.Total += fv[i] * wv[i]
			sum += wv[i]
		}
	}
	switch {
	case sum <= 0:
		f.Total = 0
		f.Missing = append(f.Missing, "total")
	case sum < 1-1e-12:
		f.Total /= sum
	}
}

// vectors are the embeddings of one batch of texts: the cosine of two of
// them, and whether one is unusable (zero or non-finite: an embedder's
// answer for words it does not know), so that it decides no factor.
type vectors struct {
	cos  func(i, j int) float64
	zero []bool
}

func embedAll(ctx context.Context, emb embed.Embedder, texts []string) (vectors, error) {
	if sp, ok := emb.(embed.SparseEmbedder); ok {
		vs, err := sp.EmbedSparse(ctx, texts)
		if err != nil {
			return vectors{}, fmt.Errorf("mfss: embedding with %s: %w", emb.Name(), err)
		}
		if len(vs) != len(texts) {
			return vectors{}, fmt.Errorf("mfss: %s returned %d vectors for %d texts", emb.Name(), len(vs), len(texts))
		}
		return sparseVectors(vs), nil
	}
	vs, err := emb.Embed(ctx, texts)
	if err != nil {
		return vectors{}, fmt.Errorf("mfss: embedding with %s: %w", emb.Name(), err)
	}
	if len(vs) != len(texts) {
		return vectors{}, fmt.Errorf("mfss: %s returned %d vectors for %d texts", emb.Name(), len(vs), len(texts))
	}
	zero := make([]bool, len(vs))
	for i, v := range vs {
		// Vectors of different lengths have no cosine (embed.Cosine would
		// say 0): that is a broken endpoint, not a score.
		if len(v) != len(vs[0]) {
			return vectors{}, bilingual.NewError(bilingual.New(
				fmt.Sprintf("嵌入模型 %s 返回的向量维度不一致（%d 与 %d）", emb.Name(), len(vs[0]), len(v)),
				fmt.Sprintf("mfss: %s returned vectors of %d and %d dimensions", emb.Name(), len(vs[0]), len(v))), nil)
		}
		zero[i] = !usable(v)
	}
	return vectors{func(i, j int) float64 { return embed.Cosine(vs[i], vs[j]) }, zero}, nil
}

// sparseVectors are vectors over sparse embeddings.
func sparseVectors(vs []embed.Sparse) vectors {
	zero := make([]bool, len(vs))
	norm := make([]float64, len(vs)) // √(v·v) of each, once: a text takes part in several cosines
	for i, v := range vs {
		zero[i] = !usable(v.Value)
		norm[i] = math.Sqrt(v.Dot(v))
	}
	// embed.SparseCosine's arithmetic, its norms computed once.
	cos := func(i, j int) float64 {
		if norm[i] == 0 || norm[j] == 0 {
			return 0
		}
		return vs[i].Dot(vs[j]) / (norm[i] * norm[j])
	}
	return vectors{cos, zero}
}

// usable reports a vector with a direction: finite components, not all 0.
func usable(v []float32) bool {
	nonzero := false
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
		nonzero = nonzero || x != 0
	}
	return nonzero
}

// Score computes the six factors and the total of one response against its
// reference. An empty response (no tokens) scores 0 on every factor; a
// blank reference is ErrNoReference. A zero vector from the embedder makes
// the factor it feeds missing (see Factors), never a silent 0.
func Score(ctx context.Context, emb embed.Embedder, response, reference string, cfg Config) (Factors, error) {
	cfg, err := cfg.normalized()
	if err != nil {
		return Factors{}, err
	}
	if len(textmetric.TokenizeEnglish(reference)) == 0 {
		return Factors{}, ErrNoReference
	}
	zh := pairIsChinese(response, reference)
	vocab := textmetric.NewVocab()
	resp := prepare(response, zh, cfg.RougeStem, vocab)
	if len(resp.tokens) == 0 {
		return Factors{}, nil
	}
	ref := prepare(reference, zh, cfg.RougeStem, vocab)
	texts := append([]string{response, reference}, resp.sentences...)
	v, err := embedAll(ctx, emb, texts)
	if err != nil {
		return Factors{}, err
	}
	// texts: 0 response, 1 reference, 2… the response's sentences.
	sent := make([]int, len(resp.sentences))
	for k := range sent {
		sent[k] = 2 + k
	}
	f, _ := finish(resp, ref, textmetric.IsChinese(response), cfg, v, 0, 1, sent, nil)
	return f, nil
}

// zeroUse is what zero vectors did to one answer.
type zeroUse struct {
	texts            int  // texts used for this answer with zero vectors (answer, reference, sentences)
	accuracy         bool // accuracy missing
	coherence        bool // coherence missing
	sentencesLeftOut int  // sentences left out of coherence
}

// finish adds the embedding factors to the lexical ones: ri, gi and sent are
// the indexes in v of the response, the reference and the response's
// sentences. scratch may be nil.
func finish(resp, ref text, respIsZH bool, cfg Config, v vectors, ri, gi int, sent []int, scratch *textmetric.RougeScratch) (Factors, zeroUse) {
	f := lexical(resp, ref, respIsZH, cfg, scratch)
	var u zeroUse
	if len(sent) <= 1 {
		sent = nil // one sentence: coherence 1 by definition, no vector used
		f.Coherence = 1
	}
	for _, i := range append([]int{ri, gi}, sent...) {
		if v.zero[i] {
			u.texts++
		}
	}
	if v.zero[ri] || v.zero[gi] {
		u.accuracy = true
		f.Missing = append(f.Missing, "accuracy")
	} else {
		f.Accuracy = max(0, v.cos(ri, gi))
	}
	if sent != nil {
		// A sentence without a vector has no direction to compare:
		// coherence runs over adjacent pairs of the sentences that have one.
		kept := make([]int, 0, len(sent))
		for _, i := range sent {
			if v.zero[i] {
				u.sentencesLeftOut++
			} else {
				kept = append(kept, i)
			}
		}
		if len(kept) >= 2 {
			var sum float64
			for k := 0; k+1 < len(kept); k++ {
				sum += max(0, v.cos(kept[k], kept[k+1]))
			}
			f.Coherence = sum / float64(len(kept)-1)
		} else {
			u.coherence = true
			f.Missing = append(f.Missing, "coherence")
		}
	}
	f.ZeroVectors = u.texts
	f.clamp()
	f.total(cfg.Weights)
	return f, u
}

// clamp keeps float rounding (a cosine of 1.0000001) inside [0, 1].
func (f *Factors) clamp() {
	for i, p := range []*float64{&f.Accuracy, &f.FactualConsistency, &f.Readability, &f.Coherence, &f.Rouge, &f.Conciseness} {
		if math.IsNaN(*p) { // not expected (inputs are checked above), but never NaN
			*p = 0
			if f.Has(FactorNames[i]) {
				f.Missing = append(f.Missing, FactorNames[i])
			}
		}
		*p = min(1, max(0, *p))
	}
}
