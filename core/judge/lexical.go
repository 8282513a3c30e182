package judge

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

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
	guides *memo[lexicalDoc]
}

// NewLexical returns a lexical judge that derives each service guide's
// units once for all the judgements that share it.
func NewLexical() Lexical { return Lexical{guides: newMemo[lexicalDoc]()} }

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

func isStopword(tok string, zh bool) bool {
	return textmetric.IsStopword(tok, zh)
}

func isHan(tok string) bool {
	r, _ := utf8.DecodeRuneInString(tok)
	return unicode.Is(unicode.Han, r)
}

// units splits text into the overlap units: for Chinese, pairs of adjacent
// Han characters (single characters match too easily) and whole non-Han
// tokens; for English, words. Stopwords are dropped.
func units(text string, zh bool) []string {
	if !zh {
		return textmetric.RemoveStopwords(textmetric.TokenizeEnglish(text), false)
	}
	toks := textmetric.TokenizeChinese(text)
	var out []string
	for i, t := range toks {
		if !isHan(t) {
			if !isStopword(t, true) {
				out = append(out, t)
			}
			continue
		}
		if i+1 < len(toks) && isHan(toks[i+1]) {
			bi := t + toks[i+1]
			if !isStopword(t, true) && !isStopword(toks[i+1], true) && !isStopword(bi, true) {
				out = append(out, bi)
			}
		}
	}
	return out
}

type unitSet map[string]bool

func setOf(us []string) unitSet {
	s := make(unitSet, len(us))
	for _, u := range us {
		s[u] = true
	}
	return s
}

// share is |a ∩ b| / |a| with the counts, -1 when a is empty.
func share(a, b unitSet) (float64, int, int) {
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

func isNumber(u string) bool {
	return u != "" && strings.IndexFunc(u, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' }) < 0
}

func numbers(s unitSet) unitSet {
	out := unitSet{}
	for u := range s {
		if isNumber(u) {
			out[u] = true
		}
	}
	return out
}

// topUnits returns the n most frequent units, ties broken by first occurrence.
func topUnits(us []string, n int) unitSet {
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
	return setOf(keys)
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// lexicalItem holds one answer's units, computed once per Score or
// ScoreAll call; the guide's come from lexicalDoc.
type lexicalItem struct {
	zh     bool
	q, a   unitSet
	aList  []string
	answer string
	doc    lexicalDoc
}

// lexicalDoc is what the lexical judge derives from a service guide: its
// units, their set, its key units and its numbers. Read only once made.
type lexicalDoc struct {
	hasDoc bool
	list   []string
	set    unitSet
	top    unitSet // the keyUnits most frequent units
	nums   unitSet
}

func newLexicalDoc(doc string, zh bool) lexicalDoc {
	d := lexicalDoc{hasDoc: strings.TrimSpace(doc) != "", list: units(doc, zh)}
	d.set = setOf(d.list)
	d.top = topUnits(d.list, keyUnits)
	d.nums = numbers(d.set)
	return d
}

func (l Lexical) newItem(in Inputs) lexicalItem {
	zh := textmetric.IsChinese(in.Question + in.Answer + in.Document)
	it := lexicalItem{zh: zh, answer: in.Answer}
	it.doc = l.guides.get(in.Document, zh, func() lexicalDoc { return newLexicalDoc(in.Document, zh) })
	it.aList = units(in.Answer, zh)
	it.q, it.a = setOf(units(in.Question, zh)), setOf(it.aList)
	return it
}

func (it lexicalItem) relevance() (float64, string, bool) {
	if len(it.q) == 0 {
		return 0, StoredReason(ReasonNoScore, "问题中没有实词", "the question has no content words"), false
	}
	cov, n, m := share(it.q, it.a)
	return round1(10 * cov), note{fmt.Sprintf("相关性：问题的 %d 个词中有 %d 个出现在回答中", m, n), fmt.Sprintf("relevance: %d/%d question words in the answer", n, m)}.text(), true
}

func (it lexicalItem) specificity() (float64, string, bool) {
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
	_, matched, _ := share(numbers(it.a), dn)
	numPart := math.Min(1, float64(matched)/math.Min(3, float64(len(dn))))
	return round1(10 * (0.7*p + 0.3*numPart)),
		note{fmt.Sprintf("具体性：回答的 %d 个词中有 %d 个出现在指南中，%d 个数字一致", m, n, matched), fmt.Sprintf("specificity: %d/%d answer words in the guide, %d numbers agree", n, m, matched)}.text(), true
}

func (it lexicalItem) completeness() (float64, string, bool) {
	if !it.doc.hasDoc || len(it.doc.set) == 0 {
		return 0, StoredReason(ReasonNoScore, "完整性需要办事指南", "completeness needs the service guide"), false
	}
	cov, n, m := share(it.doc.top, it.a)
	return round1(10 * cov), note{fmt.Sprintf("完整性：指南的 %d 个关键词中有 %d 个出现在回答中", m, n), fmt.Sprintf("completeness: %d/%d key guide words in the answer", n, m)}.text(), true
}

func (it lexicalItem) quality() (float64, string, bool) {
	var sum float64
	var notes []text.Text
	for _, f := range []func() (float64, string, bool){it.relevance, it.specificity, it.completeness} {
		v, n, ok := f()
		if !ok {
			return 0, n, false
		}
		sum += v
		notes = append(notes, text.Parse(n))
	}
	base := sum / 3
	n := float64(len(it.aList))
	short := math.Min(1, n/10) // fewer than ten content units: too thin to be useful
	long := 1.0
	if nd := float64(len(it.doc.list)); nd > 0 && n > 3*nd {
		long = 0.8 // three times the guide: padding
	}
	rep := 1.0
	if ss := textmetric.Sentences(it.answer); len(ss) > 0 {
		distinct := map[string]bool{}
		for _, s := range ss {
			distinct[s] = true
		}
		rep = float64(len(distinct)) / float64(len(ss))
	}
	parts := text.JoinWith(notes, text.New("；", "; "))
	return round1(base * short * long * rep), note{
		fmt.Sprintf("表达质量：均值 %.2f × 长度系数 %.2f × 冗长系数 %.2f × 重复系数 %.2f（%s）", base, short, long, rep, parts.ZH),
		fmt.Sprintf("quality: mean %.2f × length %.2f × padding %.2f × repetition %.2f (%s)", base, short, long, rep, parts.EN)}.text(), true
}

// Score implements Scorer. repeat is ignored: the result is deterministic.
func (l Lexical) Score(ctx context.Context, d Dimension, in Inputs, repeat int) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	return l.newItem(in).score(d, in), nil
}

// ScoreAll implements Batcher: the outcomes are Score's on each of dims,
// with the answer's and question's units derived once.
func (l Lexical) ScoreAll(ctx context.Context, dims []Dimension, in Inputs) ([]Outcome, error) {
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

func (it lexicalItem) score(d Dimension, in Inputs) Outcome {
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
func correctness(it lexicalItem, reference string) (float64, string, bool) {
	r := setOf(units(reference, it.zh))
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

func contextUnits(it lexicalItem, contexts []string) unitSet {
	return setOf(units(strings.Join(contexts, "\n"), it.zh))
}

// faithfulness: YES when at least half the answer's units occur in the passages.
func faithfulness(it lexicalItem, contexts []string) (float64, string, bool) {
	p, n, m := share(it.a, contextUnits(it, contexts))
	if p >= 0.5 {
		return 1, note{fmt.Sprintf("忠实性：是，回答的 %d 个词中有 %d 个出现在检索段落中", m, n), fmt.Sprintf("faithfulness: YES, %d/%d answer words in the passages", n, m)}.text(), true
	}
	return 0, note{fmt.Sprintf("忠实性：否，回答的 %d 个词中有 %d 个出现在检索段落中", m, n), fmt.Sprintf("faithfulness: NO, %d/%d answer words in the passages", n, m)}.text(), true
}

// relevancy: YES when the answer and passages together cover half the question.
func relevancy(it lexicalItem, contexts []string) (float64, string, bool) {
	if len(it.q) == 0 {
		return 0, StoredReason(ReasonNoScore, "问题中没有实词", "the question has no content words"), false
	}
	both := contextUnits(it, contexts)
	for u := range it.a {
		both[u] = true
	}
	p, n, m := share(it.q, both)
	verdict, zh := "NO", "否"
	v := 0.0
	if p >= 0.5 {
		verdict, zh, v = "YES", "是", 1
	}
	return v, note{fmt.Sprintf("相关度：%s，问题的 %d 个词中有 %d 个出现在回答或检索段落中", zh, m, n), fmt.Sprintf("relevancy: %s, %d/%d question words in answer and passages", verdict, n, m)}.text(), true
}
