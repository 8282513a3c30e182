package cube

import (
	"slices"

	"cubeworkbench/core/text"
)

// These types are what CuBE computes, not what SUMMARY.json says: the file's
// contract is core/result's (result.CubeJSON), mapped from them. An
// undefined value is a nil pointer (null in SUMMARY.json), never 0 or NaN.

// Result is one CuBE evaluation.
type Result struct {
	Items       int      // every item given
	Retrieved   int      // items whose gold document is in the top N
	RecallAtK   *float64 // Retrieved / items with a known gold document
	UnknownGold int      // items left out of Recall@k
	// RecallNA says why Recall@k (and so CuBE) is null although questions
	// name their gold guide: the retrieval data was not read. Nil otherwise.
	RecallNA    *text.Text
	TopN        int
	Subset      string
	Trim        float64
	Dimensions  []string
	WeightsMode string
	BootstrapB  int
	Seed        int64

	Judges    []JudgeResult
	Aggregate Aggregate

	HeadlineText text.Text
	Human        *Human    // nil without expert ratings
	Findings     []Finding // the rules that fired; core/explain makes them recommendations
	Notes        []text.Text
	// IgnoredJudgements are rows CuBE does not read: an unknown item, a
	// dimension not configured, or a set other than rag, zero and full.
	IgnoredJudgements int
	ItemDetails       []ItemDetail // per item, for the report and the window; too large for SUMMARY.json at scale
	// RAGScores are each judge's rag score per item and dimension, the data
	// behind the report's items sheet and the score histograms of the report
	// and the window alike; too large for SUMMARY.json at scale.
	RAGScores *ItemScores
}

// ItemScores holds one answer set's item scores: for each item, judge (in
// Result.Judges order) and dimension (in Result.Dimensions order) the mean
// of the judge's ok repeats, or nothing when it has none.
type ItemScores struct {
	ids          map[string]int
	items, nj, k int
	val          []float64
	ok           []bool
}

// At is the score of item id by judge j on dimension k.
func (s *ItemScores) At(id string, j, k int) (float64, bool) {
	if s == nil {
		return 0, false
	}
	i, found := s.ids[id]
	if !found || j < 0 || j >= s.nj || k < 0 || k >= s.k {
		return 0, false
	}
	p := (j*s.k+k)*s.items + i
	return s.val[p], s.ok[p]
}

// Column lists judge j's defined scores on dimension k in item order: one
// value per item (its repeats averaged), as the histograms draw them.
func (s *ItemScores) Column(j, k int) []float64 {
	if s == nil || j < 0 || j >= s.nj || k < 0 || k >= s.k {
		return nil
	}
	var out []float64
	base := (j*s.k + k) * s.items
	for i := range s.items {
		if s.ok[base+i] {
			out = append(out, s.val[base+i])
		}
	}
	return out
}

// Text is one message in both product languages.
//
// Deprecated: use text.Text; this is an alias for one version.
type Text = text.Text

// JudgeResult is everything CuBE derives from one judge.
type JudgeResult struct {
	Judge        string
	Weights      map[string]float64
	WeightSource string     // correlation | equal | hand | judge
	WeightNote   *text.Text // why the weights fell back, if they did

	CorrelationAll       map[string]*float64
	CorrelationRetrieved map[string]*float64

	// TrimmedMeans[set][dimension or "weighted"].
	TrimmedMeans map[string]map[string]*float64
	SubsetN      map[string]int // items in each dimension's analysis subset
	Normalized   map[string]*float64
	Cube         *float64
	CubeCI95     *[2]float64

	Judgements   int                       // rows read for this judge
	Unscorable   int                       // of which unscorable
	UnscorableBy map[string]map[string]int // set → dimension → rows
	Scored       map[string]map[string]int // set → dimension → items with an ok score
	Flags        []string

	// Qualified says the judge earned its vote (qualify.go): only qualified
	// judges enter Aggregate, the headline, the interval and the verdict.
	// A judge that fails keeps these figures and says why.
	Qualified            bool
	QualificationReasons []text.Text // the failed checks' reasons
	Qualification        []Check
	// BoundsGap is T(full) − T(zero) per dimension and W(full) − W(zero)
	// under "weighted", in rubric points.
	BoundsGap map[string]*float64
}

// MeanSD summarises one quantity across judges.
type MeanSD struct {
	Mean *float64
	SD   *float64 // sample SD; null for fewer than two judges
	N    int      // judges with a defined value
}

// Aggregate is the cross-judge summary; its weighted normalised mean is
// the "effectiveness on retrieved cases" of the headline.
type Aggregate struct {
	Normalized map[string]MeanSD
	Cube       MeanSD
	CubeCI95   *[2]float64 // of the mean C_J
}

// ItemDetail is one item's rank and how much the judges disagree on it.
type ItemDetail struct {
	ID        string
	GoldKnown bool
	Rank      int      // 1-based, 0 = not in the top N
	RankScore *float64 // null when the gold document is unknown
	// RAG is the mean across judges of the rag score per dimension, in the
	// order of Result.Dimensions (RAGOf finds one by name), and RAGOverall
	// over all judges and dimensions. Disagreement is the sample SD across
	// judges per dimension, in the same order, DisagreementOverall that of
	// each judge's mean over the dimensions (judges that scored them all).
	// Nil is n/a.
	RAG                 []*float64
	RAGOverall          *float64
	Disagreement        []*float64
	DisagreementOverall *float64
}

// RAGOf is the mean rag score of dimension dim, dims being the result's
// Dimensions; nil when n/a or not a dimension of the result.
func (d ItemDetail) RAGOf(dims []string, dim string) *float64 { return at(d.RAG, dims, dim) }

// DisagreementOf is the judges' SD on dimension dim, as RAGOf.
func (d ItemDetail) DisagreementOf(dims []string, dim string) *float64 {
	return at(d.Disagreement, dims, dim)
}

func at(v []*float64, dims []string, dim string) *float64 {
	if k := slices.Index(dims, dim); k >= 0 && k < len(v) {
		return v[k]
	}
	return nil
}

// Finding is one of CuBE's rules that fired (Result.Findings): which rule,
// how much it matters and the numbers behind it. CuBE finds; core/explain
// alone words findings and turns them into the recommendations every front
// end shows and SUMMARY.json lists (adding its own and the side each one
// changes).
type Finding struct {
	Rule     Rule
	Severity Severity
	Evidence Evidence
}

// Rule names one of CuBE's rules; its value is the code SUMMARY.json
// writes.
type Rule string

// CuBE's rules, with the Config threshold each reads.
const (
	RuleRecallLow      Rule = "recall_low"      // Recall@k below RecallLow
	RuleDimensionWeak  Rule = "dimension_weak"  // a dimension's mean normalised score below DimensionWeak
	RuleJudgesDisagree Rule = "judges_disagree" // SD of the judges' CuBE above JudgeSDHigh
	RuleSingleJudge    Rule = "single_judge"    // one judge has a CuBE score
	RuleOwnKnowledge   Rule = "own_knowledge"   // answers scoring ZeroHighScore+ without their guide
	RuleUnscorable     Rule = "unscorable"      // a judge left more than 5 % of its replies unscorable
	RuleBounds         Rule = "bounds"          // a judge's bounds collapse or do not bracket the system
)

// Rules lists every rule CuBE applies, in the order it applies them.
func Rules() []Rule {
	return []Rule{RuleRecallLow, RuleDimensionWeak, RuleJudgesDisagree, RuleSingleJudge, RuleOwnKnowledge, RuleUnscorable, RuleBounds}
}

// Severity is how much a finding matters.
type Severity string

// The severities, highest first.
const (
	SeverityHigh   Severity = "high"
	SeverityMedium Severity = "medium"
	SeverityLow    Severity = "low"
)

// Evidence is the numbers behind a finding. Each rule fills its own
// fields: recall_low RecallAtK, Threshold, TopN, Missed, GoldKnown, Examples;
// dimension_weak Dimension, Normalized, Threshold; judges_disagree SD,
// Threshold, Judges, Examples; single_judge Judges; own_knowledge Items,
// Threshold, Examples; unscorable Judge, Unscorable, Judgements; bounds
// Judge, Flags.
type Evidence struct {
	RecallAtK  float64
	Threshold  float64
	TopN       int
	Missed     int      // questions whose known gold guide was not retrieved
	GoldKnown  int      // questions whose gold guide is known
	Examples   []string // item ids, at most five
	Dimension  string
	Normalized float64
	SD         float64
	Judges     int
	Items      int
	Judge      string
	Unscorable int
	Judgements int
	Flags      []string
}

// Recommendation is the old name of Finding.
//
// Deprecated: use Finding.
type Recommendation = Finding

// Human is the agreement of the judges with expert ratings.
type Human struct {
	Items      int // items with at least one usable rating
	Raters     []string
	Ratings    int // rows used
	Ignored    int // rows for unknown items or dimensions
	Dimensions map[string]HumanDim
	Alpha      *float64 // over all dimensions' units
}

// HumanDim compares judges and experts on one dimension, 0–100 scale.
type HumanDim struct {
	N      int // items rated by experts
	Mean   *float64
	SD     *float64
	Judges map[string]HumanJudge
	Alpha  *float64
}

// HumanJudge is one judge against the expert mean on the items both scored.
type HumanJudge struct {
	N         int
	JudgeMean *float64
	JudgeSD   *float64
	HumanMean *float64
	HumanSD   *float64
	Pearson   *float64
	Spearman  *float64
}

func num(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	return &v
}
