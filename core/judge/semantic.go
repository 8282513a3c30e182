package judge

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/text"
	"cubeworkbench/core/textmetric"
)

// SemanticName is the judge name the offline semantic baseline reports under.
const SemanticName = "semantic"

// Semantic is the second offline baseline judge. It is not an LLM and reads
// nothing: it compares offline hashed embeddings (embed.Hashed, character
// 1–3-gram counts) of the answer, the question, the gold guide, the
// reference answer and the passages, sentence by sentence, and maps the
// cosines onto each dimension's scale. Where Lexical counts shared words of
// the whole texts, Semantic matches sentences to sentences, so it rewards an
// answer that carries whole statements of the guide and not the same words
// scattered; the two agree on clear cases and differ on the rest, which is
// what a comparison of judges needs on the sample. Deterministic, instant,
// free (see SemanticMethodNote).
//
// The zero value works; NewSemantic's remembers each guide's vectors across
// judgements, which a run over many questions needs (ScoreAll).
type Semantic struct {
	guides    *memo[semanticDoc]
	questions *memo[sentence] // a question is judged with each of its answers
}

// NewSemantic returns a semantic judge that embeds each service guide once
// for all the judgements that share it.
func NewSemantic() Semantic {
	return Semantic{guides: newMemo[semanticDoc](), questions: newMemo[sentence]()}
}

var _ Scorer = Semantic{}

// SemanticMethodNote explains the semantic judge for the report's Method sheet.
func SemanticMethodNote() text.Text {
	return text.New("semantic（语义相似）评分器不是大语言模型，而是第二个离线基线：用离线哈希向量（字符 1–3 元组）计算回答与问题、"+
		"办事指南（或参考答案、检索段落）之间的余弦相似度，并逐句匹配。相关性 = 回答与问题的余弦；"+
		"具体性 = 回答中与指南某句相近的句子所占篇幅；完整性 = 指南中被回答某句覆盖的句子所占篇幅；"+
		"质量 = 回答整体与指南的余弦，对过短、过长或自我重复的回答扣分。它比较字面形式而非含义，"+
		"分数不能与大模型的评分直接比较，只用于无模型时的演示、校验与评审对照。",
		"The semantic judge is not an LLM but a second offline baseline: it takes the cosine similarity of offline "+
			"hashed embeddings (character 1–3-grams) between the answer and the question, the service guide (or the "+
			"reference answer, or the retrieved passages), sentence by sentence. Relevance = cosine of answer and "+
			"question; specificity = share of the answer's text in sentences close to a guide sentence; completeness = "+
			"share of the guide's text in sentences some answer sentence is close to; quality = cosine of the whole "+
			"answer and the guide, reduced for very short, very long or self-repeating answers. It compares surface "+
			"form, not meaning; its scores are not comparable with an LLM judge's and serve demos, checks and judge "+
			"comparison without a model.")
}

// Calibration. Each cosine c is placed on a ramp: at or below lo it is worth
// nothing, at or above hi everything, linear between. The points come from
// the offline embedder's behaviour on Chinese and English service texts
// (docs/decisions.md, Judging): unrelated texts of the same language share
// common characters and sit around 0.05 (question vs another question's
// answer) to 0.35 (boilerplate such as a hotline), a sentence quoted from
// the guide with a lead-in such as "根据…办事指南" reaches 0.6–0.9.
const (
	// relevance: cosine of the answer and the (short) question; a long
	// answer dilutes it, so the ceiling is well below 1.
	relevanceLo, relevanceHi = 0.05, 0.40
	// a sentence "matches" a sentence of the other text when their best
	// cosine is high; partial credit between the points.
	matchLo, matchHi = 0.25, 0.60
	// quality: the whole answer against the whole guide.
	alignLo, alignHi = 0.10, 0.60
	// correctness: the answer against the (short) reference answer.
	referenceLo, referenceHi = 0.10, 0.70
	// faithfulness: share of the answer's text that matches a passage sentence.
	groundedShare = 0.5
	// relevancy: YES when the answer or a passage sentence is at least this
	// close to the question (above nine in ten unrelated pairs).
	questionClose = 0.12
	// an answer sentence repeats an earlier one above this cosine.
	repeatCos = 0.9
	// thinRunes: an answer of fewer letters and digits than this is too
	// thin to be a useful reply ("见上", "请咨询").
	thinRunes = 20
)

func ramp(c, lo, hi float64) float64 { return math.Max(0, math.Min(1, (c-lo)/(hi-lo))) }

// langSep separates the Chinese and the English part of a reason (the
// separator of text.Text.Stored).
const langSep = " | "

// sentence is one sentence with its embedding and its weight (letters and
// digits, so that punctuation and list markers do not count).
type sentence struct {
	v      embed.Sparse
	weight float64
	nn     float64 // v·v, which every cosine with v divides by: made once
}

// embedder gives the vector of one text in the item's language. Chinese
// goes to the embedder as it is: a Han character carries meaning, so its
// character 1–3-grams are morpheme n-grams. English does not: any two
// English sentences share e, t, th… and their character cosine sits near
// 0.5 whatever they say. So each English content word (lower-cased,
// Porter-stemmed, stopwords out) becomes one symbol of the Unicode private
// use area, and the embedder's 1–3-grams become word 1–3-grams.
type embedder struct{ zh bool }

func (e embedder) vec(text string) embed.Sparse {
	if e.zh {
		return hashed.Sparse(text)
	}
	var b strings.Builder
	for _, w := range textmetric.RemoveStopwords(textmetric.TokenizeEnglish(text), false) {
		b.WriteRune(wordSymbol(textmetric.PorterStem(w)))
	}
	return hashed.Sparse(b.String())
}

// wordSymbol maps a word to one of the 65,534 code points of Supplementary
// Private Use Area-A by 32-bit FNV-1a; a collision merges two words, as the
// embedder's own buckets do.
func wordSymbol(w string) rune {
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		h ^= uint32(w[i])
		h *= 16777619
	}
	return rune(0xF0000 + h%0xFFFE)
}

// semanticItem holds one item's embeddings, computed once per Score call.
// q, a and d carry their v·v, which every cosine with them divides by.
type semanticItem struct {
	e                              embedder
	hasQuestion, hasAnswer, hasDoc bool
	q, a                           sentence
	d                              *semanticDoc
	aSents, dSents                 []sentence
	aRunes, dRunes                 float64
	judge                          Semantic   // its memo of guides and passages
	cross                          *crossBest // answer × guide sentences, made on first use
	near                           *nearest   // relevance's cosine, made on first use
	note                           *pair      // the note of the rule at work
	notes                          *noteCache
}

// nearest is the cosine of the question with the answer or its closest
// sentence, which relevance and relevancy both read.
type nearest struct {
	done bool
	c    float64
}

var hashed = embed.NewHashed()

// wordRunes counts the letters and digits of s.
func wordRunes(s string) float64 {
	n, tab := 0, bmpClasses()
	for _, r := range s {
		if classOf(tab, r)&(classLetter|classDigit) != 0 {
			n++
		}
	}
	return float64(n)
}

func (e embedder) sentences(text string) []sentence {
	var out []sentence
	for _, s := range textmetric.Sentences(text) {
		if w := wordRunes(s); w > 0 {
			v := e.vec(s)
			out = append(out, sentence{v, w, v.Dot(v)})
		}
	}
	return out
}

// semanticDoc is what the semantic judge derives from a service guide (or
// a retrieved passage): its vector, its sentences' vectors and its length.
// Read only once made.
type semanticDoc struct {
	has   bool
	nn    float64 // v·v of the whole text's vector, which index holds
	sents []sentence
	runes float64
	index guideIndex
	v     embed.Sparse // the whole text's vector, kept only when index is not made
}

func newSemanticDoc(doc string, zh bool) semanticDoc {
	var sc semanticScratch
	whole, sents := embedder{zh}.answer(&sc, doc) // as vec and sentences make them
	runes := wordRunes(doc)
	d := semanticDoc{has: runes > 0, nn: whole.nn, runes: runes, index: newGuideIndex(whole.v, sents)}
	if !d.index.ok {
		d.sents, d.v = detach(sents), detach([]sentence{whole})[0].v
		return d
	}
	d.sents = make([]sentence, len(sents)) // their vectors are in the index
	for k, s := range sents {
		d.sents[k] = sentence{weight: s.weight, nn: s.nn}
	}
	return d
}

// detach copies sentences out of a scratch's memory, their vectors into
// one array of indices and one of values.
func detach(ss []sentence) []sentence {
	n := 0
	for _, s := range ss {
		n += len(s.v.Index)
	}
	index, value := make([]uint32, 0, n), make([]float32, 0, n)
	out := make([]sentence, len(ss))
	for k, s := range ss {
		lo := len(index)
		index, value = append(index, s.v.Index...), append(value, s.v.Value...)
		out[k] = s
		if s.v.Index != nil {
			out[k].v = embed.Sparse{Index: index[lo:len(index):len(index)], Value: value[lo:len(value):len(value)]}
		}
	}
	return out
}

// whole is the vector of text as a sentence of weight 0.
func (e embedder) whole(text string) sentence {
	v := e.vec(text)
	return sentence{v: v, nn: v.Dot(v)}
}

func wholeOf(text string, zh bool) sentence { return embedder{zh}.whole(text) }

func (s Semantic) doc(e embedder, text string) *semanticDoc {
	return s.guides.entry(text).get(text, e.zh, newSemanticDoc)
}

// semanticScratch is one judgement's buffers, reused across judgements.
type semanticScratch struct {
	buf     embed.HashedBuffers
	split   []string // the answer's sentences
	parts   [][2]int
	weights []float64
	sents   []sentence
	cross   crossBest
	near    nearest
	note    pair
	notes   noteCache
}

var semanticScratches = sync.Pool{New: func() any { return new(semanticScratch) }}

// answer is vec and sentences of an answer, in sc's memory. A Chinese
// answer's sentences are embedded with it from one hashing (SparseParts):
// each is a trimmed piece of the answer, found from where the last ended.
func (e embedder) answer(sc *semanticScratch, text string) (sentence, []sentence) {
	if !e.zh {
		return e.whole(text), e.sentences(text)
	}
	parts, ws := sc.parts[:0], sc.weights[:0]
	at := 0
	sc.split = textmetric.AppendSentences(sc.split[:0], text)
	defer clear(sc.split) // hold on to no answer
	for _, s := range sc.split {
		w := wordRunes(s)
		if w <= 0 {
			continue
		}
		i := strings.Index(text[at:], s)
		if i < 0 { // not a piece of the text: embed each on its own
			return e.whole(text), e.sentences(text)
		}
		parts, ws = append(parts, [2]int{at + i, at + i + len(s)}), append(ws, w)
		at += i + len(s)
	}
	sc.parts, sc.weights = parts, ws
	whole, vs := hashed.SparseParts(&sc.buf, text, parts)
	out := sc.sents[:0]
	for k, v := range vs {
		out = append(out, sentence{v, ws[k], v.Dot(v)})
	}
	sc.sents = out
	return sentence{v: whole, nn: whole.Dot(whole)}, out
}

func (s Semantic) newItem(in Inputs, sc *semanticScratch) semanticItem {
	g, q, fa := s.guides.entry(in.Document), s.questions.entry(in.Question), factsOf(in.Answer)
	e := embedder{zh: isChinese(in.Question, in.Answer, in.Document, q.facts, fa, g.facts)}
	it := semanticItem{
		e:           e,
		hasQuestion: q.facts.wordRunes() > 0,
		hasAnswer:   fa.wordRunes() > 0,
		judge:       s,
		cross:       &sc.cross,
		near:        &sc.near,
		note:        &sc.note,
		notes:       &sc.notes,
	}
	sc.cross, sc.near = crossBest{ofA: sc.cross.ofA[:0], ofDoc: sc.cross.ofDoc[:0], dots: sc.cross.dots[:0]}, nearest{}
	d := g.get(in.Document, e.zh, newSemanticDoc)
	it.hasDoc, it.d, it.dSents, it.dRunes = d.has, d, d.sents, d.runes
	it.q = *q.get(in.Question, e.zh, wholeOf)
	it.a, it.aSents = e.answer(sc, in.Answer)
	it.aRunes = fa.wordRunes()
	return it
}

// bestOf is bestMatch of a sentence whose v·v is made.
func bestOf(x sentence, ys []sentence) float64 {
	b := 0.0
	for _, y := range ys {
		b = math.Max(b, cosine(x, y))
	}
	return b
}

// cosine is embed.SparseCosine(x.v, y.v), the same expression with the
// norms' dot products made once per sentence, not once per pair.
func cosine(x, y sentence) float64 {
	if x.nn == 0 || y.nn == 0 {
		return 0
	}
	return dot(x.v, y.v) / (math.Sqrt(x.nn) * math.Sqrt(y.nn))
}

// crossBest is, for an answer's and a guide's sentences, each answer
// sentence's best cosine with a guide sentence and each guide sentence's
// best with an answer sentence: specificity reads the one, completeness
// the other, from one pass over the pairs (the cosine is symmetric to the
// last bit: Dot sums the same products in the same order). The dot
// products of an answer sentence with all the guide's come from one walk
// over the guide's index.
type crossBest struct {
	done       bool
	ofA, ofDoc []float64
	dots       []float64
}

func (c *crossBest) make(as []sentence, d *semanticDoc) {
	if c.done {
		return
	}
	ds := d.sents
	c.done = true
	c.ofA, c.ofDoc = slices.Grow(c.ofA[:0], len(as))[:len(as)], slices.Grow(c.ofDoc[:0], len(ds))[:len(ds)]
	clear(c.ofA)
	clear(c.ofDoc)
	if !d.index.ok {
		for i, a := range as {
			for k, s := range ds {
				v := cosine(a, s)
				c.ofA[i] = math.Max(c.ofA[i], v)
				c.ofDoc[k] = math.Max(c.ofDoc[k], v)
			}
		}
		return
	}
	c.dots = slices.Grow(c.dots[:0], len(ds))[:len(ds)]
	for i, a := range as {
		clear(c.dots)
		d.index.dots(a.v, c.dots)
		for k, s := range ds {
			v := cosineOf(c.dots[k], a.nn, s.nn) // cosine(a, s)
			c.ofA[i] = math.Max(c.ofA[i], v)
			c.ofDoc[k] = math.Max(c.ofDoc[k], v)
		}
	}
}

// shareOf is the weighted share of xs whose best cosine (best(i)) is a
// match, with the count of full matches.
func shareOf(xs []sentence, best func(i int) float64) (share float64, full int) {
	var sum, total float64
	for i, x := range xs {
		m := ramp(best(i), matchLo, matchHi)
		if m == 1 {
			full++
		}
		sum += m * x.weight
		total += x.weight
	}
	if total == 0 {
		return 0, 0
	}
	return sum / total, full
}

func round1s(x float64) float64 { return math.Round(x*10) / 10 }

// nearest is the cosine of the question and the answer or, when higher,
// the answer's closest sentence: a long answer dilutes its cosine with a
// short question, its closest sentence does not.
func (it semanticItem) nearest() float64 {
	if !it.near.done {
		it.near.c = math.Max(cosine(it.a, it.q), bestOf(it.q, it.aSents))
		it.near.done = true
	}
	return it.near.c
}

// The rules below return a score or the reason it is unscorable, and write
// their note into it.note.

func (it semanticItem) relevance() (float64, string) {
	if !it.hasQuestion {
		return 0, StoredReason(ReasonNoScore, "问题没有文字", "the question has no text")
	}
	c := it.nearest()
	v := round1s(10 * ramp(c, relevanceLo, relevanceHi))
	n := it.note
	n.zh = appendFixed(append(n.zh, "相关性：回答（或其最相近的一句）与问题的余弦 "...), c, 2)
	n.en = appendFixed(append(n.en, "relevance: cosine of the answer (or its closest sentence) and the question "...), c, 2)
	return v, ""
}

func (it semanticItem) specificity() (float64, string) {
	if !it.hasDoc {
		return 0, StoredReason(ReasonNoScore, "具体性需要办事指南", "specificity needs the service guide")
	}
	it.cross.make(it.aSents, it.d)
	s, full := shareOf(it.aSents, func(i int) float64 { return it.cross.ofA[i] })
	n := it.note
	n.zh = appendInt(append(n.zh, "具体性：回答 "...), len(it.aSents))
	n.zh = appendInt(append(n.zh, " 句中 "...), full)
	n.zh = append(appendFixed(append(n.zh, " 句与指南某句相近，按篇幅计 "...), 100*s, 0), " %"...)
	n.en = appendInt(append(n.en, "specificity: "...), full)
	n.en = appendInt(append(n.en, " of "...), len(it.aSents))
	n.en = append(appendFixed(append(n.en, " answer sentences close to a guide sentence, "...), 100*s, 0), " % of the text"...)
	return round1s(10 * s), ""
}

func (it semanticItem) completeness() (float64, string) {
	if !it.hasDoc {
		return 0, StoredReason(ReasonNoScore, "完整性需要办事指南", "completeness needs the service guide")
	}
	it.cross.make(it.aSents, it.d)
	s, full := shareOf(it.dSents, func(k int) float64 { return it.cross.ofDoc[k] })
	n := it.note
	n.zh = appendInt(append(n.zh, "完整性：指南 "...), len(it.dSents))
	n.zh = appendInt(append(n.zh, " 句中 "...), full)
	n.zh = append(appendFixed(append(n.zh, " 句被回答覆盖，按篇幅计 "...), 100*s, 0), " %"...)
	n.en = appendInt(append(n.en, "completeness: "...), full)
	n.en = appendInt(append(n.en, " of "...), len(it.dSents))
	n.en = append(appendFixed(append(n.en, " guide sentences covered by the answer, "...), 100*s, 0), " % of the text"...)
	return round1s(10 * s), ""
}

// quality: how closely the answer as a whole follows the guide, times what
// its own form costs: a thin reply, padding beyond twice the guide, and
// sentences that say again what an earlier one said.
func (it semanticItem) quality() (float64, string) {
	if !it.hasDoc {
		return 0, StoredReason(ReasonNoScore, "质量需要办事指南", "quality needs the service guide")
	}
	c := cosine(it.a, sentence{v: it.d.v, nn: it.d.nn}) // cosine of answer and guide
	if it.d.index.ok {
		c = cosineOf(it.d.index.dots(it.a.v, nil), it.a.nn, it.d.nn)
	}
	align := ramp(c, alignLo, alignHi)
	thin := math.Min(1, it.aRunes/thinRunes)
	padding := 1.0
	if it.aRunes > 2*it.dRunes {
		padding = 0.8
	}
	repeated := 0
	for i, s := range it.aSents {
		if bestOf(s, it.aSents[:i]) > repeatCos {
			repeated++
		}
	}
	distinct := 1.0
	if len(it.aSents) > 0 {
		distinct = 1 - float64(repeated)/float64(len(it.aSents))
	}
	n := it.note
	n.zh = appendFixed(append(n.zh, "质量：回答与指南的余弦 "...), c, 2)
	n.zh = appendFixed(append(n.zh, " × 篇幅 "...), thin, 2)
	n.zh = appendFixed(append(n.zh, " × 冗长 "...), padding, 2)
	n.zh = appendFixed(append(n.zh, " × 不重复 "...), distinct, 2)
	n.en = appendFixed(append(n.en, "quality: cosine of answer and guide "...), c, 2)
	n.en = appendFixed(append(n.en, " × length "...), thin, 2)
	n.en = appendFixed(append(n.en, " × padding "...), padding, 2)
	n.en = appendFixed(append(n.en, " × non-repetition "...), distinct, 2)
	return round1s(10 * align * thin * padding * distinct), ""
}

// correctness maps the cosine of answer and reference onto 1–5.
func (it semanticItem) correctness(reference string) (float64, string) {
	if wordRunes(reference) == 0 {
		return 0, StoredReason(ReasonNoScore, "正确性需要参考答案", "correctness needs a reference answer")
	}
	c := cosine(it.a, it.e.whole(reference))
	n := it.note
	n.zh = appendFixed(append(n.zh, "正确性：回答与参考答案的余弦 "...), c, 2)
	n.en = appendFixed(append(n.en, "correctness: cosine of answer and reference "...), c, 2)
	return round1s(1 + 4*ramp(c, referenceLo, referenceHi)), ""
}

// passages are the retrieved passages' documents and their sentences' count.
func (it semanticItem) passages(contexts []string) ([]*semanticDoc, int) {
	out, n := make([]*semanticDoc, 0, len(contexts)), 0
	for _, c := range contexts {
		d := it.judge.doc(it.e, c)
		out, n = append(out, d), n+len(d.sents)
	}
	return out, n
}

// bestIn is bestOf(x, the sentences of docs, one after the other).
func (it semanticItem) bestIn(x sentence, docs []*semanticDoc) float64 {
	b := 0.0
	for _, d := range docs {
		b = math.Max(b, d.best(x, &it.cross.dots))
	}
	return b
}

// best is bestOf(x, d.sents), the dot products from d's index.
func (d *semanticDoc) best(x sentence, dots *[]float64) float64 {
	if !d.index.ok {
		return bestOf(x, d.sents)
	}
	*dots = slices.Grow((*dots)[:0], len(d.sents))[:len(d.sents)]
	clear(*dots)
	d.index.dots(x.v, *dots)
	b := 0.0
	for k, s := range d.sents {
		b = math.Max(b, cosineOf((*dots)[k], x.nn, s.nn))
	}
	return b
}

// faithfulness: YES when at least half the answer's text matches a
// sentence of the retrieved passages.
func (it semanticItem) faithfulness(contexts []string) (float64, string) {
	ps, count := it.passages(contexts)
	if count == 0 {
		return 0, StoredReason(ReasonNoScore, "忠实性需要检索段落", "faithfulness needs the retrieved passages")
	}
	s, _ := shareOf(it.aSents, func(i int) float64 { return it.bestIn(it.aSents[i], ps) })
	n := it.note
	if s >= groundedShare {
		n.zh = append(appendFixed(append(n.zh, "忠实性：是，回答 "...), 100*s, 0), " % 的篇幅与检索段落相近"...)
		n.en = append(appendFixed(append(n.en, "faithfulness: YES, "...), 100*s, 0), " % of the answer close to the passages"...)
		return 1, ""
	}
	n.zh = append(appendFixed(append(n.zh, "忠实性：否，回答仅 "...), 100*s, 0), " % 的篇幅与检索段落相近"...)
	n.en = append(appendFixed(append(n.en, "faithfulness: NO, only "...), 100*s, 0), " % of the answer close to the passages"...)
	return 0, ""
}

// relevancy: YES when the answer or a passage sentence is near the question.
func (it semanticItem) relevancy(contexts []string) (float64, string) {
	if !it.hasQuestion {
		return 0, StoredReason(ReasonNoScore, "问题没有文字", "the question has no text")
	}
	ps, _ := it.passages(contexts)
	c := math.Max(it.nearest(), it.bestIn(it.q, ps))
	n := it.note
	if c >= questionClose {
		n.zh = appendFixed(append(n.zh, "相关度：是，回答或检索段落与问题的最高余弦 "...), c, 2)
		n.en = appendFixed(append(n.en, "relevancy: YES, best cosine of answer or passage with the question "...), c, 2)
		return 1, ""
	}
	n.zh = appendFixed(append(n.zh, "相关度：否，回答或检索段落与问题的最高余弦仅 "...), c, 2)
	n.en = appendFixed(append(n.en, "relevancy: NO, best cosine of answer or passage with the question only "...), c, 2)
	return 0, ""
}

// Score implements Scorer. repeat is ignored: the result is deterministic.
// An answer with no letters or digits is unscorable, never 0: there is
// nothing to compare, and a 0 would pull the means down silently.
func (s Semantic) Score(ctx context.Context, d Dimension, in Inputs, repeat int) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	if semanticRule(d) == dimension.RuleNone {
		return semanticItem{}.score(d, in), nil // the no-rule reason, with nothing embedded
	}
	sc := semanticScratches.Get().(*semanticScratch)
	defer semanticScratches.Put(sc)
	return s.newItem(in, sc).score(d, in), nil
}

// ScoreAll implements Batcher: the outcomes are Score's on each of dims,
// with the answer and question embedded once.
func (s Semantic) ScoreAll(ctx context.Context, dims []Dimension, in Inputs) ([]Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sc := semanticScratches.Get().(*semanticScratch)
	it := s.newItem(in, sc)
	out := make([]Outcome, len(dims))
	for k, d := range dims {
		out[k] = it.score(d, in)
	}
	semanticScratches.Put(sc)
	return out, nil
}

func semanticRule(d Dimension) dimension.Rule {
	if b, ok := dimension.Lookup(d.Name); ok {
		return b.Semantic
	}
	return dimension.RuleNone
}

func (it semanticItem) score(d Dimension, in Inputs) Outcome {
	rule := semanticRule(d)
	if rule == dimension.RuleNone {
		return Outcome{Reason: StoredReason(ReasonNoScore, "语义评审没有维度 "+d.Name+" 的规则", "the semantic judge has no rule for dimension "+d.Name)}
	}
	if !it.hasAnswer {
		return Outcome{Reason: StoredReason(ReasonNoScore, "回答为空", "the answer is empty")}
	}
	var v float64
	var bad string
	it.note.reset()
	switch rule {
	case dimension.RuleQuestionSimilarity:
		v, bad = it.relevance()
	case dimension.RuleGuideGrounding:
		v, bad = it.specificity()
	case dimension.RuleGuideSentenceCover:
		v, bad = it.completeness()
	case dimension.RuleGuideAlignment:
		v, bad = it.quality()
	case dimension.RuleReferenceSimilarity:
		v, bad = it.correctness(in.Reference)
	case dimension.RulePassageGrounding:
		v, bad = it.faithfulness(in.Contexts)
	case dimension.RulePassageSimilarity:
		v, bad = it.relevancy(in.Contexts)
	default:
		return Outcome{Reason: StoredReason(ReasonNoScore, "语义评审不认识规则 "+string(rule), "the semantic judge does not know rule "+string(rule))}
	}
	if bad != "" {
		return Outcome{Reason: bad}
	}
	return it.notes.outcome(SemanticName, semanticScore, d, v, it.note)
}

// SemanticReason returns a semantic judge's raw reply ("semantic zh | en")
// or unscorable reason ("code: zh | en") in lang, keeping the code; text in
// one language only is returned as it is.
func SemanticReason(stored string, lang text.Lang) string {
	prefix := ""
	rest := stored
	if r, ok := strings.CutPrefix(stored, SemanticName+" "); ok {
		rest = r
	} else if code := ReasonCode(stored); code != stored {
		prefix, rest = code+": ", strings.TrimPrefix(stored[len(code)+1:], " ")
	}
	zh, en, ok := strings.Cut(rest, langSep)
	if !ok {
		return stored
	}
	return prefix + text.New(zh, en).In(lang)
}
