package judge

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/text"
	"cubeworkbench/core/textmetric"
)

// LexicalName is the judge name the offline baseline reports under.
const LexicalName = "lexical"

// keyUnits is how many of the document's most frequent units stand for its
// content when measuring completeness.
const keyUnits = 30

// Lexical is the offline baseline judge. It is not an LLM: it measures word
// overlap between the answer and the question, the gold document, the
// reference answer or the retrieved passages, and maps it onto each
// dimension's scale. Deterministic, instant and free; a sanity baseline, not
// a substitute for a judge that reads (see MethodNote).
//
// The zero value works; NewLexical's remembers each guide's units across
// judgements, which a run over many questions needs (ScoreAll).
type Lexical struct {
	lex *atomic.Pointer[lexicon]
}

// NewLexical returns a lexical judge that derives each service guide's
// and question's units once for all the judgements that share them.
func NewLexical() Lexical {
	l := Lexical{lex: &atomic.Pointer[lexicon]{}}
	l.lex.Store(newLexicon(true))
	return l
}

// lexicon is the judge's current lexicon; the zero value's is new each
// time. A lexicon whose vocabulary is full is replaced for the judgements
// that follow; those under way finish with the one they hold.
func (l Lexical) lexicon() *lexicon {
	if l.lex == nil {
		return newLexicon(false)
	}
	return l.lex.Load()
}

func (l Lexical) retire(lx *lexicon) {
	if l.lex != nil && lx.full() {
		l.lex.CompareAndSwap(lx, newLexicon(true))
	}
}

var _ Scorer = Lexical{}

// MethodNote explains the lexical judge for the report's Method sheet.
func MethodNote() text.Text {
	return text.New("lexical（词汇重叠）评分器不是大语言模型，而是离线基线：按回答与问题、办事指南（或参考答案、检索段落）"+
		"之间的词汇重叠计算分数（中文用相邻汉字二元组，英文用去停用词后的单词）。"+
		"相关性 = 问题词在回答中的覆盖率；具体性 = 回答词见于指南的比例，并计入与指南一致的数字；"+
		"完整性 = 指南高频词在回答中的覆盖率；质量 = 三者均值，对过短、过长或重复的回答扣分。"+
		"它不理解语义，分数不能与大模型的评分直接比较，只用于无模型时的演示与校验。",
		"The lexical judge is not an LLM but an offline baseline: it scores by word overlap between the answer and "+
			"the question, the service guide (or the reference answer, or the retrieved passages), using adjacent Han "+
			"character pairs for Chinese and stopword-free words for English. Relevance = share of question words found "+
			"in the answer; specificity = share of answer words found in the guide, plus numbers that agree with it; "+
			"completeness = share of the guide's most frequent words covered; quality = their mean, reduced for very "+
			"short, very long or repetitive answers. It does not understand meaning; its scores are not comparable with "+
			"an LLM judge's and serve demos and checks without a model.")
}

// units splits text into the overlap units: for Chinese, pairs of adjacent
// Han characters (single characters match too easily) and whole non-Han
// tokens; for English, words. Stopwords are dropped. The units are keys
// (units.go), derived by lexicon.units in one pass over the text.

// share is |a ∩ b| / |a| with the counts, -1 when a is empty; a and b are
// sorted sets of unit keys.
func share(a, b []uint64) (float64, int, int) {
	if len(a) == 0 {
		return -1, 0, 0
	}
	n := textmetric.SortedOverlap(a, b)
	return float64(n) / float64(len(a)), n, len(a)
}

// topUnits returns the n most frequent units, ties broken by first
// occurrence, as a sorted set.
func topUnits(us []uint64, n int) []uint64 {
	type seen struct{ count, first int }
	stats := make(map[uint64]seen, len(us))
	for i, u := range us {
		s, ok := stats[u]
		if !ok {
			s.first = i
		}
		s.count++
		stats[u] = s
	}
	keys := make([]uint64, 0, len(stats))
	for u := range stats {
		keys = append(keys, u)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := stats[keys[i]], stats[keys[j]]
		if a.count != b.count {
			return a.count > b.count
		}
		return a.first < b.first
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	return sortedSet(keys)
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// lexicalItem holds one answer's units, derived once per Score or ScoreAll
// call, and each rule's result once made (quality reads the other three);
// the guide's units come from lexicalDoc, the question's from the memo.
type lexicalItem struct {
	lex     *lexicon
	zh      bool
	q, a    []uint64 // sorted sets
	aLen    int      // the answer's units with repeats
	answer  string
	doc     *lexicalDoc
	scratch *lexicalScratch
	rules   [3]ruleResult // relevance, specificity, completeness
	ctx     []uint64      // the passages' units, made on first use
	ctxDone bool
}

// ruleResult is a rule's score, or the reason it has none (ok false); its
// note is in the scratch's notes[k].
type ruleResult struct {
	done   bool
	v      float64
	reason string
	ok     bool
}

// lexicalScratch is one judgement's buffers, reused across judgements.
type lexicalScratch struct {
	a, other []uint64
	buf      []byte
	sents    []string // the answer's sentences, for quality
	item     lexicalItem
	// notes: relevance's, specificity's and completeness's (quality
	// quotes them), then the note of any other rule at work.
	notes [4]pair
	cache noteCache
}

var lexicalScratches = sync.Pool{New: func() any { return new(lexicalScratch) }}

// lexicalDoc is what the lexical judge derives from a service guide: its
// units' count, their set, its key units and its numbers. Read only once
// made.
type lexicalDoc struct {
	hasDoc bool
	n      int      // units, with repeats
	set    []uint64 // sorted
	top    []uint64 // the keyUnits most frequent units, sorted
	nums   []uint64 // the numbers of set, sorted
}

func (lx *lexicon) newLexicalDoc(doc string, zh bool) lexicalDoc {
	var buf []byte
	list := lx.units(nil, &buf, doc, zh)
	d := lexicalDoc{hasDoc: strings.TrimSpace(doc) != "", n: len(list)}
	d.top = topUnits(list, keyUnits)
	d.set = sortedSet(list)
	for _, u := range d.set {
		if isNumberKey(u) {
			d.nums = append(d.nums, u)
		}
	}
	return d
}

func (lx *lexicon) questionUnits(q string, zh bool) []uint64 {
	var buf []byte
	return sortedSet(lx.units(nil, &buf, q, zh))
}

func (lx *lexicon) newItem(in Inputs, sc *lexicalScratch) *lexicalItem {
	g, q := lx.guides.entry(in.Document), lx.questions.entry(in.Question)
	zh := isChinese(in.Question, in.Answer, in.Document, q.facts, factsOf(in.Answer), g.facts)
	it := &sc.item
	*it = lexicalItem{lex: lx, zh: zh, answer: in.Answer, scratch: sc}
	it.doc = g.get(in.Document, zh, lx.newLexicalDoc)
	it.q = *q.get(in.Question, zh, lx.questionUnits)
	sc.a = lx.units(sc.a[:0], &sc.buf, in.Answer, zh)
	it.aLen = len(sc.a)
	it.a = sortedSet(sc.a)
	return it
}

// rule returns rule k's result, made on first use, its note in
// it.scratch.notes[k].
func (it *lexicalItem) rule(k int, f func(*pair) (float64, string, bool)) (float64, string, bool) {
	r := &it.rules[k]
	if !r.done {
		n := &it.scratch.notes[k]
		n.reset()
		r.v, r.reason, r.ok = f(n)
		r.done = true
	}
	return r.v, r.reason, r.ok
}

// The rules below return a score, or the reason there is none (ok false),
// and write their note into n.

func (it *lexicalItem) relevance() (float64, string, bool) { return it.rule(0, it.relevanceRule) }

func (it *lexicalItem) specificity() (float64, string, bool) { return it.rule(1, it.specificityRule) }

func (it *lexicalItem) completeness() (float64, string, bool) { return it.rule(2, it.completenessRule) }

// appendOf appends "<n>/<m>", as the English notes write a share.
func appendOf(b []byte, n, m int) []byte { return appendInt(append(appendInt(b, n), '/'), m) }

func (it *lexicalItem) relevanceRule(note *pair) (float64, string, bool) {
	if len(it.q) == 0 {
		return 0, StoredReason(ReasonNoScore, "问题中没有实词", "the question has no content words"), false
	}
	cov, n, m := share(it.q, it.a)
	note.zh = appendInt(append(note.zh, "相关性：问题的 "...), m)
	note.zh = append(appendInt(append(note.zh, " 个词中有 "...), n), " 个出现在回答中"...)
	note.en = append(appendOf(append(note.en, "relevance: "...), n, m), " question words in the answer"...)
	return round1(10 * cov), "", true
}

func (it *lexicalItem) specificityRule(note *pair) (float64, string, bool) {
	if !it.doc.hasDoc {
		return 0, StoredReason(ReasonNoScore, "具体性需要办事指南", "specificity needs the service guide"), false
	}
	p, n, m := share(it.a, it.doc.set)
	if p < 0 {
		note.set("具体性：回答为空", "specificity: empty answer")
		return 0, "", true
	}
	note.zh = appendInt(append(note.zh, "具体性：回答的 "...), m)
	note.zh = append(appendInt(append(note.zh, " 个词中有 "...), n), " 个出现在指南中"...)
	note.en = append(appendOf(append(note.en, "specificity: "...), n, m), " answer words in the guide"...)
	dn := it.doc.nums
	if len(dn) == 0 {
		return round1(10 * p), "", true
	}
	matched := textmetric.SortedOverlap(it.a, dn) // the answer's numbers that are the guide's
	numPart := math.Min(1, float64(matched)/math.Min(3, float64(len(dn))))
	note.zh = append(appendInt(append(note.zh, "，"...), matched), " 个数字一致"...)
	note.en = append(appendInt(append(note.en, ", "...), matched), " numbers agree"...)
	return round1(10 * (0.7*p + 0.3*numPart)), "", true
}

func (it *lexicalItem) completenessRule(note *pair) (float64, string, bool) {
	if !it.doc.hasDoc || len(it.doc.set) == 0 {
		return 0, StoredReason(ReasonNoScore, "完整性需要办事指南", "completeness needs the service guide"), false
	}
	cov, n, m := share(it.doc.top, it.a)
	note.zh = appendInt(append(note.zh, "完整性：指南的 "...), m)
	note.zh = append(appendInt(append(note.zh, " 个关键词中有 "...), n), " 个出现在回答中"...)
	note.en = append(appendOf(append(note.en, "completeness: "...), n, m), " key guide words in the answer"...)
	return round1(10 * cov), "", true
}

// quality quotes the other three rules' notes.
func (it *lexicalItem) quality(note *pair) (float64, string, bool) {
	var sum float64
	for _, f := range [...]func() (float64, string, bool){it.relevance, it.specificity, it.completeness} {
		v, reason, ok := f()
		if !ok {
			return 0, reason, false
		}
		sum += v
	}
	base := sum / 3
	n := float64(it.aLen)
	short := math.Min(1, n/10) // fewer than ten content units: too thin to be useful
	long := 1.0
	if nd := float64(it.doc.n); nd > 0 && n > 3*nd {
		long = 0.8 // three times the guide: padding
	}
	rep := 1.0
	sc := it.scratch
	if sc.sents = textmetric.AppendSentences(sc.sents[:0], it.answer); len(sc.sents) > 0 {
		rep = float64(distinct(sc.sents)) / float64(len(sc.sents))
	}
	clear(sc.sents) // hold on to no answer
	note.zh = appendFixed(append(note.zh, "表达质量：均值 "...), base, 2)
	note.zh = appendFixed(append(note.zh, " × 长度系数 "...), short, 2)
	note.zh = appendFixed(append(note.zh, " × 冗长系数 "...), long, 2)
	note.zh = appendFixed(append(note.zh, " × 重复系数 "...), rep, 2)
	note.en = appendFixed(append(note.en, "quality: mean "...), base, 2)
	note.en = appendFixed(append(note.en, " × length "...), short, 2)
	note.en = appendFixed(append(note.en, " × padding "...), long, 2)
	note.en = appendFixed(append(note.en, " × repetition "...), rep, 2)
	note.zh, note.en = append(note.zh, "（"...), append(note.en, " ("...)
	for k, part := range it.scratch.notes[:3] {
		if k > 0 {
			note.zh, note.en = append(note.zh, "；"...), append(note.en, "; "...)
		}
		note.zh, note.en = appendIn(note.zh, part.zh, part.en), appendIn(note.en, part.en, part.zh)
	}
	note.zh, note.en = append(note.zh, "）"...), append(note.en, ")"...)
	return round1(base * short * long * rep), "", true
}

// appendIn appends a note in one language, the other when it has none (as
// text.Text.In reads one).
func appendIn(b, in, other []byte) []byte {
	if len(in) > 0 {
		return append(b, in...)
	}
	return append(b, other...)
}

// distinct is the number of distinct strings of ss, which it sorts.
func distinct(ss []string) int {
	slices.Sort(ss)
	return len(slices.Compact(ss))
}

// Score implements Scorer. repeat is ignored: the result is deterministic.
func (l Lexical) Score(ctx context.Context, d Dimension, in Inputs, repeat int) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	lx := l.lexicon()
	sc := lexicalScratches.Get().(*lexicalScratch)
	out := lx.newItem(in, sc).score(d, in)
	sc.item = lexicalItem{}
	lexicalScratches.Put(sc)
	l.retire(lx)
	return out, nil
}

// ScoreAll implements Batcher: the outcomes are Score's on each of dims,
// with the answer's and question's units derived once.
func (l Lexical) ScoreAll(ctx context.Context, dims []Dimension, in Inputs) ([]Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lx := l.lexicon()
	sc := lexicalScratches.Get().(*lexicalScratch)
	it := lx.newItem(in, sc)
	out := make([]Outcome, len(dims))
	for k, d := range dims {
		out[k] = it.score(d, in)
	}
	sc.item = lexicalItem{} // hold on to no guide or answer
	lexicalScratches.Put(sc)
	l.retire(lx)
	return out, nil
}

func (it *lexicalItem) score(d Dimension, in Inputs) Outcome {
	rule := dimension.RuleNone
	if b, ok := dimension.Lookup(d.Name); ok {
		rule = b.Lexical
	}
	var v float64
	var reason string
	var ok bool
	sc := it.scratch
	note := &sc.notes[3]
	note.reset()
	switch rule {
	case dimension.RuleQuestionCoverage:
		v, reason, ok = it.relevance()
		note = &sc.notes[0]
	case dimension.RuleGuidePrecision:
		v, reason, ok = it.specificity()
		note = &sc.notes[1]
	case dimension.RuleGuideCoverage:
		v, reason, ok = it.completeness()
		note = &sc.notes[2]
	case dimension.RuleOverall:
		v, reason, ok = it.quality(note)
	case dimension.RuleReferenceF1:
		v, reason, ok = correctness(it, in.Reference, note)
	case dimension.RuleContextSupport:
		v, reason, ok = faithfulness(it, in.Contexts, note)
	case dimension.RuleContextRelevance:
		v, reason, ok = relevancy(it, in.Contexts, note)
	default:
		return Outcome{Reason: StoredReason(ReasonNoScore, "词汇基线评审没有维度“"+d.Name+"”的规则", "the lexical judge has no rule for dimension "+d.Name)}
	}
	if !ok {
		return Outcome{Reason: reason}
	}
	return sc.cache.outcome(LexicalName, lexicalScore, d, v, note)
}

// correctness maps the unit F1 between answer and reference onto 1–5.
func correctness(it *lexicalItem, reference string, note *pair) (float64, string, bool) {
	sc := it.scratch
	sc.other = it.lex.units(sc.other[:0], &sc.buf, reference, it.zh)
	r := sortedSet(sc.other)
	if len(r) == 0 {
		return 0, StoredReason(ReasonNoScore, "正确性需要参考答案", "correctness needs a reference answer"), false
	}
	recall, n, m := share(r, it.a)
	precision, _, _ := share(it.a, r)
	f1 := 0.0
	if precision > 0 && recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	note.zh = appendFixed(append(note.zh, "正确性：F1 "...), f1, 2)
	note.zh = appendInt(append(note.zh, "（参考答案的 "...), m)
	note.zh = append(appendInt(append(note.zh, " 个词中有 "...), n), " 个出现在回答中）"...)
	note.en = appendFixed(append(note.en, "correctness: F1 "...), f1, 2)
	note.en = append(appendOf(append(note.en, " ("...), n, m), " reference words in the answer)"...)
	return round1(1 + 4*f1), "", true
}

// contextUnits is the set of the passages' units, joined by line breaks.
func contextUnits(it *lexicalItem, contexts []string) []uint64 {
	if !it.ctxDone {
		it.ctx = sortedSet(it.lex.units(nil, &it.scratch.buf, strings.Join(contexts, "\n"), it.zh))
		it.ctxDone = true
	}
	return it.ctx
}

// faithfulness: YES when at least half the answer's units occur in the passages.
func faithfulness(it *lexicalItem, contexts []string, note *pair) (float64, string, bool) {
	p, n, m := share(it.a, contextUnits(it, contexts))
	v, zh, en := 0.0, "忠实性：否，回答的 ", "faithfulness: NO, "
	if p >= 0.5 {
		v, zh, en = 1, "忠实性：是，回答的 ", "faithfulness: YES, "
	}
	note.zh = appendInt(append(note.zh, zh...), m)
	note.zh = append(appendInt(append(note.zh, " 个词中有 "...), n), " 个出现在检索段落中"...)
	note.en = append(appendOf(append(note.en, en...), n, m), " answer words in the passages"...)
	return v, "", true
}

// relevancy: YES when the answer and passages together cover half the question.
func relevancy(it *lexicalItem, contexts []string, note *pair) (float64, string, bool) {
	if len(it.q) == 0 {
		return 0, StoredReason(ReasonNoScore, "问题中没有实词", "the question has no content words"), false
	}
	ctx := contextUnits(it, contexts)
	n, m := 0, len(it.q) // share of the question in answer ∪ passages
	for _, u := range it.q {
		if contains(it.a, u) || contains(ctx, u) {
			n++
		}
	}
	p := float64(n) / float64(m)
	verdict, zh := "NO", "否"
	v := 0.0
	if p >= 0.5 {
		verdict, zh, v = "YES", "是", 1
	}
	note.zh = appendInt(append(append(append(note.zh, "相关度："...), zh...), "，问题的 "...), m)
	note.zh = append(appendInt(append(note.zh, " 个词中有 "...), n), " 个出现在回答或检索段落中"...)
	note.en = append(appendOf(append(append(append(note.en, "relevancy: "...), verdict...), ", "...), n, m), " question words in answer and passages"...)
	return v, "", true
}
