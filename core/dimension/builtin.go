package dimension

import "cubeworkbench/core/text"

// The methods a dimension belongs to; also the prompts/ folder of its
// templates.
const (
	CuBE = "cube"
	CoFE = "cofe"
)

// Rule names the measure an offline judge (core/judge: the lexical and the
// semantic baseline) scores a dimension by; RuleNone leaves the dimension
// unscored by that judge.
type Rule string

// The lexical judge's measures.
const (
	RuleNone             Rule = ""
	RuleQuestionCoverage Rule = "question_coverage" // share of question words in the answer
	RuleGuidePrecision   Rule = "guide_precision"   // share of answer words in the guide, plus agreeing numbers
	RuleGuideCoverage    Rule = "guide_coverage"    // share of the guide's key words in the answer
	RuleOverall          Rule = "overall"           // mean of the three above, reduced for thin, padded or repeated answers
	RuleReferenceF1      Rule = "reference_f1"      // word F1 against the reference answer, on 1–5
	RuleContextSupport   Rule = "context_support"   // YES when half the answer's words are in the passages
	RuleContextRelevance Rule = "context_relevance" // YES when answer and passages cover half the question
)

// The semantic judge's measures: cosines of offline hashed embeddings
// (core/embed), not word counts.
const (
	RuleQuestionSimilarity  Rule = "question_similarity"  // cosine of answer and question
	RuleGuideGrounding      Rule = "guide_grounding"      // share of the answer's text whose sentences match a guide sentence
	RuleGuideSentenceCover  Rule = "guide_sentence_cover" // share of the guide's text whose sentences an answer sentence matches
	RuleGuideAlignment      Rule = "guide_alignment"      // cosine of answer and guide, reduced for thin, padded or self-repeating answers
	RuleReferenceSimilarity Rule = "reference_similarity" // cosine of answer and reference, on 1–5
	RulePassageGrounding    Rule = "passage_grounding"    // YES when half the answer's text matches a passage sentence
	RulePassageSimilarity   Rule = "passage_similarity"   // YES when the answer or a passage is close to the question
)

// Dimension is one built-in dimension.
type Dimension struct {
	Name    string
	Method  string // CuBE or CoFE
	Default bool   // in CuBE's default rubric (the paper's four)

	TitleZH, TitleEN string

	// AdviceZH/EN complete the recommendation "X reaches only … : <advice>."
	// when the dimension's normalised score is weak; "" gives the generic advice.
	AdviceZH, AdviceEN string

	Lexical  Rule // how the lexical judge scores it
	Semantic Rule // how the semantic judge scores it
}

// Prompt is the dimension's template name under prompts/, without the
// language: cube/relevance → prompts/cube/relevance.zh.md and .en.md.
func (d Dimension) Prompt() string { return d.Method + "/" + d.Name }

// Title is the display name in lang.
func (d Dimension) Title(lang text.Lang) string { return text.New(d.TitleZH, d.TitleEN).In(lang) }

// builtins are the built-in dimensions, CuBE's in report order, then CoFE's.
var builtins = []Dimension{
	{
		Name: "relevance", Method: CuBE, Default: true, TitleZH: "相关性", TitleEN: "Relevance",
		AdviceEN: "answers drift from the question: tell the system prompt to answer only what is asked, and check that the retrieved guide is the right one",
		AdviceZH: "回答偏离问题：在系统提示词中要求只回答所问内容，并检查检索到的办事指南是否正确",
		Lexical:  RuleQuestionCoverage, Semantic: RuleQuestionSimilarity,
	},
	{
		Name: "specificity", Method: CuBE, Default: true, TitleZH: "具体性", TitleEN: "Specificity",
		AdviceEN: "answers stay generic: ask the model to quote concrete details from the guide (materials, fees, time limits, offices, addresses) and keep those fields intact when chunking",
		AdviceZH: "回答笼统：要求模型引用指南中的具体信息（材料、费用、时限、办理机构、地址），并在切分时保留这些字段",
		Lexical:  RuleGuidePrecision, Semantic: RuleGuideGrounding,
	},
	{
		Name: "completeness", Method: CuBE, Default: true, TitleZH: "完整性", TitleEN: "Completeness",
		AdviceEN: "answers leave out conditions or steps: give the model the whole guide (larger chunks or more context) and ask it to list every condition, material and step",
		AdviceZH: "回答遗漏条件或步骤：向模型提供完整的指南（更大的切分块或更多上下文），并要求列出全部条件、材料和步骤",
		Lexical:  RuleGuideCoverage, Semantic: RuleGuideSentenceCover,
	},
	{
		Name: "quality", Method: CuBE, Default: true, TitleZH: "表达质量", TitleEN: "Quality",
		AdviceEN: "answers are hard to read: ask for a clear structure (numbered steps, short sentences) in a plain, polite tone",
		AdviceZH: "回答不易阅读：要求结构清晰（编号步骤、短句）、语气平实礼貌",
		Lexical:  RuleOverall, Semantic: RuleGuideAlignment,
	},
	{Name: "correctness", Method: CoFE, TitleZH: "正确性", TitleEN: "Correctness", Lexical: RuleReferenceF1, Semantic: RuleReferenceSimilarity},
	{Name: "faithfulness", Method: CoFE, TitleZH: "忠实性", TitleEN: "Faithfulness", Lexical: RuleContextSupport, Semantic: RulePassageGrounding},
	{Name: "relevancy", Method: CoFE, TitleZH: "相关度", TitleEN: "Relevancy", Lexical: RuleContextRelevance, Semantic: RulePassageSimilarity},
}
