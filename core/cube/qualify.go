package cube

import (
	"fmt"
	"math"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/stats"
	"cubeworkbench/core/text"
)

// Judge qualification (评审资格): a judge earns its vote from what the run
// already holds. The bounds are a built-in calibration set — the
// gold-guide answer of every question should outscore its no-context
// answer — so a judge that cannot tell them apart, cannot be read, or
// places the system far outside its own bounds measures nothing, and its
// figures must not move the verdict. A judge that fails keeps its card and
// figures, with reasons; it is never averaged in (docs/decisions.md,
// "Judge qualification").

// Qualification check codes, in the order they are shown.
const (
	CheckReads         = "reads"
	CheckDiscriminates = "discriminates"
	CheckBounds        = "bounds"
	CheckConsistent    = "consistent"
	CheckAgrees        = "agrees"
)

// Check statuses. A shown check is measured but does not decide (too few
// repeats or expert ratings to trust it).
const (
	CheckPass  = "pass"
	CheckFail  = "fail"
	CheckShown = "shown"
)

// QualifyConfig holds the thresholds of judge qualification (the profile's
// [qualify] table).
type QualifyConfig struct {
	// MinReadable is the share of a judge's judgements that must be
	// scorable.
	MinReadable float64
	// MinGap is what the 95 % interval of the paired gap W(full) − W(zero),
	// in rubric points, must lie above.
	MinGap float64
	// BoundsTolerance is how far (points on 0–100) the weighted bounded
	// score may lie outside [0, 100].
	BoundsTolerance float64
	// MinConsistency is the least Krippendorff α across a judge's repeats.
	MinConsistency float64
	// MinHuman is the least mean Pearson r with the experts' mean.
	MinHuman float64
	// MinUnits is how many repeated units (or expert-rated items) the
	// consistency (or agreement) check needs before it decides.
	MinUnits int
}

// DefaultQualify are the product's defaults (docs/decisions.md says why).
func DefaultQualify() QualifyConfig {
	return QualifyConfig{MinReadable: 0.9, MinGap: 0, BoundsTolerance: 25, MinConsistency: 0.667, MinHuman: 0.3, MinUnits: 20}
}

// Check is one qualification check of one judge.
type Check struct {
	Code      string
	Status    string // pass | fail | shown
	Value     *float64
	CI95      *[2]float64
	Threshold float64
	Reason    text.Text
}

// qualifyInput is what the checks read for one judge.
type qualifyInput struct {
	jr      *JudgeResult
	dims    []string
	gapCI   *[2]float64 // 95 % interval of W(full) − W(zero); nil without bootstrap
	alpha   *float64    // Krippendorff α over repeats; nil without repeats
	units   int         // repeated units behind alpha
	human   *float64    // mean Pearson r with the experts
	humanN  int         // fewest items behind a dimension's r
	cfg     QualifyConfig
	hasBoot bool
}

// qualify runs every check and sets the judge's verdict on itself.
func qualify(in qualifyInput) {
	jr := in.jr
	jr.BoundsGap = boundsGaps(jr, in.dims)
	jr.Qualification = []Check{readsCheck(in), discriminatesCheck(in), boundsCheck(in)}
	if c, ok := consistentCheck(in); ok {
		jr.Qualification = append(jr.Qualification, c)
	}
	if c, ok := agreesCheck(in); ok {
		jr.Qualification = append(jr.Qualification, c)
	}
	jr.Qualified = true
	jr.QualificationReasons = []text.Text{}
	for _, c := range jr.Qualification {
		if c.Status == CheckFail {
			jr.Qualified = false
			jr.QualificationReasons = append(jr.QualificationReasons, c.Reason)
		}
	}
}

// boundsGaps is T(full) − T(zero) per dimension and W(full) − W(zero).
func boundsGaps(jr *JudgeResult, dims []string) map[string]*float64 {
	out := map[string]*float64{}
	zero, full := jr.TrimmedMeans[dataset.SetZero], jr.TrimmedMeans[dataset.SetFull]
	for _, d := range append(append([]string{}, dims...), Weighted) {
		if z, f := zero[d], full[d]; z != nil && f != nil {
			out[d] = num(*f-*z, true)
		} else {
			out[d] = nil
		}
	}
	return out
}

func pct1(v float64) string { return fmt.Sprintf("%.1f %%", 100*v) }

func readsCheck(in qualifyInput) Check {
	jr, min := in.jr, in.cfg.MinReadable
	c := Check{Code: CheckReads, Threshold: min}
	if jr.Judgements == 0 {
		c.Status = CheckFail
		c.Reason = text.Text{ZH: "没有读到这个评审模型的任何评分", EN: "no judgement of this judge was read"}
		return c
	}
	share := float64(jr.Judgements-jr.Unscorable) / float64(jr.Judgements)
	c.Value = num(share, true)
	if share >= min {
		c.Status = CheckPass
		c.Reason = text.Text{ZH: fmt.Sprintf("能读出分数的回复占 %s（要求至少 %s）", pct1(share), pct1(min)),
			EN: fmt.Sprintf("%s of its replies could be read as a score (needs at least %s)", pct1(share), pct1(min))}
		return c
	}
	c.Status = CheckFail
	c.Reason = text.Text{ZH: fmt.Sprintf("只有 %s 的回复能读出分数（要求至少 %s）：请检查模型和要求的评分格式", pct1(share), pct1(min)),
		EN: fmt.Sprintf("only %s of its replies could be read as a score (needs at least %s): check the model and the score format it is asked for", pct1(share), pct1(min))}
	return c
}

// discriminatesCheck: the gold-guide answers must outscore the no-context
// answers, paired over the analysis subset, with the interval above MinGap.
// A dimension whose own gap is not above 0 is named, not disqualifying.
func discriminatesCheck(in qualifyInput) Check {
	jr, min := in.jr, in.cfg.MinGap
	c := Check{Code: CheckDiscriminates, Threshold: min, CI95: in.gapCI}
	full, zero := glossary.Term(glossary.SetFullShort, "zh"), glossary.Term(glossary.SetZeroShort, "zh")
	fullEN, zeroEN := glossary.Term(glossary.SetFullShort, "en"), glossary.Term(glossary.SetZeroShort, "en")
	g := jr.BoundsGap[Weighted]
	c.Value = g
	var flat, flatEN []string
	for _, d := range in.dims {
		if v := jr.BoundsGap[d]; v != nil && *v <= 0 {
			flat = append(flat, glossary.Name(glossary.DimensionID, d, "zh"))
			flatEN = append(flatEN, glossary.Name(glossary.DimensionID, d, "en"))
		}
	}
	note, noteEN := "", ""
	if len(flat) > 0 {
		note = fmt.Sprintf("；在%s上%s并不高于%s（仅提示，不影响资格）", strings.Join(flat, "、"), full, zero)
		noteEN = fmt.Sprintf("; on %s the %s do not score above the %s (shown, not disqualifying)", strings.Join(flatEN, ", "), fullEN, zeroEN)
	}
	switch {
	case g == nil:
		c.Status = CheckFail
		c.Reason = text.Text{ZH: fmt.Sprintf("没有足够的评分比较%s与%s：无法说明它能分辨好坏", full, zero),
			EN: fmt.Sprintf("too few scores to compare the %s with the %s: nothing shows it can tell good from bad", fullEN, zeroEN)}
	case *g <= collapseEps:
		c.Status = CheckFail
		c.Reason = text.Text{ZH: fmt.Sprintf("%s：%s的加权得分不高于%s（相差 %.2f 分），它分不清好坏", glossary.Term(glossary.BoundsCollapse, "zh"), full, zero, *g),
			EN: fmt.Sprintf("%s: the %s score no higher than the %s (weighted gap %.2f points); it cannot tell good from bad", glossary.Term(glossary.BoundsCollapse, "en"), fullEN, zeroEN, *g)}
	case *g <= min:
		c.Status = CheckFail
		c.Reason = text.Text{ZH: fmt.Sprintf("%s只比%s高 %.2f 分（要求高于 %.2f 分）", full, zero, *g, min),
			EN: fmt.Sprintf("the %s score only %.2f points above the %s (needs more than %.2f)", fullEN, *g, zeroEN, min)}
	case in.gapCI != nil && in.gapCI[0] <= min:
		c.Status = CheckFail
		c.Reason = text.Text{ZH: fmt.Sprintf("分不清好坏：%s比%s高 %.2f 分，但 95 %% 区间 %.2f 至 %.2f 没有整体高于 %.2f：它的分数不随回答好坏而变", full, zero, *g, in.gapCI[0], in.gapCI[1], min),
			EN: fmt.Sprintf("cannot tell good from bad: the %s score %.2f points above the %s, but the 95 %% interval %.2f to %.2f is not above %.2f: its scores do not follow the answers' quality", fullEN, *g, zeroEN, in.gapCI[0], in.gapCI[1], min)}
	default:
		c.Status = CheckPass
		if in.gapCI != nil {
			c.Reason = text.Text{ZH: fmt.Sprintf("%s比%s高 %.2f 分（95 %% 区间 %.2f 至 %.2f，要求高于 %.2f）", full, zero, *g, in.gapCI[0], in.gapCI[1], min),
				EN: fmt.Sprintf("the %s score %.2f points above the %s (95 %% interval %.2f to %.2f, needs above %.2f)", fullEN, *g, zeroEN, in.gapCI[0], in.gapCI[1], min)}
		} else {
			c.Reason = text.Text{ZH: fmt.Sprintf("%s比%s高 %.2f 分（未重抽样，没有区间；要求高于 %.2f）", full, zero, *g, min),
				EN: fmt.Sprintf("the %s score %.2f points above the %s (no resampling, so no interval; needs above %.2f)", fullEN, *g, zeroEN, min)}
		}
	}
	c.Reason.ZH += note
	c.Reason.EN += noteEN
	return c
}

// boundsCheck: the weighted bounded score must lie within [0, 100] give or
// take the tolerance; far outside, the bounds do not bracket what the judge
// sees and its number is no score on CuBE's scale.
func boundsCheck(in qualifyInput) Check {
	jr, tol := in.jr, in.cfg.BoundsTolerance
	c := Check{Code: CheckBounds, Threshold: tol, Value: jr.Normalized[Weighted]}
	name, nameEN := glossary.Term(glossary.BoundedScore, "zh"), glossary.Term(glossary.BoundedScore, "en")
	n := jr.Normalized[Weighted]
	switch {
	case n == nil:
		c.Status = CheckFail
		c.Reason = text.Text{ZH: fmt.Sprintf("算不出加权%s", name), EN: fmt.Sprintf("no weighted %s could be computed", nameEN)}
	case *n < -tol || *n > 100+tol:
		c.Status = CheckFail
		c.Reason = text.Text{ZH: fmt.Sprintf("加权%s为 %.2f，超出 0–100 过多（容差 %.0f）：上下界没有框住被测系统的回答", name, *n, tol),
			EN: fmt.Sprintf("its weighted %s is %.2f, too far outside 0–100 (tolerance %.0f): the bounds do not bracket the system's answers", nameEN, *n, tol)}
	default:
		c.Status = CheckPass
		c.Reason = text.Text{ZH: fmt.Sprintf("加权%s为 %.2f，在 0–100 之内（容差 %.0f）", name, *n, tol),
			EN: fmt.Sprintf("its weighted %s is %.2f, within 0–100 (tolerance %.0f)", nameEN, *n, tol)}
	}
	return c
}

// consistentCheck is Krippendorff's α across the judge's repeats, when it
// has any; it decides only with MinUnits repeated units.
func consistentCheck(in qualifyInput) (Check, bool) {
	if in.alpha == nil {
		return Check{}, false
	}
	min := in.cfg.MinConsistency
	c := Check{Code: CheckConsistent, Threshold: min, Value: in.alpha}
	a := *in.alpha
	switch {
	case in.units < in.cfg.MinUnits:
		c.Status = CheckShown
		c.Reason = text.Text{ZH: fmt.Sprintf("重复评分的一致性 Krippendorff α = %.2f（只有 %d 组重复评分，少于 %d 组，仅供参考）", a, in.units, in.cfg.MinUnits),
			EN: fmt.Sprintf("agreement across its repeats Krippendorff's α = %.2f (only %d repeated answers, fewer than %d: shown only)", a, in.units, in.cfg.MinUnits)}
	case a >= min:
		c.Status = CheckPass
		c.Reason = text.Text{ZH: fmt.Sprintf("重复评分的一致性 Krippendorff α = %.2f（要求至少 %.2f）", a, min),
			EN: fmt.Sprintf("agreement across its repeats Krippendorff's α = %.2f (needs at least %.2f)", a, min)}
	default:
		c.Status = CheckFail
		c.Reason = text.Text{ZH: fmt.Sprintf("同一回答重复评分结果不一致：Krippendorff α = %.2f（要求至少 %.2f）", a, min),
			EN: fmt.Sprintf("it scores the same answer differently on repeats: Krippendorff's α = %.2f (needs at least %.2f)", a, min)}
	}
	return c, true
}

// agreesCheck is the mean Pearson r with the experts over the dimensions,
// when expert ratings exist; it decides only with MinUnits rated items.
func agreesCheck(in qualifyInput) (Check, bool) {
	if in.human == nil {
		return Check{}, false
	}
	min, r := in.cfg.MinHuman, *in.human
	c := Check{Code: CheckAgrees, Threshold: min, Value: in.human}
	switch {
	case in.humanN < in.cfg.MinUnits:
		c.Status = CheckShown
		c.Reason = text.Text{ZH: fmt.Sprintf("与人工评分的皮尔逊相关（各维度平均）r = %.2f（人工评分的问题少于 %d 个，仅供参考）", r, in.cfg.MinUnits),
			EN: fmt.Sprintf("Pearson r with the experts (mean over dimensions) = %.2f (fewer than %d rated questions: shown only)", r, in.cfg.MinUnits)}
	case r >= min:
		c.Status = CheckPass
		c.Reason = text.Text{ZH: fmt.Sprintf("与人工评分的皮尔逊相关（各维度平均）r = %.2f（要求至少 %.2f）", r, min),
			EN: fmt.Sprintf("Pearson r with the experts (mean over dimensions) = %.2f (needs at least %.2f)", r, min)}
	default:
		c.Status = CheckFail
		c.Reason = text.Text{ZH: fmt.Sprintf("与人工评分不一致：皮尔逊相关（各维度平均）r = %.2f（要求至少 %.2f）", r, min),
			EN: fmt.Sprintf("it does not agree with the experts: Pearson r (mean over dimensions) = %.2f (needs at least %.2f)", r, min)}
	}
	return c, true
}

// repeatAlpha is Krippendorff's α (interval) per judge over the units
// item × set × dimension that the judge scored more than once; judges
// without repeats are absent.
func repeatAlpha(scores dataset.Scores, known func(dataset.Judgement) bool) (map[string]float64, map[string]int) {
	type key struct{ judge, item, set, dim string }
	// Only judges asked more than once have units: most runs have none,
	// and a map over every judgement would cost more than CuBE itself.
	asked := map[string]bool{}
	for j := range scores.Values() {
		if j.Repeat > 1 {
			asked[j.Judge] = true
		}
	}
	if len(asked) == 0 {
		return nil, nil
	}
	units := map[key][]float64{}
	repeated := map[string]bool{}
	for j := range scores.Values() {
		if !asked[j.Judge] || !j.OK() || !known(j) || math.IsNaN(j.Score) {
			continue
		}
		k := key{j.Judge, j.ItemID, j.Set, j.Dimension}
		units[k] = append(units[k], j.Score)
		if len(units[k]) > 1 {
			repeated[j.Judge] = true
		}
	}
	per := map[string][][]float64{}
	for k, u := range units {
		if repeated[k.judge] && len(u) > 1 {
			per[k.judge] = append(per[k.judge], u)
		}
	}
	alpha, n := map[string]float64{}, map[string]int{}
	for name, us := range per {
		if a, ok := stats.KrippendorffAlphaInterval(us); ok {
			alpha[name], n[name] = a, len(us)
		}
	}
	return alpha, n
}

// humanAgreement is the judge's mean Pearson r with the experts over the
// dimensions that have one, and the fewest items behind any of them.
func humanAgreement(h *Human, judge string, dims []string) (*float64, int) {
	if h == nil {
		return nil, 0
	}
	var rs []float64
	n := -1
	for _, d := range dims {
		hj, ok := h.Dimensions[d].Judges[judge]
		if !ok || hj.Pearson == nil {
			continue
		}
		rs = append(rs, *hj.Pearson)
		if n < 0 || hj.N < n {
			n = hj.N
		}
	}
	m, ok := stats.Mean(rs)
	return num(m, ok), max(n, 0)
}

// Counted says the judge is part of the verdict: it qualified, or it was
// never assessed (a result not made by Evaluate — built by hand or read
// from a summary written before qualification existed — shows its judges
// as it always did).
func (j JudgeResult) Counted() bool { return j.Qualified || j.Qualification == nil }

// QualifiedJudges counts the judges that are part of the verdict.
func (r *Result) QualifiedJudges() int {
	n := 0
	for _, j := range r.Judges {
		if j.Counted() {
			n++
		}
	}
	return n
}

// NotCounted lists the judges left out of the verdict, each with its reasons in lang.
func (r *Result) NotCounted(lang text.Lang) []string {
	zh := text.LangOf(string(lang)) == text.ZH
	var out []string
	for _, j := range r.Judges {
		if j.Counted() {
			continue
		}
		var why []string
		for _, t := range j.QualificationReasons {
			why = append(why, t.In(lang))
		}
		sep := "; "
		if zh {
			sep = "；"
		}
		line := fmt.Sprintf("%s %s — %s: %s", glossary.Term(glossary.Judge, lang), j.Judge, glossary.Term(glossary.JudgeNotCounted, lang), strings.Join(why, sep))
		if zh {
			line = fmt.Sprintf("%s %s %s：%s", glossary.Term(glossary.Judge, lang), j.Judge, glossary.Term(glossary.JudgeNotCounted, lang), strings.Join(why, sep))
		}
		out = append(out, line)
	}
	return out
}

// qualifyAll runs the checks for every judge and records who counts.
func (e *evaluation) qualifyAll(res *Result, scores dataset.Scores, byID map[string]int, b *booted) {
	dimOK := map[string]bool{}
	for _, d := range e.dims {
		dimOK[d] = true
	}
	alpha, units := repeatAlpha(scores, func(j dataset.Judgement) bool {
		_, item := byID[j.ItemID]
		return item && dimOK[j.Dimension] && setIndex(j.Set) >= 0
	})
	e.qualified = make([]bool, len(res.Judges))
	for j := range res.Judges {
		jr := &res.Judges[j]
		in := qualifyInput{jr: jr, dims: e.dims, gapCI: b.gapCI[j], cfg: e.cfg.Qualify, hasBoot: b.B > 0}
		if a, ok := alpha[jr.Judge]; ok {
			in.alpha, in.units = num(a, true), units[jr.Judge]
		}
		in.human, in.humanN = humanAgreement(res.Human, jr.Judge, e.dims)
		qualify(in)
		e.qualified[j] = jr.Qualified
	}
}
