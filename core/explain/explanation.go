package explain

import (
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// The JSON names below are meant for SUMMARY.json ("explanation"): add
// fields freely, rename none. Undefined numbers are nil and marshal as null.
//
// The words of a bullet, banner, weak question, recommendation and the
// precision are one text.Text, embedded: encoding/json writes an embedded
// struct's fields where the embedding stands, so the file keeps its "zh",
// "en" keys in the order it always had them (the sample's golden checks
// the bytes), and x.In(lang) is the sentence in one language.

// Explanation is the why of one verdict.
type Explanation struct {
	Verdict    glossary.VerdictCode `json:"verdict"` // the verdict code explained
	Bullets    []Bullet             `json:"bullets"`
	Weakest    []WeakItem           `json:"weakest"`
	WeakCounts map[string]int       `json:"weak_counts"` // reason code → questions with it, over all questions
	// Recommendations is the one list (Recommend). SUMMARY.json writes it
	// at the top level; its copy here is kept for summary_version 2 only.
	Recommendations []Recommendation `json:"recommendations"`
	Precision       Precision        `json:"precision"`
	Banners         []Banner         `json:"banners"`
}

// Bullet is one plain sentence and the numbers it states.
type Bullet struct {
	Code string `json:"code"`
	text.Text
	Numbers map[string]any `json:"numbers"`
}

// Bullet codes.
const (
	BulletNotRetrieved     = "not_retrieved"
	BulletAllRetrieved     = "all_retrieved"
	BulletRecallUndefined  = "recall_undefined"
	BulletEffectiveness    = "effectiveness"
	BulletCube             = "cube_score"
	BulletJudgesSpread     = "judges_spread"
	BulletSingleJudge      = "single_judge"
	BulletNoJudge          = "no_judge"
	BulletUnscorable       = "unscorable"
	BulletWeakestDimension = "weakest_dimension"
)

// Reasons a question is weak (also the question grid's filters).
const (
	ReasonNotRetrieved   = "not_retrieved"
	ReasonLowScore       = "low_score"
	ReasonJudgesDisagree = "judges_disagree"
	ReasonUnscorable     = "unscorable"
)

// WeakItem is one question and why it is weak; Index (its position in
// Input.Items, or in the result's item details when Items is absent) and
// ID let a screen link to its detail, Row to the workbook.
type WeakItem struct {
	ID           string   `json:"id"`
	Index        int      `json:"index"`
	Row          int      `json:"row"` // 1-based qa sheet row, 0 when unknown
	Question     string   `json:"question"`
	Reasons      []string `json:"reasons"`
	Rank         int      `json:"rank"`         // 1-based, 0 = gold guide not in the top N
	GoldKnown    bool     `json:"gold_known"`   // false: rank is meaningless
	Score        *float64 `json:"score"`        // mean rag score over judges and dimensions, 0–10
	Bounded      *float64 `json:"bounded"`      // Score between the run's bounds, 0–100; null when they collapse
	Disagreement *float64 `json:"disagreement"` // SD across judges, 0–10
	Unscorable   int      `json:"unscorable"`   // unscorable judgements of this question
	text.Text             // the reasons in words
}

// Recommendation sides: change the system under test, or the evaluation.
const (
	SideSystem     = "system"
	SideEvaluation = "evaluation"
)

// Recommendation is one thing to do, with the numbers behind it. CuBE's
// findings are passed on with their rule as the code (cube.Rule); explain
// adds its own three (CodeRetrievalMisses, CodeDimensionFocus,
// CodeEffectivenessGap).
type Recommendation struct {
	Code     string `json:"code"`
	Severity string `json:"severity"` // high | medium | low
	Side     string `json:"side"`     // system | evaluation
	text.Text
	Evidence map[string]any `json:"evidence"`
}

// The codes of explain's own recommendations; CuBE's are cube.Rule values.
const (
	CodeRetrievalMisses  = "retrieval_misses"  // questions that missed their guide, though recall is not below the threshold
	CodeDimensionFocus   = "dimension_focus"   // the weakest dimension, though none is below the threshold
	CodeEffectivenessGap = "effectiveness_gap" // the system's answers fall short of the gold-guide answers
)

// Precision is how many questions would bring the 95 % interval of the
// CuBE score to ±Target points. It is an estimate: the width of a
// resampling interval shrinks about as 1/√n.
type Precision struct {
	HalfWidth  *float64 `json:"half_width"` // now, CuBE points; null without an interval
	Target     float64  `json:"target"`
	Questions  int      `json:"questions"`        // now
	Needed     *int     `json:"questions_needed"` // in all
	More       *int     `json:"more_questions"`   // Needed − Questions, ≥ 0
	Resamples  int      `json:"resamples"`
	IsEstimate bool     `json:"estimate"`
	text.Text
}

// Banner codes.
const (
	BannerBaselineJudge = "baseline_judge"
	// BannerJudgeNotCounted: a judge failed its qualification and is not
	// part of the verdict.
	BannerJudgeNotCounted = "judge_not_counted"
	BannerSampleData      = "sample_data"
)

// Banner is a warning to show wherever the verdict is shown.
type Banner struct {
	Code string `json:"code"`
	text.Text
	Evidence map[string]any `json:"evidence"`
}
