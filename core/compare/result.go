package compare

import (
	"math"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/text"
)

// Verdicts of a Delta: B compared with A.
const (
	VerdictBetter    = "better"    // 明显更好: the 95 % interval lies above 0
	VerdictNone      = "none"      // 没有可检测的差异: the interval holds 0
	VerdictWorse     = "worse"     // 明显更差: the interval lies below 0
	VerdictUndefined = "undefined" // 无法判断: the difference or its interval is undefined
)

// Z-values of the detectable difference: two-sided 5 % test, 80 % power.
const (
	zAlpha = 1.959963984540054 // z_{0.975}
	zBeta  = 0.841621233572914 // z_{0.80}
)

// Delta is one figure on both sides and its difference B − A. nil means
// undefined (never NaN or 0).
type Delta struct {
	Metric string `json:"metric"` // cube | weighted | a dimension | recall_at_k | mfss_total | cofe_pass_rate
	Judge  string `json:"judge"`  // "" across judges, or for judge-free figures
	// Judges is how many judges an across-judges figure averages (those with
	// the figure defined on both sides); 0 otherwise.
	Judges       int         `json:"judges"`
	A            *float64    `json:"a"`
	B            *float64    `json:"b"`
	ACI95        *[2]float64 `json:"a_ci95"` // each side's own interval over the paired questions
	BCI95        *[2]float64 `json:"b_ci95"`
	Diff         *float64    `json:"diff"`          // B − A
	CI95         *[2]float64 `json:"ci95"`          // paired bootstrap percentile interval of B − A
	UnpairedCI95 *[2]float64 `json:"unpaired_ci95"` // only with Options.Unpaired
	// Detectable is the smallest true difference this many questions would
	// reveal with 80 % power at the 5 % level: (z_0.975 + z_0.80)·SE, SE
	// read off the paired interval as its width / (2·1.96).
	Detectable *float64 `json:"detectable"`
	Verdict    string   `json:"verdict"`
}

// settle sets the verdict and the detectable difference from the interval.
func (d *Delta) settle() {
	d.Verdict = VerdictUndefined
	if d.Diff == nil || d.CI95 == nil {
		return
	}
	lo, hi := d.CI95[0], d.CI95[1]
	se := (hi - lo) / (2 * zAlpha)
	d.Detectable = ptr(math.Max(0, (zAlpha+zBeta)*se))
	switch {
	case lo > 0:
		d.Verdict = VerdictBetter
	case hi < 0:
		d.Verdict = VerdictWorse
	default:
		d.Verdict = VerdictNone
	}
}

// Deltas are the CuBE figures of one judge or across judges.
type Deltas struct {
	Cube       Delta            `json:"cube"`
	Weighted   Delta            `json:"weighted"`   // N_J
	Normalized map[string]Delta `json:"normalized"` // N_Jk per dimension
	CoFEPass   *Delta           `json:"cofe_pass_rate"`
}

// JudgeDeltas are one judge's deltas and its per-question changes.
type JudgeDeltas struct {
	Judge string `json:"judge"`
	Deltas
	Better int `json:"better"` // questions whose score rose by more than the tolerance
	Worse  int `json:"worse"`
	Same   int `json:"same"`
	// NotComparable are questions without a per-item score on a side.
	NotComparable int `json:"not_comparable"`
}

// Change is one question whose score moved, with what is needed to show
// both answers side by side.
type Change struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	RowA     int    `json:"row_a"` // source rows (0 when not from a sheet)
	RowB     int    `json:"row_b"`
	SetA     string `json:"set_a"` // answer sets holding the two answers
	SetB     string `json:"set_b"`
	AnswerA  string `json:"answer_a"`
	AnswerB  string `json:"answer_b"`
	// Diff is the mean across judges of the question's weighted normalised
	// score on B minus that on A (points, 0–100 scale); ByJudge per judge,
	// null where a side has no score.
	Diff    float64             `json:"diff"`
	ByJudge map[string]*float64 `json:"by_judge"`
}

// Result is a comparison of side B with side A.
type Result struct {
	NameA string `json:"name_a"` // the sides as given (Side.Name, or the set code)
	NameB string `json:"name_b"`
	// SideA, SideB are what people read for the sides, in each language:
	// the glossary's name of a set code (被测系统回答, not rag), the user's
	// own name otherwise. A comparison stored before them has none: Names.
	SideA      text.Text `json:"side_a"`
	SideB      text.Text `json:"side_b"`
	SetA       string    `json:"set_a"`
	SetB       string    `json:"set_b"`
	ItemsA     int       `json:"items_a"`
	ItemsB     int       `json:"items_b"`
	Paired     int       `json:"paired"`      // questions on both sides: the comparison's sample
	UnmatchedA []string  `json:"unmatched_a"` // ids on A only, left out and named in a warning
	UnmatchedB []string  `json:"unmatched_b"`
	// SharedBounds: the questions and gold guides are the same on both
	// sides, so both use A's zero and full judgements; otherwise each side
	// its own, and BoundsDiffer names the ids that differ.
	SharedBounds bool     `json:"shared_bounds"`
	BoundsDiffer []string `json:"bounds_differ"`
	Dimensions   []string `json:"dimensions"`
	JudgesOnlyA  []string `json:"judges_only_a"`
	JudgesOnlyB  []string `json:"judges_only_b"`
	BootstrapB   int      `json:"bootstrap_b"`
	Seed         int64    `json:"seed"`
	Tolerance    float64  `json:"tolerance"`

	Judges    []JudgeDeltas `json:"judges"`
	Aggregate Deltas        `json:"aggregate"` // across judges: the mean of the per-judge figures
	Recall    Delta         `json:"recall_at_k"`
	MFSS      *Delta        `json:"mfss_total"` // nil without MFSS totals on both sides

	// Per-question changes across judges.
	Better        int      `json:"better"`
	Worse         int      `json:"worse"`
	Same          int      `json:"same"`
	NotComparable int      `json:"not_comparable"`
	Regressions   []Change `json:"regressions"`  // got worse, worst first
	Improvements  []Change `json:"improvements"` // got better, best first

	// JudgesDisagree: some judge sees B better and another worse (ΔCuBE of
	// opposite signs).
	JudgesDisagree bool      `json:"judges_disagree"`
	Verdict        string    `json:"verdict"` // of the across-judges ΔCuBE
	Headline       Message   `json:"headline"`
	Bullets        []Message `json:"bullets"`
	Warnings       []Message `json:"warnings"`

	// CubeA, CubeB are each side's CuBE evaluation over the paired
	// questions (no bootstrap of its own: the intervals are the ones above).
	CubeA *cube.Result `json:"-"`
	CubeB *cube.Result `json:"-"`

	mfssOneSide bool
}

// Names are the two sides as people read them: SideA and SideB, or for a
// comparison stored before they existed, read from NameA and NameB.
func (r *Result) Names() (a, b text.Text) {
	a, b = r.SideA, r.SideB
	if a.IsZero() {
		a = sideLabel(r.NameA)
	}
	if b.IsZero() {
		b = sideLabel(r.NameB)
	}
	return a, b
}
