package judge

import (
	"context"
	"fmt"
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
func MethodNote(lang string) string {
	if lang == "zh" {
		return "lexical（词汇重叠）评分器不是大语言模型，而是离线基线：按回答与问题、办事指南（或参考答案、检索段落）" +
			"之间的词汇重叠计算分数（中文用相邻汉字二元组，英文用去停用词后的单词）。" +
			"相关性 = 问题词在回答中的覆盖率；具体性 = 回答词见于指南的比例，并计入与指南一致的数字；" +
			"完整性 = 指南高频词在回答中的覆盖率；质量 = 三者均值，对过短、过长或重复的回答扣分。" +
			"它不理解语义，分数不能与大模型评委的分数直接比较，只用于无模型时的演示与校验。"
	}
	return "The lexical judge is not an LLM but an offline baseline: it scores by word overlap between the answer and " +
		"the question, the service guide (or the reference answer, or the retrieved passages), using adjacent Han " +
		"character pairs for Chinese and stopword-free words for English. Relevance = share of question words found " +
		"in the answer; specificity = share of answer words found in the guide, plus numbers that agree with it; " +
		"completeness = share of the guide's most frequent words covered; quality = their mean, reduced for very " +
		"short, very long or repetitive answers. It does not understand meaning; its scores are not comparable with " +
		"an LLM judge's and serve demos and checks without a model."
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

type ruleResult struct {
	done bool
	v    float64
	note string
	ok   bool
}

// lexicalScratch is one judgement's buffers, reused across judgements.
type lexicalScratch struct {
	a, other []uint64
	buf      []byte
	item     lexicalItem
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

// rule returns rule k's result, made on first use.
func (it *lexicalItem) rule(k int, f func() (float64, string, bool)) (float64, string, bool) {
	r := &it.rules[k]
	if !r.done {
		r.v, r.note, r.ok = f()
		r.done = true
	}
	return r.v, r.note, r.ok
}

func (it *lexicalItem) relevance() (float64, string, bool) { return it.rule(0, it.relevanceRule) }

func (it *lexicalItem) specificity() (float64, string, bool) { return it.rule(1, it.specificityRule) }

func (it *lexicalItem) completeness() (float64, string, bool) { return it.rule(2, it.completenessRule) }

func (it *lexicalItem) relevanceRule() (float64, string, bool) {
	if len(it.q) == 0 {
		return 0, StoredReason(ReasonNoScore, "问题中没有实词", "the question has no content words"), false
	}
	cov, n, m := share(it.q, it.a)
	return round1(10 * cov), note{fmt.Sprintf("相关性：问题的 %d 个词中有 %d 个出现在回答中", m, n), fmt.Sprintf("relevance: %d/%d question words in the answer", n, m)}.text(), true
}

func (it *lexicalItem) specificityRule() (float64, string, bool) {
	if !it.doc.hasDoc {
		return 0, StoredReason(ReasonNoScore, "具体性需要办事指南", "specificity needs the service guide"), false
	}
	p, n, m := share(it.a, it.doc.set)
	if p < 0 {
		return 0, note{"具体性：回答为空", "specificity: empty answer"}.text(), true
	}
	dn := it.doc.nums
	if len(dn) == 0 {
		return round1(10 * p), note{fmt.Sprintf("具体性：回答的 %d 个词中有 %d 个出现在指南中", m, n), fmt.Sprintf("specificity: %d/%d answer words in the guide", n, m)}.text(), true
	}
	matched := textmetric.SortedOverlap(it.a, dn) // the answer's numbers that are the guide's
	numPart := math.Min(1, float64(matched)/math.Min(3, float64(len(dn))))
	return round1(10 * (0.7*p + 0.3*numPart)),
		note{fmt.Sprintf("具体性：回答的 %d 个词中有 %d 个出现在指南中，%d 个数字一致", m, n, matched), fmt.Sprintf("specificity: %d/%d answer words in the guide, %d numbers agree", n, m, matched)}.text(), true
}

func (it *lexicalItem) completenessRule() (float64, string, bool) {
	if !it.doc.hasDoc || len(it.doc.set) == 0 {
		return 0, StoredReason(ReasonNoScore, "完整性需要办事指南", "completeness needs the service guide"), false
	}
	cov, n, m := share(it.doc.top, it.a)
	return round1(10 * cov), note{fmt.Sprintf("完整性：指南的 %d 个关键词中有 %d 个出现在回答中", m, n), fmt.Sprintf("completeness: %d/%d key guide words in the answer", n, m)}.text(), true
}

func (it *lexicalItem) quality() (float64, string, bool) {
	var sum float64
	var notes [3]text.Text
	for k, f := range [...]func() (float64, string, bool){it.relevance, it.specificity, it.completeness} {
		v, n, ok := f()
		if !ok {
			return 0, n, false
		}
		sum += v
		notes[k] = text.Parse(n)
	}
	base := sum / 3
	n := float64(it.aLen)
	short := math.Min(1, n/10) // fewer than ten content units: too thin to be useful
	long := 1.0
	if nd := float64(it.doc.n); nd > 0 && n > 3*nd {
		long = 0.8 // three times the guide: padding
	}
	rep := 1.0
	if ss := textmetric.Sentences(it.answer); len(ss) > 0 {
		rep = float64(distinct(ss)) / float64(len(ss))
	}
	parts := text.JoinWith(notes[:], text.New("；", "; "))
	return round1(base * short * long * rep), note{
		fmt.Sprintf("表达质量：均值 %.2f × 长度系数 %.2f × 冗长系数 %.2f × 重复系数 %.2f（%s）", base, short, long, rep, parts.ZH),
		fmt.Sprintf("quality: mean %.2f × length %.2f × padding %.2f × repetition %.2f (%s)", base, short, long, rep, parts.EN)}.text(), true
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
	var note string
	var ok bool
	switch rule {
	case dimension.RuleQuestionCoverage:
		v, note, ok = it.relevance()
	case dimension.RuleGuidePrecision:
		v, note, ok = it.specificity()
	case dimension.RuleGuideCoverage:
		v, note, ok = it.completeness()
	case dimension.RuleOverall:
		v, note, ok = it.quality()
	case dimension.RuleReferenceF1:
		v, note, ok = correctness(it, in.Reference)
	case dimension.RuleContextSupport:
		v, note, ok = faithfulness(it, in.Contexts)
	case dimension.RuleContextRelevance:
		v, note, ok = relevancy(it, in.Contexts)
	default:
		return Outcome{Reason: StoredReason(ReasonNoScore, "词汇基线评审没有维度“"+d.Name+"”的规则", "the lexical judge has no rule for dimension "+d.Name)}
	}
	if !ok {
		return Outcome{Reason: note}
	}
	if d.Kind == KindScore && (v < float64(d.Min) || v > float64(d.Max)) {
		// An edited template may change the scale; the rules above do not follow it.
		return Outcome{Raw: note, Reason: StoredReason(ReasonOutOfRange, fmt.Sprintf("词汇基线得分 %g 超出 %d–%d", v, d.Min, d.Max), fmt.Sprintf("lexical score %g is outside %d–%d", v, d.Min, d.Max))}
	}
	return Outcome{Score: v, OK: true, Raw: "lexical " + note}
}

// correctness maps the unit F1 between answer and reference onto 1–5.
func correctness(it *lexicalItem, reference string) (float64, string, bool) {
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
	return round1(1 + 4*f1), note{fmt.Sprintf("正确性：F1 %.2f（参考答案的 %d 个词中有 %d 个出现在回答中）", f1, m, n), fmt.Sprintf("correctness: F1 %.2f (%d/%d reference words in the answer)", f1, n, m)}.text(), true
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
func faithfulness(it *lexicalItem, contexts []string) (float64, string, bool) {
	p, n, m := share(it.a, contextUnits(it, contexts))
	if p >= 0.5 {
		return 1, note{fmt.Sprintf("忠实性：是，回答的 %d 个词中有 %d 个出现在检索段落中", m, n), fmt.Sprintf("faithfulness: YES, %d/%d answer words in the passages", n, m)}.text(), true
	}
	return 0, note{fmt.Sprintf("忠实性：否，回答的 %d 个词中有 %d 个出现在检索段落中", m, n), fmt.Sprintf("faithfulness: NO, %d/%d answer words in the passages", n, m)}.text(), true
}

// relevancy: YES when the answer and passages together cover half the question.
func relevancy(it *lexicalItem, contexts []string) (float64, string, bool) {
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
	return v, note{fmt.Sprintf("相关度：%s，问题的 %d 个词中有 %d 个出现在回答或检索段落中", zh, m, n), fmt.Sprintf("relevancy: %s, %d/%d question words in answer and passages", verdict, n, m)}.text(), true
}
