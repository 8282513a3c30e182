// Package glossary holds the one name, in Chinese and English, of every
// thing the product shows: answer sets, judges, dimensions, metrics,
// verdicts, MFSS factors, query types. Every screen, chart, the CLI's
// Chinese output and the report take their words from here, so an officer
// never meets three names for one thing. Start point: spec/glossary.md;
// where the product already prints a name in SUMMARY.json (the verdicts,
// the comparison verdicts) that name wins, so the file and the window agree.
package glossary

import (
	"fmt"
	"strings"

	"cubeworkbench/core/text"
)

// ID names one thing.
type ID string

// Answer sets and the system under test.
const (
	SystemUnderTest ID = "system_under_test"
	SetRAG          ID = "set.rag"
	SetZero         ID = "set.zero"
	SetFull         ID = "set.full"
	// The short names, for sentences that already say which bound they mean.
	SetZeroShort   ID = "set.zero.short"
	SetFullShort   ID = "set.full.short"
	Bounds         ID = "bounds"
	BoundsCollapse ID = "bounds.collapse"
)

// Judges and what they read.
const (
	Judge         ID = "judge"
	BaselineJudge ID = "judge.baseline"
	ImportedJudge ID = "judge.imported"
	Dimension     ID = "dimension"
	Rubric        ID = "rubric"
	Prompt        ID = "prompt"
	Unscorable    ID = "unscorable"
	// A judge's qualification (core/cube/qualify.go) and the mark of one
	// that did not earn its vote.
	JudgeQualification ID = "judge.qualification"
	JudgeNotCounted    ID = "judge.not_counted"
	// The two offline judges (core/judge's LexicalName, SemanticName): the
	// window, the charts and the comparison name them so, never by their
	// ids lexical and semantic.
	JudgeLexical  ID = "judge.lexical"
	JudgeSemantic ID = "judge.semantic"
)

// Why a question is weak: the question grid's filters and the why panel's
// list use these names.
const (
	NotRetrieved   ID = "weak.not_retrieved"
	LowScore       ID = "weak.low_score"
	JudgesDisagree ID = "weak.judges_disagree"
)

// Documents and retrieval.
const (
	ServiceGuide ID = "service_guide"
	GoldGuide    ID = "gold_guide"
	Retrieved    ID = "retrieved"
	TopN         ID = "top_n"
	Rank         ID = "rank"
	RankScore    ID = "rank_score"
)

// CuBE's quantities.
const (
	GuideRecall        ID = "metric.guide_recall" // Recall@k; see GuideRecallAt
	CorrelationWeights ID = "correlation_weights"
	TrimmedMean        ID = "trimmed_mean"
	BoundedScore       ID = "bounded_score"
	Effectiveness      ID = "effectiveness"
	EffectivenessAll   ID = "effectiveness.all"
	CubeScore          ID = "cube_score"
	Interval95         ID = "interval95" // see Interval95With for another B
	JudgeSpread        ID = "judge_spread"
	SingleJudge        ID = "single_judge"
	Verdict            ID = "verdict"
)

// Deployment verdicts (result.VerdictFor's codes).
const (
	VerdictDeployable   ID = "verdict.deployable"
	VerdictNeedsWork    ID = "verdict.needs_work"
	VerdictNotReady     ID = "verdict.not_ready"
	VerdictUndetermined ID = "verdict.undetermined"
)

// CoFE-RAG's metrics: never plain 召回率, which is CuBE's guide recall.
const (
	KeywordRecall   ID = "metric.keyword_recall"
	KeywordAccuracy ID = "metric.keyword_accuracy" // Accuracy@k
	KeywordCoverage ID = "metric.keyword_coverage"
	PassRate        ID = "metric.pass_rate"
)

// MFSS factors (mfss.Factors' JSON names after the dot).
const (
	MFSS                   ID = "mfss"
	MFSSAccuracy           ID = "mfss.accuracy"
	MFSSFactualConsistency ID = "mfss.factual_consistency"
	MFSSReadability        ID = "mfss.readability"
	MFSSCoherence          ID = "mfss.coherence"
	MFSSRouge              ID = "mfss.rouge"
	MFSSConciseness        ID = "mfss.conciseness"
	MFSSTotal              ID = "mfss.total"
)

// Query types (dataset's canonical names after the dot).
const (
	QueryType        ID = "query_type"
	QueryFactual     ID = "query.factual"
	QueryAnalytical  ID = "query.analytical"
	QueryComparative ID = "query.comparative"
	QueryTutorial    ID = "query.tutorial"
)

// Statistics named after people, in words an officer can look up.
const (
	Pearson       ID = "stat.pearson"
	Spearman      ID = "stat.spearman"
	Krippendorff  ID = "stat.krippendorff"
	StandardDev   ID = "stat.sd"
	NotApplicable ID = "na"
)

// The tool's own things.
const (
	RunStore ID = "run_store"
	Tokens   ID = "tokens" // what a language model counts and bills
	Profile  ID = "profile"
	Workbook ID = "workbook"
	Sample   ID = "sample"
)

// Comparing two versions (core/compare's verdict codes after the dot).
const (
	Compare          ID = "compare"
	CompareBetter    ID = "compare.better"
	CompareNone      ID = "compare.none"
	CompareWorse     ID = "compare.worse"
	CompareUndefined ID = "compare.undefined"
)

// terms[id] = {zh, en}.
var terms = map[ID][2]string{
	SystemUnderTest: {"被测系统", "system under test"},
	SetRAG:          {"被测系统回答", "system answers"},
	SetZero:         {"零上下文回答（下界）", "no-context answers (lower bound)"},
	SetFull:         {"标准指南回答（上界）", "gold-guide answers (upper bound)"},
	SetZeroShort:    {"零上下文回答", "no-context answers"},
	SetFullShort:    {"标准指南回答", "gold-guide answers"},
	Bounds:          {"上下界", "bounds"},
	BoundsCollapse:  {"上下界塌缩", "bounds collapse"},

	Judge:         {"评审模型", "judge"},
	BaselineJudge: {"基线评审（非大模型）", "baseline judge (not an LLM)"},
	ImportedJudge: {"导入的评分", "imported scores"},
	Dimension:     {"评价维度", "dimension"},
	Rubric:        {"评分细则", "rubric"},
	Prompt:        {"提示词", "prompt"},
	Unscorable:    {"无法评分", "unscorable"},

	JudgeQualification: {"评审资格", "judge qualification"},
	JudgeNotCounted:    {"不计入结论", "not counted in the verdict"},
	JudgeLexical:       {"词汇基线评审", "lexical baseline"},
	JudgeSemantic:      {"语义基线评审", "semantic baseline"},

	NotRetrieved:   {"未检索到标准指南", "gold guide not retrieved"},
	LowScore:       {"低分", "low score"},
	JudgesDisagree: {"评审模型分歧大", "judges disagree"},

	ServiceGuide: {"办事指南", "service guide"},
	GoldGuide:    {"标准指南", "gold guide"},
	Retrieved:    {"检索结果", "retrieved documents"},
	TopN:         {"计入的检索结果条数", "retrieved documents counted (top N)"},
	Rank:         {"排名", "rank"},
	RankScore:    {"排名得分", "rank score"},

	GuideRecall:        {"指南召回率@k", "guide recall@k"},
	CorrelationWeights: {"相关性权重", "correlation weights"},
	TrimmedMean:        {"截尾均值（去掉两端各 10 %）", "trimmed mean (10 % cut each end)"},
	BoundedScore:       {"上下界归一化得分（0–100）", "bounded score (0–100)"},
	Effectiveness:      {"检索命中时的回答有效性", "effectiveness when the guide was retrieved"},
	EffectivenessAll:   {"全部问题的回答有效性", "effectiveness on all questions"},
	CubeScore:          {"CuBE 得分", "CuBE score"},
	Interval95:         {"95 % 置信区间（重抽样 1000 次）", "95 % interval (1,000 resamples)"},
	JudgeSpread:        {"评审模型之间的差异（标准差）", "spread between judges (SD)"},
	SingleJudge:        {"仅 1 个评审模型", "only 1 judge"},
	Verdict:            {"结论", "verdict"},

	VerdictDeployable:   {"可以部署", "Deployable"},
	VerdictNeedsWork:    {"需改进后部署", "Needs work before deployment"},
	VerdictNotReady:     {"尚不具备部署条件", "Not ready for deployment"},
	VerdictUndetermined: {"无法判定", "Undetermined"},

	KeywordRecall:   {"关键词召回率", "keyword recall"},
	KeywordAccuracy: {"关键词准确率@k", "keyword accuracy@k"},
	KeywordCoverage: {"关键词覆盖率", "keyword coverage"},
	PassRate:        {"通过率（正确性 ≥ 4）", "pass rate (correctness ≥ 4)"},

	MFSS:                   {"MFSS 多因素评分", "MFSS multi-factor score"},
	MFSSAccuracy:           {"准确性", "accuracy"},
	MFSSFactualConsistency: {"事实一致性", "factual consistency"},
	MFSSReadability:        {"可读性", "readability"},
	MFSSCoherence:          {"连贯性", "coherence"},
	MFSSRouge:              {"ROUGE", "ROUGE"},
	MFSSConciseness:        {"简洁性", "conciseness"},
	MFSSTotal:              {"总分", "total"},

	QueryType:        {"问题类型", "query type"},
	QueryFactual:     {"事实类", "factual"},
	QueryAnalytical:  {"分析类", "analytical"},
	QueryComparative: {"比较类", "comparative"},
	QueryTutorial:    {"教程类", "tutorial"},

	Pearson:       {"皮尔逊相关系数", "Pearson correlation"},
	Spearman:      {"斯皮尔曼等级相关系数", "Spearman rank correlation"},
	Krippendorff:  {"克里彭多夫 α 一致性系数", "Krippendorff's alpha"},
	StandardDev:   {"标准差", "SD"},
	NotApplicable: {"不适用", "n/a"},

	RunStore: {"运行记录库", "run store"},
	Tokens:   {"词元", "tokens"},
	Profile:  {"评估配置", "profile"},
	Workbook: {"评估工作簿", "workbook"},
	Sample:   {"内置虚构示例数据", "bundled fictional sample"},

	Compare:          {"版本对比", "comparison"},
	CompareBetter:    {"明显更好", "clearly better"},
	CompareNone:      {"没有可检测的差异", "no detectable difference"},
	CompareWorse:     {"明显更差", "clearly worse"},
	CompareUndefined: {"无法判断", "cannot tell"},
}

// Text is id's name in both languages. An unknown id comes back as itself
// in brackets, so a typo shows on screen and in tests instead of an empty
// label.
func Text(id ID) text.Text {
	t, ok := terms[id]
	if !ok {
		return text.New("["+string(id)+"]", "["+string(id)+"]")
	}
	return text.New(t[0], t[1])
}

// Term is id's name in lang (Text(id).In(lang)).
func Term(id ID, lang text.Lang) string { return Text(id).In(lang) }

// Known reports whether id has names.
func Known(id ID) bool {
	_, ok := terms[id]
	return ok
}

// IDs lists every id with names, for tests and the report's glossary sheet.
func IDs() []ID {
	out := make([]ID, 0, len(terms))
	for id := range terms {
		out = append(out, id)
	}
	return out
}

// GuideRecallAt names Recall@k for a given k: 指南召回率@8 / guide recall@8
// (GuideRecall's name with its k filled in, so the two cannot drift).
func GuideRecallAt(k int, lang text.Lang) string {
	return strings.Replace(Term(GuideRecall, lang), "@k", fmt.Sprintf("@%d", k), 1)
}

// Interval95With names the 95 % interval with b resamples (Interval95 says
// 1,000, the default).
func Interval95With(b int, lang text.Lang) string {
	return text.New(fmt.Sprintf("95 %% 置信区间（重抽样 %d 次）", b),
		fmt.Sprintf("95 %% interval (%s resamples)", thousands(b))).In(lang)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
