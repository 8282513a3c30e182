package judge

// This file is the oracle of the offline judges' speed-up (issue 27): the
// lexical and semantic judges and their memo as they were at 244135c, before
// they were made to tokenise each text once, renamed old* by an AST rename and
// otherwise unchanged. TestOfflineJudgesMatchOracle and FuzzOfflineJudges hold
// the judges to it, score for score and reason for reason. A deliberate change
// of a rule or a reason must be made here too.

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/text"
	"cubeworkbench/core/textmetric"
)

// keyUnits is how many of the document's most frequent units stand for its
// content when measuring completeness.
const oldKeyUnits = 30

// Lexical is the offline baseline judge. It is not an LLM: it measures word
// overlap between the answer and the question, the gold document, the
// reference answer or the retrieved passages, and maps it onto each
// dimension's scale. Deterministic, instant and free; a sanity baseline, not
// a substitute for a judge that reads (see MethodNote).
//
// The zero value works; NewLexical's remembers each guide's units across
// judgements, which a run over many questions needs (ScoreAll).
type oldLexical struct {
	guides *oldMemo[oldLexicalDoc]
}

// NewLexical returns a lexical judge that derives each service guide's
// units once for all the judgements that share it.
func oldNewLexical() oldLexical { return oldLexical{guides: oldNewMemo[oldLexicalDoc]()} }

func oldIsStopword(tok string, zh bool) bool {
	return textmetric.IsStopword(tok, zh)
}

func oldIsHan(tok string) bool {
	r, _ := utf8.DecodeRuneInString(tok)
	return unicode.Is(unicode.Han, r)
}

// units splits text into the overlap units: for Chinese, pairs of adjacent
// Han characters (single characters match too easily) and whole non-Han
// tokens; for English, words. Stopwords are dropped.
func oldUnits(text string, zh bool) []string {
	if !zh {
		return textmetric.RemoveStopwords(textmetric.TokenizeEnglish(text), false)
	}
	toks := textmetric.TokenizeChinese(text)
	var out []string
	for i, t := range toks {
		if !oldIsHan(t) {
			if !oldIsStopword(t, true) {
				out = append(out, t)
			}
			continue
		}
		if i+1 < len(toks) && oldIsHan(toks[i+1]) {
			bi := t + toks[i+1]
			if !oldIsStopword(t, true) && !oldIsStopword(toks[i+1], true) && !oldIsStopword(bi, true) {
				out = append(out, bi)
			}
		}
	}
	return out
}

type oldUnitSet map[string]bool

func oldSetOf(us []string) oldUnitSet {
	s := make(oldUnitSet, len(us))
	for _, u := range us {
		s[u] = true
	}
	return s
}

// share is |a ∩ b| / |a| with the counts, -1 when a is empty.
func oldShare(a, b oldUnitSet) (float64, int, int) {
	if len(a) == 0 {
		return -1, 0, 0
	}
	n := 0
	for u := range a {
		if b[u] {
			n++
		}
	}
	return float64(n) / float64(len(a)), n, len(a)
}

func oldIsNumber(u string) bool {
	return u != "" && strings.IndexFunc(u, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' }) < 0
}

func oldNumbers(s oldUnitSet) oldUnitSet {
	out := oldUnitSet{}
	for u := range s {
		if oldIsNumber(u) {
			out[u] = true
		}
	}
	return out
}

// topUnits returns the n most frequent units, ties broken by first occurrence.
func oldTopUnits(us []string, n int) oldUnitSet {
	count := map[string]int{}
	first := map[string]int{}
	for i, u := range us {
		if _, ok := first[u]; !ok {
			first[u] = i
		}
		count[u]++
	}
	keys := make([]string, 0, len(count))
	for u := range count {
		keys = append(keys, u)
	}
	sort.Slice(keys, func(i, j int) bool {
		if count[keys[i]] != count[keys[j]] {
			return count[keys[i]] > count[keys[j]]
		}
		return first[keys[i]] < first[keys[j]]
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	return oldSetOf(keys)
}

func oldRound1(x float64) float64 { return math.Round(x*10) / 10 }

// lexicalItem holds one answer's units, computed once per Score or
// ScoreAll call; the guide's come from lexicalDoc.
type oldLexicalItem struct {
	zh     bool
	q, a   oldUnitSet
	aList  []string
	answer string
	doc    oldLexicalDoc
}

// lexicalDoc is what the lexical judge derives from a service guide: its
// units, their set, its key units and its numbers. Read only once made.
type oldLexicalDoc struct {
	hasDoc bool
	list   []string
	set    oldUnitSet
	top    oldUnitSet // the keyUnits most frequent units
	nums   oldUnitSet
}

func oldNewLexicalDoc(doc string, zh bool) oldLexicalDoc {
	d := oldLexicalDoc{hasDoc: strings.TrimSpace(doc) != "", list: oldUnits(doc, zh)}
	d.set = oldSetOf(d.list)
	d.top = oldTopUnits(d.list, oldKeyUnits)
	d.nums = oldNumbers(d.set)
	return d
}

func (l oldLexical) newItem(in Inputs) oldLexicalItem {
	zh := textmetric.IsChinese(in.Question + in.Answer + in.Document)
	it := oldLexicalItem{zh: zh, answer: in.Answer}
	it.doc = l.guides.get(in.Document, zh, func() oldLexicalDoc { return oldNewLexicalDoc(in.Document, zh) })
	it.aList = oldUnits(in.Answer, zh)
	it.q, it.a = oldSetOf(oldUnits(in.Question, zh)), oldSetOf(it.aList)
	return it
}

func (it oldLexicalItem) relevance() (float64, string, bool) {
	if len(it.q) == 0 {
		return 0, ReasonNoScore + ": the question has no content words", false
	}
	cov, n, m := oldShare(it.q, it.a)
	return oldRound1(10 * cov), fmt.Sprintf("relevance: %d/%d question words in the answer", n, m), true
}

func (it oldLexicalItem) specificity() (float64, string, bool) {
	if !it.doc.hasDoc {
		return 0, ReasonNoScore + ": specificity needs the service guide", false
	}
	p, n, m := oldShare(it.a, it.doc.set)
	if p < 0 {
		return 0, "specificity: empty answer", true
	}
	dn := it.doc.nums
	if len(dn) == 0 {
		return oldRound1(10 * p), fmt.Sprintf("specificity: %d/%d answer words in the guide", n, m), true
	}
	_, matched, _ := oldShare(oldNumbers(it.a), dn)
	numPart := math.Min(1, float64(matched)/math.Min(3, float64(len(dn))))
	return oldRound1(10 * (0.7*p + 0.3*numPart)),
		fmt.Sprintf("specificity: %d/%d answer words in the guide, %d numbers agree", n, m, matched), true
}

func (it oldLexicalItem) completeness() (float64, string, bool) {
	if !it.doc.hasDoc || len(it.doc.set) == 0 {
		return 0, ReasonNoScore + ": completeness needs the service guide", false
	}
	cov, n, m := oldShare(it.doc.top, it.a)
	return oldRound1(10 * cov), fmt.Sprintf("completeness: %d/%d key guide words in the answer", n, m), true
}

func (it oldLexicalItem) quality() (float64, string, bool) {
	var sum float64
	var notes []string
	for _, f := range []func() (float64, string, bool){it.relevance, it.specificity, it.completeness} {
		v, oldNote, ok := f()
		if !ok {
			return 0, oldNote, false
		}
		sum += v
		notes = append(notes, oldNote)
	}
	base := sum / 3
	n := float64(len(it.aList))
	short := math.Min(1, n/10)
	long := 1.0
	if nd := float64(len(it.doc.list)); nd > 0 && n > 3*nd {
		long = 0.8
	}
	rep := 1.0
	if ss := textmetric.Sentences(it.answer); len(ss) > 0 {
		distinct := map[string]bool{}
		for _, s := range ss {
			distinct[s] = true
		}
		rep = float64(len(distinct)) / float64(len(ss))
	}
	return oldRound1(base * short * long * rep),
		fmt.Sprintf("quality: mean %.2f × length %.2f × padding %.2f × repetition %.2f (%s)", base, short, long, rep,
			strings.Join(notes, "; ")), true
}

// Score implements Scorer. repeat is ignored: the result is deterministic.
func (l oldLexical) Score(ctx context.Context, d Dimension, in Inputs, repeat int) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	return l.newItem(in).score(d, in), nil
}

// ScoreAll implements Batcher: the outcomes are Score's on each of dims,
// with the answer's and question's units derived once.
func (l oldLexical) ScoreAll(ctx context.Context, dims []Dimension, in Inputs) ([]Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	it := l.newItem(in)
	out := make([]Outcome, len(dims))
	for k, d := range dims {
		out[k] = it.score(d, in)
	}
	return out, nil
}

func (it oldLexicalItem) score(d Dimension, in Inputs) Outcome {
	rule := dimension.RuleNone
	if b, ok := dimension.Lookup(d.Name); ok {
		rule = b.Lexical
	}
	var v float64
	var oldNote string
	var ok bool
	switch rule {
	case dimension.RuleQuestionCoverage:
		v, oldNote, ok = it.relevance()
	case dimension.RuleGuidePrecision:
		v, oldNote, ok = it.specificity()
	case dimension.RuleGuideCoverage:
		v, oldNote, ok = it.completeness()
	case dimension.RuleOverall:
		v, oldNote, ok = it.quality()
	case dimension.RuleReferenceF1:
		v, oldNote, ok = oldCorrectness(it, in.Reference)
	case dimension.RuleContextSupport:
		v, oldNote, ok = oldFaithfulness(it, in.Contexts)
	case dimension.RuleContextRelevance:
		v, oldNote, ok = oldRelevancy(it, in.Contexts)
	default:
		return Outcome{Reason: ReasonNoScore + ": the lexical judge has no rule for dimension " + d.Name}
	}
	if !ok {
		return Outcome{Reason: oldNote}
	}
	if d.Kind == KindScore && (v < float64(d.Min) || v > float64(d.Max)) {

		return Outcome{Raw: oldNote, Reason: fmt.Sprintf("%s: lexical score %g is outside %d–%d", ReasonOutOfRange, v, d.Min, d.Max)}
	}
	return Outcome{Score: v, OK: true, Raw: "lexical " + oldNote}
}

// correctness maps the unit F1 between answer and reference onto 1–5.
func oldCorrectness(it oldLexicalItem, reference string) (float64, string, bool) {
	r := oldSetOf(oldUnits(reference, it.zh))
	if len(r) == 0 {
		return 0, ReasonNoScore + ": correctness needs a reference answer", false
	}
	recall, n, m := oldShare(r, it.a)
	precision, _, _ := oldShare(it.a, r)
	f1 := 0.0
	if precision > 0 && recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	return oldRound1(1 + 4*f1), fmt.Sprintf("correctness: F1 %.2f (%d/%d reference words in the answer)", f1, n, m), true
}

func oldContextUnits(it oldLexicalItem, contexts []string) oldUnitSet {
	return oldSetOf(oldUnits(strings.Join(contexts, "\n"), it.zh))
}

// faithfulness: YES when at least half the answer's units occur in the passages.
func oldFaithfulness(it oldLexicalItem, contexts []string) (float64, string, bool) {
	p, n, m := oldShare(it.a, oldContextUnits(it, contexts))
	if p >= 0.5 {
		return 1, fmt.Sprintf("faithfulness: YES, %d/%d answer words in the passages", n, m), true
	}
	return 0, fmt.Sprintf("faithfulness: NO, %d/%d answer words in the passages", n, m), true
}

// relevancy: YES when the answer and passages together cover half the question.
func oldRelevancy(it oldLexicalItem, contexts []string) (float64, string, bool) {
	if len(it.q) == 0 {
		return 0, ReasonNoScore + ": the question has no content words", false
	}
	both := oldContextUnits(it, contexts)
	for u := range it.a {
		both[u] = true
	}
	p, n, m := oldShare(it.q, both)
	verdict := "NO"
	v := 0.0
	if p >= 0.5 {
		verdict, v = "YES", 1
	}
	return v, fmt.Sprintf("relevancy: %s, %d/%d question words in answer and passages", verdict, n, m), true
}

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
type oldSemantic struct {
	guides    *oldMemo[oldSemanticDoc]
	questions *oldMemo[embed.Sparse] // a question is judged with each of its answers
}

// NewSemantic returns a semantic judge that embeds each service guide once
// for all the judgements that share it.
func oldNewSemantic() oldSemantic {
	return oldSemantic{guides: oldNewMemo[oldSemanticDoc](), questions: oldNewMemo[embed.Sparse]()}
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
	oldRelevanceLo, oldRelevanceHi = 0.05, 0.40
	// a sentence "matches" a sentence of the other text when their best
	// cosine is high; partial credit between the points.
	oldMatchLo, oldMatchHi = 0.25, 0.60
	// quality: the whole answer against the whole guide.
	oldAlignLo, oldAlignHi = 0.10, 0.60
	// correctness: the answer against the (short) reference answer.
	oldReferenceLo, oldReferenceHi = 0.10, 0.70
	// faithfulness: share of the answer's text that matches a passage sentence.
	oldGroundedShare = 0.5
	// relevancy: YES when the answer or a passage sentence is at least this
	// close to the question (above nine in ten unrelated pairs).
	oldQuestionClose = 0.12
	// an answer sentence repeats an earlier one above this cosine.
	oldRepeatCos = 0.9
	// thinRunes: an answer of fewer letters and digits than this is too
	// thin to be a useful reply ("见上", "请咨询").
	oldThinRunes = 20
)

func oldRamp(c, lo, hi float64) float64 { return math.Max(0, math.Min(1, (c-lo)/(hi-lo))) }

// note is a reason in both languages.
type oldNote struct{ zh, en string }

// text is how a note is stored: Chinese first, English second, as
// text.Text.Stored writes it and text.Parse reads it back.
func (n oldNote) text() string { return text.New(n.zh, n.en).Stored() }

// unscorable is an unscorable outcome's reason: the code, so that
// ReasonCode reads it, then the detail in both languages.
func oldUnscorable(code, zh, en string) string { return code + ": " + zh + langSep + en }

// sentence is one sentence with its embedding and its weight (letters and
// digits, so that punctuation and list markers do not count).
type oldSentence struct {
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
type oldEmbedder struct{ zh bool }

func (e oldEmbedder) vec(text string) embed.Sparse {
	if e.zh {
		return oldHashed.Sparse(text)
	}
	var b strings.Builder
	for _, w := range textmetric.RemoveStopwords(textmetric.TokenizeEnglish(text), false) {
		b.WriteRune(oldWordSymbol(textmetric.PorterStem(w)))
	}
	return oldHashed.Sparse(b.String())
}

// wordSymbol maps a word to one of the 65,534 code points of Supplementary
// Private Use Area-A by 32-bit FNV-1a; a collision merges two words, as the
// embedder's own buckets do.
func oldWordSymbol(w string) rune {
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		h ^= uint32(w[i])
		h *= 16777619
	}
	return rune(0xF0000 + h%0xFFFE)
}

// semanticItem holds one item's embeddings, computed once per Score call.
type oldSemanticItem struct {
	e                              oldEmbedder
	hasQuestion, hasAnswer, hasDoc bool
	q, a, d                        embed.Sparse
	aSents, dSents                 []oldSentence
	aRunes, dRunes                 float64
	judge                          oldSemantic   // its memo of guides and passages
	cross                          *oldCrossBest // answer × guide sentences, made on first use
}

var oldHashed = embed.NewHashed()

// wordRunes counts the letters and digits of s.
func oldWordRunes(s string) float64 {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return float64(n)
}

func (e oldEmbedder) sentences(text string) []oldSentence {
	var out []oldSentence
	for _, s := range textmetric.Sentences(text) {
		if w := oldWordRunes(s); w > 0 {
			v := e.vec(s)
			out = append(out, oldSentence{v, w, v.Dot(v)})
		}
	}
	return out
}

// semanticDoc is what the semantic judge derives from a service guide (or
// a retrieved passage): its vector, its sentences' vectors and its length.
// Read only once made.
type oldSemanticDoc struct {
	has   bool
	v     embed.Sparse
	sents []oldSentence
	runes float64
}

func oldNewSemanticDoc(e oldEmbedder, doc string) oldSemanticDoc {
	runes := oldWordRunes(doc)
	return oldSemanticDoc{has: runes > 0, v: e.vec(doc), sents: e.sentences(doc), runes: runes}
}

func (s oldSemantic) doc(e oldEmbedder, text string) oldSemanticDoc {
	return s.guides.get(text, e.zh, func() oldSemanticDoc { return oldNewSemanticDoc(e, text) })
}

func (s oldSemantic) newItem(in Inputs) oldSemanticItem {
	e := oldEmbedder{zh: textmetric.IsChinese(in.Question + in.Answer + in.Document)}
	it := oldSemanticItem{
		e:           e,
		hasQuestion: oldWordRunes(in.Question) > 0,
		hasAnswer:   oldWordRunes(in.Answer) > 0,
		judge:       s,
		cross:       &oldCrossBest{},
	}
	d := s.doc(e, in.Document)
	it.hasDoc, it.d, it.dSents, it.dRunes = d.has, d.v, d.sents, d.runes
	it.q = s.questions.get(in.Question, e.zh, func() embed.Sparse { return e.vec(in.Question) })
	it.a = e.vec(in.Answer)
	it.aSents = e.sentences(in.Answer)
	it.aRunes = oldWordRunes(in.Answer)
	return it
}

// bestMatch is the highest cosine of x with any of ys.
func oldBestMatch(x embed.Sparse, ys []oldSentence) float64 {
	return oldBestOf(oldSentence{v: x, nn: x.Dot(x)}, ys)
}

// bestOf is bestMatch of a sentence whose v·v is made.
func oldBestOf(x oldSentence, ys []oldSentence) float64 {
	b := 0.0
	for _, y := range ys {
		b = math.Max(b, oldCosine(x, y))
	}
	return b
}

// cosine is embed.SparseCosine(x.v, y.v), the same expression with the
// norms' dot products made once per sentence, not once per pair.
func oldCosine(x, y oldSentence) float64 {
	if x.nn == 0 || y.nn == 0 {
		return 0
	}
	return x.v.Dot(y.v) / (math.Sqrt(x.nn) * math.Sqrt(y.nn))
}

// crossBest is, for an answer's and a guide's sentences, each answer
// sentence's best cosine with a guide sentence and each guide sentence's
// best with an answer sentence: specificity reads the one, completeness
// the other, from one pass over the pairs (the cosine is symmetric to the
// last bit: Dot sums the same products in the same order).
type oldCrossBest struct {
	done       bool
	ofA, ofDoc []float64
}

func (c *oldCrossBest) make(as, ds []oldSentence) {
	if c.done {
		return
	}
	c.done = true
	c.ofA, c.ofDoc = make([]float64, len(as)), make([]float64, len(ds))
	for i, a := range as {
		for k, d := range ds {
			v := oldCosine(a, d)
			c.ofA[i] = math.Max(c.ofA[i], v)
			c.ofDoc[k] = math.Max(c.ofDoc[k], v)
		}
	}
}

func oldMatchedShare(xs, ys []oldSentence) (oldShare float64, full int) {
	return oldShareOf(xs, func(i int) float64 { return oldBestOf(xs[i], ys) })
}

// shareOf is matchedShare with each sentence's best cosine given.
func oldShareOf(xs []oldSentence, best func(i int) float64) (oldShare float64, full int) {
	var sum, total float64
	for i, x := range xs {
		m := oldRamp(best(i), oldMatchLo, oldMatchHi)
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

func oldRound1s(x float64) float64 { return math.Round(x*10) / 10 }

func (it oldSemanticItem) relevance() (float64, oldNote, string) {
	if !it.hasQuestion {
		return 0, oldNote{}, oldUnscorable(ReasonNoScore, "问题没有文字", "the question has no text")
	}

	c := math.Max(embed.SparseCosine(it.a, it.q), oldBestMatch(it.q, it.aSents))
	v := oldRound1s(10 * oldRamp(c, oldRelevanceLo, oldRelevanceHi))
	return v, oldNote{fmt.Sprintf("相关性：回答（或其最相近的一句）与问题的余弦 %.2f", c),
		fmt.Sprintf("relevance: cosine of the answer (or its closest sentence) and the question %.2f", c)}, ""
}

func (it oldSemanticItem) specificity() (float64, oldNote, string) {
	if !it.hasDoc {
		return 0, oldNote{}, oldUnscorable(ReasonNoScore, "具体性需要办事指南", "specificity needs the service guide")
	}
	it.cross.make(it.aSents, it.dSents)
	s, full := oldShareOf(it.aSents, func(i int) float64 { return it.cross.ofA[i] })
	return oldRound1s(10 * s), oldNote{
		fmt.Sprintf("具体性：回答 %d 句中 %d 句与指南某句相近，按篇幅计 %.0f %%", len(it.aSents), full, 100*s),
		fmt.Sprintf("specificity: %d of %d answer sentences close to a guide sentence, %.0f %% of the text", full, len(it.aSents), 100*s)}, ""
}

func (it oldSemanticItem) completeness() (float64, oldNote, string) {
	if !it.hasDoc {
		return 0, oldNote{}, oldUnscorable(ReasonNoScore, "完整性需要办事指南", "completeness needs the service guide")
	}
	it.cross.make(it.aSents, it.dSents)
	s, full := oldShareOf(it.dSents, func(k int) float64 { return it.cross.ofDoc[k] })
	return oldRound1s(10 * s), oldNote{
		fmt.Sprintf("完整性：指南 %d 句中 %d 句被回答覆盖，按篇幅计 %.0f %%", len(it.dSents), full, 100*s),
		fmt.Sprintf("completeness: %d of %d guide sentences covered by the answer, %.0f %% of the text", full, len(it.dSents), 100*s)}, ""
}

// quality: how closely the answer as a whole follows the guide, times what
// its own form costs: a thin reply, padding beyond twice the guide, and
// sentences that say again what an earlier one said.
func (it oldSemanticItem) quality() (float64, oldNote, string) {
	if !it.hasDoc {
		return 0, oldNote{}, oldUnscorable(ReasonNoScore, "质量需要办事指南", "quality needs the service guide")
	}
	c := embed.SparseCosine(it.a, it.d)
	align := oldRamp(c, oldAlignLo, oldAlignHi)
	thin := math.Min(1, it.aRunes/oldThinRunes)
	padding := 1.0
	if it.aRunes > 2*it.dRunes {
		padding = 0.8
	}
	repeated := 0
	for i, s := range it.aSents {
		if oldBestOf(s, it.aSents[:i]) > oldRepeatCos {
			repeated++
		}
	}
	distinct := 1.0
	if len(it.aSents) > 0 {
		distinct = 1 - float64(repeated)/float64(len(it.aSents))
	}
	return oldRound1s(10 * align * thin * padding * distinct), oldNote{
		fmt.Sprintf("质量：回答与指南的余弦 %.2f × 篇幅 %.2f × 冗长 %.2f × 不重复 %.2f", c, thin, padding, distinct),
		fmt.Sprintf("quality: cosine of answer and guide %.2f × length %.2f × padding %.2f × non-repetition %.2f", c, thin, padding, distinct)}, ""
}

// correctness maps the cosine of answer and reference onto 1–5.
func (it oldSemanticItem) oldCorrectness(reference string) (float64, oldNote, string) {
	if oldWordRunes(reference) == 0 {
		return 0, oldNote{}, oldUnscorable(ReasonNoScore, "正确性需要参考答案", "correctness needs a reference answer")
	}
	c := embed.SparseCosine(it.a, it.e.vec(reference))
	return oldRound1s(1 + 4*oldRamp(c, oldReferenceLo, oldReferenceHi)), oldNote{
		fmt.Sprintf("正确性：回答与参考答案的余弦 %.2f", c), fmt.Sprintf("correctness: cosine of answer and reference %.2f", c)}, ""
}

func (it oldSemanticItem) passageSentences(contexts []string) []oldSentence {
	var out []oldSentence
	for _, c := range contexts {
		out = append(out, it.judge.doc(it.e, c).sents...)
	}
	return out
}

// faithfulness: YES when at least half the answer's text matches a
// sentence of the retrieved passages.
func (it oldSemanticItem) oldFaithfulness(contexts []string) (float64, oldNote, string) {
	ps := it.passageSentences(contexts)
	if len(ps) == 0 {
		return 0, oldNote{}, oldUnscorable(ReasonNoScore, "忠实性需要检索段落", "faithfulness needs the retrieved passages")
	}
	s, _ := oldMatchedShare(it.aSents, ps)
	if s >= oldGroundedShare {
		return 1, oldNote{fmt.Sprintf("忠实性：是，回答 %.0f %% 的篇幅与检索段落相近", 100*s),
			fmt.Sprintf("faithfulness: YES, %.0f %% of the answer close to the passages", 100*s)}, ""
	}
	return 0, oldNote{fmt.Sprintf("忠实性：否，回答仅 %.0f %% 的篇幅与检索段落相近", 100*s),
		fmt.Sprintf("faithfulness: NO, only %.0f %% of the answer close to the passages", 100*s)}, ""
}

// relevancy: YES when the answer or a passage sentence is near the question.
func (it oldSemanticItem) oldRelevancy(contexts []string) (float64, oldNote, string) {
	if !it.hasQuestion {
		return 0, oldNote{}, oldUnscorable(ReasonNoScore, "问题没有文字", "the question has no text")
	}
	c := math.Max(embed.SparseCosine(it.a, it.q), oldBestMatch(it.q, it.aSents))
	c = math.Max(c, oldBestMatch(it.q, it.passageSentences(contexts)))
	if c >= oldQuestionClose {
		return 1, oldNote{fmt.Sprintf("相关度：是，回答或检索段落与问题的最高余弦 %.2f", c),
			fmt.Sprintf("relevancy: YES, best cosine of answer or passage with the question %.2f", c)}, ""
	}
	return 0, oldNote{fmt.Sprintf("相关度：否，回答或检索段落与问题的最高余弦仅 %.2f", c),
		fmt.Sprintf("relevancy: NO, best cosine of answer or passage with the question only %.2f", c)}, ""
}

// Score implements Scorer. repeat is ignored: the result is deterministic.
// An answer with no letters or digits is unscorable, never 0: there is
// nothing to compare, and a 0 would pull the means down silently.
func (s oldSemantic) Score(ctx context.Context, d Dimension, in Inputs, repeat int) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	if oldSemanticRule(d) == dimension.RuleNone {
		return oldSemanticItem{}.score(d, in), nil
	}
	return s.newItem(in).score(d, in), nil
}

// ScoreAll implements Batcher: the outcomes are Score's on each of dims,
// with the answer and question embedded once.
func (s oldSemantic) ScoreAll(ctx context.Context, dims []Dimension, in Inputs) ([]Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	it := s.newItem(in)
	out := make([]Outcome, len(dims))
	for k, d := range dims {
		out[k] = it.score(d, in)
	}
	return out, nil
}

func oldSemanticRule(d Dimension) dimension.Rule {
	if b, ok := dimension.Lookup(d.Name); ok {
		return b.Semantic
	}
	return dimension.RuleNone
}

func (it oldSemanticItem) score(d Dimension, in Inputs) Outcome {
	rule := oldSemanticRule(d)
	if rule == dimension.RuleNone {
		return Outcome{Reason: oldUnscorable(ReasonNoScore, "语义评审没有维度 "+d.Name+" 的规则", "the semantic judge has no rule for dimension "+d.Name)}
	}
	if !it.hasAnswer {
		return Outcome{Reason: oldUnscorable(ReasonNoScore, "回答为空", "the answer is empty")}
	}
	var v float64
	var n oldNote
	var bad string
	switch rule {
	case dimension.RuleQuestionSimilarity:
		v, n, bad = it.relevance()
	case dimension.RuleGuideGrounding:
		v, n, bad = it.specificity()
	case dimension.RuleGuideSentenceCover:
		v, n, bad = it.completeness()
	case dimension.RuleGuideAlignment:
		v, n, bad = it.quality()
	case dimension.RuleReferenceSimilarity:
		v, n, bad = it.oldCorrectness(in.Reference)
	case dimension.RulePassageGrounding:
		v, n, bad = it.oldFaithfulness(in.Contexts)
	case dimension.RulePassageSimilarity:
		v, n, bad = it.oldRelevancy(in.Contexts)
	default:
		return Outcome{Reason: oldUnscorable(ReasonNoScore, "语义评审不认识规则 "+string(rule), "the semantic judge does not know rule "+string(rule))}
	}
	if bad != "" {
		return Outcome{Reason: bad}
	}
	if d.Kind == KindScore && (v < float64(d.Min) || v > float64(d.Max)) {

		return Outcome{Raw: n.text(), Reason: oldUnscorable(ReasonOutOfRange, fmt.Sprintf("语义评分 %g 超出 %d–%d", v, d.Min, d.Max),
			fmt.Sprintf("semantic score %g is outside %d–%d", v, d.Min, d.Max))}
	}
	return Outcome{Score: v, OK: true, Raw: "semantic " + n.text()}
}

// memoLimit bounds a memo: past it the memo starts again empty, so a run
// over any number of guides keeps at most this many derived guides.
const oldMemoLimit = 8192

// memoKey is a text and the language rules it was read under.
type oldMemoKey struct {
	text string
	zh   bool
}

// memo remembers what an offline judge derives from a text that many
// judgements share — a service guide is the gold document of many
// questions, and each answer is scored on every dimension — so that
// 100,000 questions over 2,000 guides derive each guide once, not once a
// judgement. The derived value is read only once made. Safe for
// concurrent use; a nil memo derives every time.
type oldMemo[T any] struct {
	mu sync.Mutex
	m  map[oldMemoKey]T
}

func oldNewMemo[T any]() *oldMemo[T] { return &oldMemo[T]{m: map[oldMemoKey]T{}} }

// get returns what derive made of text, deriving it on first use. The key
// holds the string itself, not a copy: a guide's text is shared already.
func (m *oldMemo[T]) get(text string, zh bool, derive func() T) T {
	if m == nil {
		return derive()
	}
	k := oldMemoKey{text, zh}
	m.mu.Lock()
	v, ok := m.m[k]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = derive()
	m.mu.Lock()
	if len(m.m) >= oldMemoLimit {
		clear(m.m)
	}
	m.m[k] = v
	m.mu.Unlock()
	return v
}

// Oracles returns the oracle judges for package judge_test (which can read
// the sample workbook, as this package cannot without an import cycle): the
// lexical and semantic judges of 244135c, each as a zero value and with its
// memo.
func Oracles() (lexical, lexicalMemo, semantic, semanticMemo Batcher) {
	return oldLexical{}, oldNewLexical(), oldSemantic{}, oldNewSemantic()
}
