package result

import (
	"encoding/json"

	"cubeworkbench/core/cofe"
	"cubeworkbench/core/compare"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/docmatch"
	"cubeworkbench/core/explain"
	"cubeworkbench/core/humancheck"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/text"
)

// The types below are SUMMARY.json as other programs read it (spec/cli.md,
// docs/summary.md): the contract lives here, not in the tags of the method
// packages that compute the figures, so a field renamed or a type changed
// in core/cube cannot change the file by accident. Summary.MarshalJSON maps
// a Summary onto them. Add fields freely, rename none; an undefined value
// is null, never a number.

// SummaryJSON is the whole of SUMMARY.json. The CuBE figures sit at the top
// level (absent when no CuBE ran); the other methods are parts of their own.
type SummaryJSON struct {
	ToolVersion string `json:"tool_version"`
	// Version is the contract's version (SummaryVersion): 2 when the
	// top-level recommendations became the one list.
	Version int `json:"summary_version"`
	*CubeJSON
	MFSS        *MFSSJSON            `json:"mfss,omitempty"`
	CoFE        *cofe.Result         `json:"cofe,omitempty"`
	Sweep       *cofe.SweepResult    `json:"cofe_sweep,omitempty"`
	Baselines   *Baselines           `json:"baselines,omitempty"`
	Verdict     VerdictJSON          `json:"verdict"`
	Run         RunInfo              `json:"run"`
	Problems    []Problem            `json:"problems"`
	Skipped     []string             `json:"skipped_rows,omitempty"`
	Warnings    []Warning            `json:"warnings,omitempty"`
	DocMapping  *docmatch.Report     `json:"doc_mapping,omitempty"`
	Explanation *explain.Explanation `json:"explanation,omitempty"`
	Comparison  *compare.Result      `json:"comparison,omitempty"`
	SpotCheck   *SpotCheckJSON       `json:"spot_check,omitempty"`
}

// Words is one message as SUMMARY.json spells it: English, then Chinese
// (the key order every SUMMARY.json has had).
type Words struct {
	EN string `json:"en"`
	ZH string `json:"zh"`
}

// VerdictJSON is the verdict (Verdict) in SUMMARY.json: its words in
// English, then Chinese.
type VerdictJSON struct {
	Code       VerdictCode  `json:"code"` // deployable | needs_work | not_ready | undetermined
	EN         string       `json:"en"`
	ZH         string       `json:"zh"`
	Cube       *float64     `json:"cube"`
	Deployable float64      `json:"deployable_at"`
	NeedsWork  float64      `json:"needs_work_at"`
	Reasons    []ReasonJSON `json:"undetermined_reasons,omitempty"`
}

// ReasonJSON is why a verdict is undetermined (Reason): its few words,
// then the full reason.
type ReasonJSON struct {
	Code     string `json:"code"`
	ZH       string `json:"zh"`
	EN       string `json:"en"`
	DetailZH string `json:"detail_zh"`
	DetailEN string `json:"detail_en"`
}

// JSON is v as SUMMARY.json says it.
func (v Verdict) JSON() VerdictJSON {
	out := VerdictJSON{Code: v.Code, EN: v.Text.EN, ZH: v.Text.ZH, Cube: v.Cube,
		Deployable: v.Deployable, NeedsWork: v.NeedsWork}
	for _, r := range v.Reasons {
		out.Reasons = append(out.Reasons, ReasonJSON{Code: r.Code, ZH: r.Text.ZH, EN: r.Text.EN,
			DetailZH: r.Detail.ZH, DetailEN: r.Detail.EN})
	}
	return out
}

// MarshalJSON writes v as VerdictJSON, wherever a Verdict is written.
func (v Verdict) MarshalJSON() ([]byte, error) { return json.Marshal(v.JSON()) }

// CubeJSON is one CuBE evaluation (cube.Result) in SUMMARY.json.
type CubeJSON struct {
	Items       int      `json:"items"`
	Retrieved   int      `json:"retrieved"`
	RecallAtK   *float64 `json:"recall_at_k"`
	UnknownGold int      `json:"unknown_gold"`
	RecallNA    *Words   `json:"recall_na,omitempty"` // why recall_at_k is null although gold guides are named
	TopN        int      `json:"top_n"`
	Subset      string   `json:"subset"`
	Trim        float64  `json:"trim"`
	Dimensions  []string `json:"dimensions"`
	WeightsMode string   `json:"weights_mode"`
	BootstrapB  int      `json:"bootstrap_b"`
	Seed        int64    `json:"seed"`

	Judges    []JudgeJSON   `json:"judges"`
	Aggregate AggregateJSON `json:"aggregate"`

	Headline Words      `json:"headline"`
	Human    *HumanJSON `json:"human"`
	// Recommendations is the one list of recommendations (explain's:
	// CuBE's findings with the side each changes, and explain's own).
	// Before version 2 it held CuBE's findings only, without side.
	Recommendations   []RecommendationJSON `json:"recommendations"`
	MethodNotes       []Words              `json:"method_notes"`
	IgnoredJudgements int                  `json:"ignored_judgements"`
}

// JudgeJSON is everything CuBE derives from one judge (cube.JudgeResult).
type JudgeJSON struct {
	Judge                string                         `json:"judge"`
	Weights              map[string]float64             `json:"weights"`
	WeightSource         string                         `json:"weight_source"`
	WeightNote           *Words                         `json:"weight_note"`
	CorrelationAll       map[string]*float64            `json:"correlation_all"`
	CorrelationRetrieved map[string]*float64            `json:"correlation_retrieved"`
	TrimmedMeans         map[string]map[string]*float64 `json:"trimmed_means"`
	SubsetN              map[string]int                 `json:"subset_n"`
	Normalized           map[string]*float64            `json:"normalized"`
	Cube                 *float64                       `json:"cube"`
	CubeCI95             *[2]float64                    `json:"cube_ci95"`
	Judgements           int                            `json:"judgements"`
	Unscorable           int                            `json:"unscorable"`
	UnscorableBy         map[string]map[string]int      `json:"unscorable_by"`
	Scored               map[string]map[string]int      `json:"scored"`
	Flags                []string                       `json:"flags"`
	Qualified            bool                           `json:"qualified"`
	QualificationReasons []Words                        `json:"qualification_reasons"`
	Qualification        []CheckJSON                    `json:"qualification"`
	BoundsGap            map[string]*float64            `json:"bounds_gap"`
}

// CheckJSON is one qualification check of a judge (cube.Check).
type CheckJSON struct {
	Code      string      `json:"code"`
	Status    string      `json:"status"` // pass | fail | shown
	Value     *float64    `json:"value"`
	CI95      *[2]float64 `json:"ci95,omitempty"`
	Threshold float64     `json:"threshold"`
	Reason    Words       `json:"reason"`
}

// MeanSDJSON summarises one quantity across judges (cube.MeanSD).
type MeanSDJSON struct {
	Mean *float64 `json:"mean"`
	SD   *float64 `json:"sd"`
	N    int      `json:"n"`
}

// AggregateJSON is the cross-judge summary (cube.Aggregate).
type AggregateJSON struct {
	Normalized map[string]MeanSDJSON `json:"normalized"`
	Cube       MeanSDJSON            `json:"cube"`
	CubeCI95   *[2]float64           `json:"cube_ci95"`
}

// RecommendationJSON is one thing to do (explain.Recommendation).
type RecommendationJSON struct {
	Code     string         `json:"code"`     // a cube.Rule or one of explain's own codes
	Severity string         `json:"severity"` // high | medium | low
	Side     string         `json:"side"`     // system | evaluation
	EN       string         `json:"en"`
	ZH       string         `json:"zh"`
	Evidence map[string]any `json:"evidence"`
}

// HumanJSON is the judges' agreement with expert ratings (cube.Human).
type HumanJSON struct {
	Items      int                     `json:"items"`
	Raters     []string                `json:"raters"`
	Ratings    int                     `json:"ratings"`
	Ignored    int                     `json:"ignored"`
	Dimensions map[string]HumanDimJSON `json:"dimensions"`
	Alpha      *float64                `json:"krippendorff_alpha"`
}

// HumanDimJSON compares judges and experts on one dimension (cube.HumanDim).
type HumanDimJSON struct {
	N      int                       `json:"n"`
	Mean   *float64                  `json:"mean"`
	SD     *float64                  `json:"sd"`
	Judges map[string]HumanJudgeJSON `json:"judges"`
	Alpha  *float64                  `json:"krippendorff_alpha"`
}

// HumanJudgeJSON is one judge against the expert mean (cube.HumanJudge).
type HumanJudgeJSON struct {
	N         int      `json:"n"`
	JudgeMean *float64 `json:"judge_mean"`
	JudgeSD   *float64 `json:"judge_sd"`
	HumanMean *float64 `json:"human_mean"`
	HumanSD   *float64 `json:"human_sd"`
	Pearson   *float64 `json:"pearson"`
	Spearman  *float64 `json:"spearman"`
}

// MFSSJSON is MFSS's part (mfss.Result), its flags' reasons as Words.
type MFSSJSON struct {
	*mfss.Result
	Uninformative []MFSSFlagJSON `json:"uninformative"` // last, as in mfss.Result: it takes that field's place
}

// MFSSFlagJSON is a factor that cannot tell this run's answers apart.
type MFSSFlagJSON struct {
	Factor string `json:"factor"`
	Reason Words  `json:"reason"`
}

// SpotCheckJSON is the people's spot check (humancheck.Result), its texts
// as Words.
type SpotCheckJSON struct {
	*humancheck.Result
	TrustText Words   `json:"trust_text"` // last two, as in humancheck.Result
	Notes     []Words `json:"notes"`
}

// MarshalJSON writes s as SummaryJSON.
func (s Summary) MarshalJSON() ([]byte, error) { return json.Marshal(s.JSON()) }

// JSON is s as SUMMARY.json says it.
func (s *Summary) JSON() SummaryJSON {
	return SummaryJSON{
		ToolVersion: s.ToolVersion,
		Version:     SummaryVersion,
		CubeJSON:    cubeJSON(s.Result, s.Recommendations()),
		MFSS:        mfssJSON(s.MFSS),
		CoFE:        s.CoFE,
		Sweep:       s.Sweep,
		Baselines:   s.Baselines,
		Verdict:     s.Verdict.JSON(),
		Run:         s.Run,
		Problems:    s.Problems,
		Skipped:     s.Skipped,
		Warnings:    s.Warnings,
		DocMapping:  s.DocMapping,
		Explanation: s.Explanation,
		Comparison:  s.Comparison,
		SpotCheck:   spotCheckJSON(s.SpotCheck),
	}
}

func words(t text.Text) Words { return Words{EN: t.EN, ZH: t.ZH} }

func wordsPtr(t *text.Text) *Words {
	if t == nil {
		return nil
	}
	w := words(*t)
	return &w
}

// wordsList keeps a nil list null and an empty one [].
func wordsList(ts []text.Text) []Words {
	if ts == nil {
		return nil
	}
	out := make([]Words, len(ts))
	for i, t := range ts {
		out[i] = words(t)
	}
	return out
}

func cubeJSON(r *cube.Result, recs []explain.Recommendation) *CubeJSON {
	if r == nil {
		return nil
	}
	c := &CubeJSON{
		Items: r.Items, Retrieved: r.Retrieved, RecallAtK: r.RecallAtK, UnknownGold: r.UnknownGold,
		RecallNA: wordsPtr(r.RecallNA), TopN: r.TopN, Subset: r.Subset, Trim: r.Trim, Dimensions: r.Dimensions,
		WeightsMode: r.WeightsMode, BootstrapB: r.BootstrapB, Seed: r.Seed,
		Aggregate:         aggregateJSON(r.Aggregate),
		Headline:          words(r.HeadlineText),
		Human:             humanJSON(r.Human),
		MethodNotes:       wordsList(r.Notes),
		IgnoredJudgements: r.IgnoredJudgements,
	}
	if r.Judges != nil {
		c.Judges = make([]JudgeJSON, len(r.Judges))
		for i, j := range r.Judges {
			c.Judges[i] = judgeJSON(j)
		}
	}
	if recs != nil {
		c.Recommendations = make([]RecommendationJSON, len(recs))
		for i, x := range recs {
			c.Recommendations[i] = RecommendationJSON{Code: x.Code, Severity: x.Severity, Side: x.Side, EN: x.EN, ZH: x.ZH, Evidence: x.Evidence}
		}
	}
	return c
}

func judgeJSON(j cube.JudgeResult) JudgeJSON {
	out := JudgeJSON{
		Judge: j.Judge, Weights: j.Weights, WeightSource: j.WeightSource, WeightNote: wordsPtr(j.WeightNote),
		CorrelationAll: j.CorrelationAll, CorrelationRetrieved: j.CorrelationRetrieved,
		TrimmedMeans: j.TrimmedMeans, SubsetN: j.SubsetN, Normalized: j.Normalized, Cube: j.Cube, CubeCI95: j.CubeCI95,
		Judgements: j.Judgements, Unscorable: j.Unscorable, UnscorableBy: j.UnscorableBy, Scored: j.Scored, Flags: j.Flags,
		Qualified: j.Qualified, QualificationReasons: wordsList(j.QualificationReasons), BoundsGap: j.BoundsGap,
	}
	if j.Qualification != nil {
		out.Qualification = make([]CheckJSON, len(j.Qualification))
		for i, c := range j.Qualification {
			out.Qualification[i] = CheckJSON{Code: c.Code, Status: c.Status, Value: c.Value, CI95: c.CI95,
				Threshold: c.Threshold, Reason: words(c.Reason)}
		}
	}
	return out
}

func meanSDJSON(m cube.MeanSD) MeanSDJSON { return MeanSDJSON{Mean: m.Mean, SD: m.SD, N: m.N} }

func aggregateJSON(a cube.Aggregate) AggregateJSON {
	out := AggregateJSON{Cube: meanSDJSON(a.Cube), CubeCI95: a.CubeCI95}
	if a.Normalized != nil {
		out.Normalized = make(map[string]MeanSDJSON, len(a.Normalized))
		for k, m := range a.Normalized {
			out.Normalized[k] = meanSDJSON(m)
		}
	}
	return out
}

func humanJSON(h *cube.Human) *HumanJSON {
	if h == nil {
		return nil
	}
	out := &HumanJSON{Items: h.Items, Raters: h.Raters, Ratings: h.Ratings, Ignored: h.Ignored, Alpha: h.Alpha}
	if h.Dimensions != nil {
		out.Dimensions = make(map[string]HumanDimJSON, len(h.Dimensions))
		for k, d := range h.Dimensions {
			hd := HumanDimJSON{N: d.N, Mean: d.Mean, SD: d.SD, Alpha: d.Alpha}
			if d.Judges != nil {
				hd.Judges = make(map[string]HumanJudgeJSON, len(d.Judges))
				for name, j := range d.Judges {
					hd.Judges[name] = HumanJudgeJSON{N: j.N, JudgeMean: j.JudgeMean, JudgeSD: j.JudgeSD,
						HumanMean: j.HumanMean, HumanSD: j.HumanSD, Pearson: j.Pearson, Spearman: j.Spearman}
				}
			}
			out.Dimensions[k] = hd
		}
	}
	return out
}

func mfssJSON(m *mfss.Result) *MFSSJSON {
	if m == nil {
		return nil
	}
	out := &MFSSJSON{Result: m}
	if m.Uninformative != nil {
		out.Uninformative = make([]MFSSFlagJSON, len(m.Uninformative))
		for i, f := range m.Uninformative {
			out.Uninformative[i] = MFSSFlagJSON{Factor: f.Factor, Reason: Words{EN: f.Reason.EN, ZH: f.Reason.ZH}}
		}
	}
	return out
}

func spotCheckJSON(h *humancheck.Result) *SpotCheckJSON {
	if h == nil {
		return nil
	}
	return &SpotCheckJSON{Result: h, TrustText: words(h.TrustText), Notes: wordsList(h.Notes)}
}
