package cube

// The JSON names below are the SUMMARY.json contract (spec/cli.md): fields
// may be added, never renamed. An undefined value is a nil pointer and
// marshals as null.

// Result is one CuBE evaluation.
type Result struct {
	Items       int      `json:"items"`        // every item given
	Retrieved   int      `json:"retrieved"`    // items whose gold document is in the top N
	RecallAtK   *float64 `json:"recall_at_k"`  // Retrieved / items with a known gold document
	UnknownGold int      `json:"unknown_gold"` // items left out of Recall@k
	// RecallNA says why Recall@k (and so CuBE) is null although questions
	// name their gold guide: the retrieval data was not read. Nil otherwise.
	RecallNA    *Text    `json:"recall_na,omitempty"`
	TopN        int      `json:"top_n"`
	Subset      string   `json:"subset"`
	Trim        float64  `json:"trim"`
	Dimensions  []string `json:"dimensions"`
	WeightsMode string   `json:"weights_mode"`
	BootstrapB  int      `json:"bootstrap_b"`
	Seed        int64    `json:"seed"`

	Judges    []JudgeResult `json:"judges"`
	Aggregate Aggregate     `json:"aggregate"`

	HeadlineText    Text      `json:"headline"`
	Human           *Human    `json:"human"`           // nil without expert ratings
	Recommendations []Finding `json:"recommendations"` // the rules that fired (Finding)
	Notes           []Text    `json:"method_notes"`
	// IgnoredJudgements are rows CuBE does not read: an unknown item, a
	// dimension not configured, or a set other than rag, zero and full.
	IgnoredJudgements int          `json:"ignored_judgements"`
	ItemDetails       []ItemDetail `json:"-"` // per item, for the report and the window; too large for SUMMARY.json at scale
	// RAGScores are each judge's rag score per item and dimension, the data
	// behind the report's items sheet and the score histograms of the report
	// and the window alike; too large for SUMMARY.json at scale.
	RAGScores *ItemScores `json:"-"`
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
type Text struct {
	EN string `json:"en"`
	ZH string `json:"zh"`
}

// In returns the message in lang ("zh" or anything else for English).
func (t Text) In(lang string) string {
	if lang == "zh" {
		return t.ZH
	}
	return t.EN
}

// JudgeResult is everything CuBE derives from one judge.
type JudgeResult struct {
	Judge        string             `json:"judge"`
	Weights      map[string]float64 `json:"weights"`
	WeightSource string             `json:"weight_source"` // correlation | equal | hand | judge
	WeightNote   *Text              `json:"weight_note"`   // why the weights fell back, if they did

	CorrelationAll       map[string]*float64 `json:"correlation_all"`
	CorrelationRetrieved map[string]*float64 `json:"correlation_retrieved"`

	// TrimmedMeans[set][dimension or "weighted"].
	TrimmedMeans map[string]map[string]*float64 `json:"trimmed_means"`
	SubsetN      map[string]int                 `json:"subset_n"` // items in each dimension's analysis subset
	Normalized   map[string]*float64            `json:"normalized"`
	Cube         *float64                       `json:"cube"`
	CubeCI95     *[2]float64                    `json:"cube_ci95"`

	Judgements   int                       `json:"judgements"`    // rows read for this judge
	Unscorable   int                       `json:"unscorable"`    // of which unscorable
	UnscorableBy map[string]map[string]int `json:"unscorable_by"` // set → dimension → rows
	Scored       map[string]map[string]int `json:"scored"`        // set → dimension → items with an ok score
	Flags        []string                  `json:"flags"`

	// Qualified says the judge earned its vote (qualify.go): only qualified
	// judges enter Aggregate, the headline, the interval and the verdict.
	// A judge that fails keeps these figures and says why.
	Qualified            bool    `json:"qualified"`
	QualificationReasons []Text  `json:"qualification_reasons"` // the failed checks' reasons
	Qualification        []Check `json:"qualification"`
	// BoundsGap is T(full) − T(zero) per dimension and W(full) − W(zero)
	// under "weighted", in rubric points.
	BoundsGap map[string]*float64 `json:"bounds_gap"`
}

// MeanSD summarises one quantity across judges.
type MeanSD struct {
	Mean *float64 `json:"mean"`
	SD   *float64 `json:"sd"` // sample SD; null for fewer than two judges
	N    int      `json:"n"`  // judges with a defined value
}

// Aggregate is the cross-judge summary; its weighted normalised mean is
// the "effectiveness on retrieved cases" of the headline.
type Aggregate struct {
	Normalized map[string]MeanSD `json:"normalized"`
	Cube       MeanSD            `json:"cube"`
	CubeCI95   *[2]float64       `json:"cube_ci95"` // of the mean C_J
}

// ItemDetail is one item's rank and how much the judges disagree on it.
type ItemDetail struct {
	ID        string   `json:"id"`
	GoldKnown bool     `json:"gold_known"`
	Rank      int      `json:"rank"`       // 1-based, 0 = not in the top N
	RankScore *float64 `json:"rank_score"` // null when the gold document is unknown
	// RAG is the mean across judges of the rag score per dimension, and
	// RAGOverall over all judges and dimensions. Disagreement is the sample
	// SD across judges per dimension, DisagreementOverall that of each
	// judge's mean over the dimensions (judges that scored them all).
	RAG                 map[string]*float64 `json:"rag"`
	RAGOverall          *float64            `json:"rag_overall"`
	Disagreement        map[string]*float64 `json:"disagreement"`
	DisagreementOverall *float64            `json:"disagreement_overall"`
}

// Finding is one of CuBE's rules that fired, with the numbers behind it
// (Result.Recommendations, SUMMARY.json's top-level "recommendations").
// CuBE finds; core/explain alone turns findings into the recommendations
// every front end shows (Summary.Explanation.Recommendations), adding its
// own and the side each one changes.
type Finding struct {
	Code     string         `json:"code"`
	Severity string         `json:"severity"` // high | medium | low
	EN       string         `json:"en"`
	ZH       string         `json:"zh"`
	Evidence map[string]any `json:"evidence"`
}

// Recommendation is the old name of Finding.
//
// Deprecated: use Finding.
type Recommendation = Finding

// Human is the agreement of the judges with expert ratings.
type Human struct {
	Items      int                 `json:"items"` // items with at least one usable rating
	Raters     []string            `json:"raters"`
	Ratings    int                 `json:"ratings"` // rows used
	Ignored    int                 `json:"ignored"` // rows for unknown items or dimensions
	Dimensions map[string]HumanDim `json:"dimensions"`
	Alpha      *float64            `json:"krippendorff_alpha"` // over all dimensions' units
}

// HumanDim compares judges and experts on one dimension, 0–100 scale.
type HumanDim struct {
	N      int                   `json:"n"` // items rated by experts
	Mean   *float64              `json:"mean"`
	SD     *float64              `json:"sd"`
	Judges map[string]HumanJudge `json:"judges"`
	Alpha  *float64              `json:"krippendorff_alpha"`
}

// HumanJudge is one judge against the expert mean on the items both scored.
type HumanJudge struct {
	N         int      `json:"n"`
	JudgeMean *float64 `json:"judge_mean"`
	JudgeSD   *float64 `json:"judge_sd"`
	HumanMean *float64 `json:"human_mean"`
	HumanSD   *float64 `json:"human_sd"`
	Pearson   *float64 `json:"pearson"`
	Spearman  *float64 `json:"spearman"`
}

func num(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	return &v
}
