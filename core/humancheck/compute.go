package humancheck

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/stats"
	"cubeworkbench/core/text"
)

// Rating is one person's 0–10 score of one answer on one dimension, as
// entered.
type Rating struct {
	Rater     string  `json:"rater"`
	ItemID    string  `json:"item_id"`
	Set       string  `json:"set"`
	Dimension string  `json:"dimension"`
	Score     float64 `json:"score"`
}

// Unit is one rated answer: a question's answer of one set.
type Unit struct{ ItemID, Set string }

// Input is what Compute sets side by side.
type Input struct {
	Ratings    []Rating
	Scores     dataset.Scores // the judges' scores of every set
	Judges     []string       // in the order to show them
	Dimensions []string
	Design     *Design  // nil when the ratings came without a drawn design (a human sheet)
	Recall     *float64 // the run's Recall@k, a fraction, for CuBE = N·R@k
	Seed       int64
	B          int // bootstrap replicates; 0 is 1000
	// SetAside counts ratings of the workbook's human sheet left out
	// because a drawn spot check's are used; a note says so.
	SetAside int
}

// Figure is a value with its 95 % bootstrap interval; nil when undefined.
type Figure struct {
	Value *float64    `json:"value"`
	CI95  *[2]float64 `json:"ci95"`
}

// Agreement is one judge against the people's mean on one dimension
// ("" = every dimension's units pooled), on the 0–10 scale.
type Agreement struct {
	Judge     string `json:"judge"`
	Dimension string `json:"dimension"`
	N         int    `json:"n"`     // answers both rated
	Alpha     Figure `json:"alpha"` // Krippendorff's interval α, judge and people's mean as two coders
	Spearman  Figure `json:"spearman"`
	MAD       Figure `json:"mad"` // mean absolute difference, weighted by the design
}

// MeanSD is a mean and SD on the 0–100 scale of the paper's Table 5.
type MeanSD struct {
	Mean *float64 `json:"mean"`
	SD   *float64 `json:"sd"`
	N    int      `json:"n"`
}

// Row is one line of the Table-5-style comparison: a dimension, the
// overall rag score, or the normalised effectiveness and CuBE.
type Row struct {
	Key    string            `json:"key"` // a dimension, RowOverall, RowNormalized or RowCube
	Human  MeanSD            `json:"human"`
	Judges map[string]MeanSD `json:"judges"`
}

// Row keys besides the dimensions.
const (
	RowOverall    = "overall"    // the rag answers' mean over the dimensions
	RowNormalized = "normalized" // N: rag between the no-context and gold-guide bounds, dimensions averaged
	RowCube       = "cube"       // N · R@k
)

// Result is the spot check's outcome.
type Result struct {
	Answers         int         `json:"answers"` // answers rated by at least one person
	Raters          []string    `json:"raters"`
	Ratings         int         `json:"ratings"`
	Ignored         int         `json:"ignored"` // unknown dimension, out of 0–10
	Weighted        bool        `json:"weighted"`
	Design          *Design     `json:"design,omitempty"`
	InterRaterAlpha *float64    `json:"inter_rater_alpha"` // people among themselves
	Agreement       []Agreement `json:"agreement"`
	Table           []Row       `json:"table"`
	Trust           string      `json:"trust"` // the judge that agrees best, "" when none is defined
	TrustText       text.Text   `json:"trust_text"`
	Notes           []text.Text `json:"notes"`
}

// For returns the agreement of judge on dimension ("" pooled).
func (r *Result) For(judge, dimension string) (Agreement, bool) {
	if r == nil {
		return Agreement{}, false
	}
	for _, a := range r.Agreement {
		if a.Judge == judge && a.Dimension == dimension {
			return a, true
		}
	}
	return Agreement{}, false
}

// unitScores are the people's mean and each judge's mean per unit, on one
// dimension.
type unitScores struct {
	units  []Unit
	human  map[Unit]float64
	judges []map[Unit]float64
}

// Compute sets the ratings beside the judges. Ratings outside 0–10 or on a
// dimension not evaluated are counted as ignored, never used.
func Compute(in Input) *Result {
	if in.B <= 0 {
		in.B = 1000
	}
	r := &Result{Raters: []string{}, Design: in.Design, Weighted: in.Design != nil}
	weights := in.Design.Weights()
	weight := func(u Unit) float64 {
		if w, ok := weights[u]; ok {
			return w
		}
		return 1
	}
	byDim, raterUnits := r.collect(in)
	judgeMeans := judgeUnitMeans(in.Scores, in.Judges)
	perDim := make(map[string]*unitScores, len(in.Dimensions))
	for _, d := range in.Dimensions {
		perDim[d] = unitsOf(byDim[d], judgeMeans, in.Judges, d)
	}
	r.InterRaterAlpha = ptr(stats.KrippendorffAlphaInterval(raterUnits))
	r.agreements(in, perDim, weight)
	r.table(in, perDim, weight)
	r.trust(in)
	if in.SetAside > 0 {
		r.Notes = append(r.Notes, text.Text{
			ZH: fmt.Sprintf("工作簿人工评分表中的 %d 条评分未计入：此处只用抽检样本的评分，并按其抽样设计加权。", in.SetAside),
			EN: fmt.Sprintf("The %d ratings of the workbook's human sheet are left out: only the drawn spot check's ratings are used here, weighted by its design.", in.SetAside),
		})
	}
	if !r.Weighted && r.Ratings > 0 {
		r.Notes = append(r.Notes, text.Text{
			ZH: "这些人工评分不是本工具抽样得到的（来自工作簿的人工评分表），抽样设计未知：均值按每个回答同等权重计算，只代表被评的这些回答。",
			EN: "These ratings were not drawn by this tool (they come from the workbook's human sheet), so their design is unknown: means weight every answer equally and speak only for the answers rated.",
		})
	}
	return r
}

// collect groups the usable ratings per dimension and unit (each rater's
// score) and builds the inter-rater units.
func (r *Result) collect(in Input) (map[string]map[Unit]map[string]float64, [][]float64) {
	byDim := map[string]map[Unit]map[string]float64{}
	raters := map[string]bool{}
	answers := map[Unit]bool{}
	for _, rt := range in.Ratings {
		if !slices.Contains(in.Dimensions, rt.Dimension) || math.IsNaN(rt.Score) || rt.Score < 0 || rt.Score > 10 {
			r.Ignored++
			continue
		}
		u := Unit{rt.ItemID, rt.Set}
		if byDim[rt.Dimension] == nil {
			byDim[rt.Dimension] = map[Unit]map[string]float64{}
		}
		if byDim[rt.Dimension][u] == nil {
			byDim[rt.Dimension][u] = map[string]float64{}
		}
		byDim[rt.Dimension][u][rt.Rater] = rt.Score // the last entry of a rater wins
		raters[rt.Rater] = true
		answers[u] = true
	}
	for name := range raters {
		r.Raters = append(r.Raters, name)
	}
	slices.Sort(r.Raters)
	r.Answers = len(answers)
	var units [][]float64
	for _, d := range in.Dimensions {
		for _, u := range sortedUnits(byDim[d]) {
			var vals []float64
			for _, name := range r.Raters {
				if v, ok := byDim[d][u][name]; ok {
					vals = append(vals, v)
					r.Ratings++
				}
			}
			units = append(units, vals)
		}
	}
	return byDim, units
}

func sortedUnits[V any](m map[Unit]V) []Unit {
	var us []Unit
	for u := range m {
		us = append(us, u)
	}
	slices.SortFunc(us, func(a, b Unit) int {
		if c := strings.Compare(a.ItemID, b.ItemID); c != 0 {
			return c
		}
		return strings.Compare(a.Set, b.Set)
	})
	return us
}

// judgeUnitMeans is, per judge, the mean of its ok repeats per (unit,
// dimension).
func judgeUnitMeans(scores dataset.Scores, judges []string) []map[[2]string]float64 {
	type acc struct{ sum, n float64 }
	idx := map[string]int{}
	for j, name := range judges {
		idx[name] = j
	}
	sums := make([]map[[3]string]*acc, len(judges))
	for j := range sums {
		sums[j] = map[[3]string]*acc{}
	}
	for s := range scores.Values() {
		j, ok := idx[s.Judge]
		if !ok || !s.OK() || math.IsNaN(s.Score) {
			continue
		}
		k := [3]string{s.ItemID, s.Set, s.Dimension}
		a := sums[j][k]
		if a == nil {
			a = &acc{}
			sums[j][k] = a
		}
		a.sum += s.Score
		a.n++
	}
	out := make([]map[[2]string]float64, len(judges))
	for j := range judges {
		out[j] = map[[2]string]float64{}
		for k, a := range sums[j] {
			out[j][[2]string{k[0] + "\x00" + k[1], k[2]}] = a.sum / a.n
		}
	}
	return out
}

func unitsOf(rated map[Unit]map[string]float64, judgeMeans []map[[2]string]float64, judges []string, dim string) *unitScores {
	us := &unitScores{human: map[Unit]float64{}, judges: make([]map[Unit]float64, len(judges))}
	for j := range judges {
		us.judges[j] = map[Unit]float64{}
	}
	for _, u := range sortedUnits(rated) {
		var vals []float64
		for _, v := range rated[u] {
			vals = append(vals, v)
		}
		m, _ := stats.Mean(vals)
		us.units = append(us.units, u)
		us.human[u] = m
		for j := range judges {
			if v, ok := judgeMeans[j][[2]string{u.ItemID + "\x00" + u.Set, dim}]; ok {
				us.judges[j][u] = v
			}
		}
	}
	return us
}

// agreements fills the per judge and dimension figures, and each judge's
// pooled one (dimension "").
func (r *Result) agreements(in Input, perDim map[string]*unitScores, weight func(Unit) float64) {
	for j, judge := range in.Judges {
		var px, py, pw []float64
		for _, d := range in.Dimensions {
			x, y, w := pairs(perDim[d], j, weight)
			px, py, pw = append(px, x...), append(py, y...), append(pw, w...)
			r.Agreement = append(r.Agreement, Agree(judge, d, x, y, w, in.Seed, in.B))
		}
		r.Agreement = append(r.Agreement, Agree(judge, "", px, py, pw, in.Seed, in.B))
	}
}

// pairs lists judge j's and the people's scores on the units both rated.
func pairs(us *unitScores, j int, weight func(Unit) float64) (judge, human, w []float64) {
	for _, u := range us.units {
		if v, ok := us.judges[j][u]; ok {
			judge = append(judge, v)
			human = append(human, us.human[u])
			w = append(w, weight(u))
		}
	}
	return judge, human, w
}

// Agree is how far one judge agrees with people on paired 0–10 scores
// (judge[i] and human[i] of the same answer; weights[i] its design weight,
// nil for equal weights): Krippendorff's interval α and Spearman's ρ on the
// pairs as drawn, the design-weighted mean absolute difference, each with a
// seeded 95 % percentile bootstrap interval over the answers. The judge
// qualification calls it with the figures it has.
func Agree(judge, dimension string, judgeScores, human, weights []float64, seed int64, B int) Agreement {
	if weights == nil {
		weights = make([]float64, len(judgeScores))
		for i := range weights {
			weights[i] = 1
		}
	}
	a := Agreement{Judge: judge, Dimension: dimension, N: len(judgeScores)}
	calc := func(idx []int, out []float64, ok []bool) {
		x, y, w := pick(judgeScores, idx), pick(human, idx), pick(weights, idx)
		out[0], ok[0] = stats.PairAlpha(x, y)
		out[1], ok[1] = stats.Spearman(x, y)
		out[2], ok[2] = weightedMAD(x, y, w)
	}
	all := make([]int, len(judgeScores))
	for i := range all {
		all[i] = i
	}
	out, ok := make([]float64, 3), make([]bool, 3)
	calc(all, out, ok)
	if B <= 0 {
		B = 1000
	}
	ci := stats.BootstrapMany(len(judgeScores), B, seed, 3, calc)
	figs := []*Figure{&a.Alpha, &a.Spearman, &a.MAD}
	for i, f := range figs {
		f.Value = ptr(out[i], ok[i])
		if ok[i] && ci[i].OK {
			f.CI95 = &[2]float64{ci[i].Lo, ci[i].Hi}
		}
	}
	return a
}

func pick(xs []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, k := range idx {
		out[i] = xs[k]
	}
	return out
}

func weightedMAD(x, y, w []float64) (float64, bool) {
	d := make([]float64, len(x))
	for i := range x {
		d[i] = math.Abs(x[i] - y[i])
	}
	return stats.WeightedMean(d, w)
}

func ptr(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	return &v
}

// table builds the Table-5-style rows on the 0–100 scale: per dimension
// the people's and each judge's mean ± SD of the rag answers both rated,
// the overall mean, then N and CuBE from the three sets' weighted means.
func (r *Result) table(in Input, perDim map[string]*unitScores, weight func(Unit) float64) {
	nj := len(in.Judges)
	for _, d := range in.Dimensions {
		row := Row{Key: d, Judges: map[string]MeanSD{}}
		us := perDim[d]
		var hv, hw []float64
		for _, u := range us.units {
			if u.Set == dataset.SetRAG {
				hv, hw = append(hv, 10*us.human[u]), append(hw, weight(u))
			}
		}
		row.Human = weightedMeanSD(hv, hw)
		for j, judge := range in.Judges {
			var jv, jw []float64
			for _, u := range us.units {
				if v, ok := us.judges[j][u]; ok && u.Set == dataset.SetRAG {
					jv, jw = append(jv, 10*v), append(jw, weight(u))
				}
			}
			row.Judges[judge] = weightedMeanSD(jv, jw)
		}
		r.Table = append(r.Table, row)
	}
	overall := Row{Key: RowOverall, Judges: map[string]MeanSD{}}
	overall.Human = meanOfRows(r.Table, func(row Row) MeanSD { return row.Human })
	for _, judge := range in.Judges {
		overall.Judges[judge] = meanOfRows(r.Table, func(row Row) MeanSD { return row.Judges[judge] })
	}
	r.Table = append(r.Table, overall)

	norm := Row{Key: RowNormalized, Judges: map[string]MeanSD{}}
	cubeRow := Row{Key: RowCube, Judges: map[string]MeanSD{}}
	norm.Human = normalized(in.Dimensions, perDim, weight, func(us *unitScores, u Unit) (float64, bool) { v, ok := us.human[u]; return v, ok })
	for j := 0; j < nj; j++ {
		norm.Judges[in.Judges[j]] = normalized(in.Dimensions, perDim, weight, func(us *unitScores, u Unit) (float64, bool) {
			if _, rated := us.human[u]; !rated {
				return 0, false
			}
			v, ok := us.judges[j][u]
			return v, ok
		})
	}
	times := func(m MeanSD) MeanSD {
		if m.Mean == nil || in.Recall == nil {
			return MeanSD{N: m.N}
		}
		v := *m.Mean * *in.Recall
		return MeanSD{Mean: &v, N: m.N}
	}
	cubeRow.Human = times(norm.Human)
	for k, v := range norm.Judges {
		cubeRow.Judges[k] = times(v)
	}
	r.Table = append(r.Table, norm, cubeRow)
	if norm.Human.Mean == nil && r.Ratings > 0 {
		r.Notes = append(r.Notes, text.Text{
			ZH: "人工评分没有同时覆盖" + glossary.Term(glossary.SetRAG, "zh") + "、" + glossary.Term(glossary.SetZero, "zh") + "和" + glossary.Term(glossary.SetFull, "zh") + "，无法计算人工评定的" + glossary.Term(glossary.BoundedScore, "zh") + "与 CuBE 得分（不适用）。",
			EN: "The ratings do not cover the " + glossary.Term(glossary.SetRAG, "en") + ", the " + glossary.Term(glossary.SetZero, "en") + " and the " + glossary.Term(glossary.SetFull, "en") + " alike, so the human-rated " + glossary.Term(glossary.BoundedScore, "en") + " and CuBE score cannot be computed (n/a).",
		})
	}
}

func weightedMeanSD(xs, ws []float64) MeanSD {
	m := MeanSD{N: len(xs)}
	mean, ok := stats.WeightedMean(xs, ws)
	if !ok {
		return m
	}
	m.Mean = &mean
	if len(xs) < 2 {
		return m
	}
	var ss, tw float64
	for i, x := range xs {
		ss += ws[i] * (x - mean) * (x - mean)
		tw += ws[i]
	}
	n := float64(len(xs))
	sd := math.Sqrt(ss / tw * n / (n - 1))
	m.SD = &sd
	return m
}

// meanOfRows is the mean over dimensions of their means (and SDs), defined
// only when every dimension's is.
func meanOfRows(rows []Row, get func(Row) MeanSD) MeanSD {
	var ms, sds []float64
	n := 0
	for _, row := range rows {
		v := get(row)
		if v.Mean == nil {
			return MeanSD{}
		}
		ms = append(ms, *v.Mean)
		if v.SD != nil {
			sds = append(sds, *v.SD)
		}
		n = max(n, v.N)
	}
	out := MeanSD{N: n, Mean: ptr(stats.Mean(ms))}
	if len(sds) == len(ms) {
		out.SD = ptr(stats.Mean(sds))
	}
	return out
}

// normalized is N on 0–100: per dimension the weighted means of the rag,
// zero and full answers placed by cube.Bound, averaged over dimensions;
// undefined unless every dimension has all three and its bounds do not
// collapse.
func normalized(dims []string, perDim map[string]*unitScores, weight func(Unit) float64, value func(*unitScores, Unit) (float64, bool)) MeanSD {
	var ns []float64
	n := 0
	for _, d := range dims {
		us := perDim[d]
		means := map[string]float64{}
		for _, set := range []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull} {
			var xs, ws []float64
			for _, u := range us.units {
				if u.Set != set {
					continue
				}
				if v, ok := value(us, u); ok {
					xs, ws = append(xs, v), append(ws, weight(u))
				}
			}
			m, ok := stats.WeightedMean(xs, ws)
			if !ok {
				return MeanSD{}
			}
			means[set] = m
			n += len(xs)
		}
		v, ok := cube.Bound(means[dataset.SetRAG], means[dataset.SetZero], means[dataset.SetFull])
		if !ok {
			return MeanSD{}
		}
		ns = append(ns, v)
	}
	if len(ns) == 0 {
		return MeanSD{}
	}
	return MeanSD{Mean: ptr(stats.Mean(ns)), N: n}
}

// Krippendorff's thresholds: α ≥ 0.8 reliable, ≥ 0.667 tentative.
const (
	AlphaReliable  = 0.8
	AlphaTentative = 0.667
)

// MinAnswers is how many rated answers it takes before the spot check
// names a judge to trust: fewer leave α too uncertain to choose by.
const MinAnswers = 10

// trust names the judge whose pooled α with people is highest.
func (r *Result) trust(in Input) {
	if r.Answers < MinAnswers {
		r.TrustText = text.Text{
			ZH: fmt.Sprintf("经人工评分的回答只有 %d 个（至少需要 %d 个），不足以判断应信任哪个评审模型。", r.Answers, MinAnswers),
			EN: fmt.Sprintf("Only %d %s rated by people (at least %d are needed) — too few to say which judge to trust.", r.Answers, plural(r.Answers, "answer was", "answers were"), MinAnswers),
		}
		return
	}
	best, bestA := "", math.Inf(-1)
	for _, judge := range in.Judges {
		if a, ok := r.For(judge, ""); ok && a.Alpha.Value != nil && *a.Alpha.Value > bestA {
			best, bestA = judge, *a.Alpha.Value
		}
	}
	if best == "" {
		r.TrustText = text.Text{ZH: "人工评分与评审模型的评分重叠太少，无法判断应信任哪个评审模型。", EN: "Too few answers were rated by both people and judges to say which judge to trust."}
		return
	}
	r.Trust = best
	a := fmt.Sprintf("%.2f", bestA)
	switch {
	case bestA >= AlphaReliable:
		r.TrustText = text.Text{ZH: fmt.Sprintf("与人工评分最一致的评审模型是“%s”（α = %s ≥ 0.8，可靠）。", zhName(best), a),
			EN: fmt.Sprintf("The judge that agrees best with people is %s (α = %s ≥ 0.8, reliable).", enName(best), a)}
	case bestA >= AlphaTentative:
		r.TrustText = text.Text{ZH: fmt.Sprintf("与人工评分最一致的评审模型是“%s”（α = %s，介于 0.667 与 0.8 之间，只宜作初步结论）。", zhName(best), a),
			EN: fmt.Sprintf("The judge that agrees best with people is %s (α = %s, between 0.667 and 0.8: tentative conclusions only).", enName(best), a)}
	default:
		r.TrustText = text.Text{ZH: fmt.Sprintf("没有评审模型与人工评分足够一致：最高的是“%s”，α = %s < 0.667；请勿单凭评审模型下结论。", zhName(best), a),
			EN: fmt.Sprintf("No judge agrees well enough with people: the best, %s, has α = %s < 0.667; do not conclude from the judges alone.", enName(best), a)}
	}
}

// SummaryLine is the Summary page's one line: answers, raters, and the
// trusted judge's α with people.
func (r *Result) SummaryLine() text.Text {
	if r == nil || r.Ratings == 0 {
		return text.Text{}
	}
	alpha := text.Text{ZH: "不适用", EN: "n/a"}
	if r.Answers < MinAnswers {
		alpha = text.Text{ZH: fmt.Sprintf("不适用（回答太少，至少需要 %d 个）", MinAnswers), EN: fmt.Sprintf("n/a (too few answers; at least %d needed)", MinAnswers)}
	}
	if a, ok := r.For(r.Trust, ""); ok && a.Alpha.Value != nil {
		v := fmt.Sprintf("%.2f", *a.Alpha.Value)
		alpha = text.Text{ZH: v + "（" + zhName(r.Trust) + "）", EN: v + " (" + enName(r.Trust) + ")"}
	}
	return text.Text{
		ZH: fmt.Sprintf("%d 个回答经 %d 名人员抽检，评审模型与人工评分一致性 α = %s。", r.Answers, len(r.Raters), alpha.ZH),
		EN: fmt.Sprintf("%d %s spot-checked by %d %s; agreement of the judges with people α = %s.", r.Answers, plural(r.Answers, "answer was", "answers were"),
			len(r.Raters), plural(len(r.Raters), "person", "people"), alpha.EN),
	}
}

// zhName and enName are a judge's name in each language: the glossary's
// for the offline judges (词汇基线评审, not lexical), the user's own else.
func zhName(judge string) string { return glossary.JudgeName(judge, "zh") }
func enName(judge string) string { return glossary.JudgeName(judge, "en") }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Doubt is the warning to show where the verdict is shown when enough
// answers were rated and even the best judge agrees with people less than
// Krippendorff's tentative 0.667; ok is false otherwise.
func (r *Result) Doubt() (text.Text, bool) {
	if r == nil || r.Trust == "" {
		return text.Text{}, false
	}
	a, ok := r.For(r.Trust, "")
	if !ok || a.Alpha.Value == nil || *a.Alpha.Value >= AlphaTentative {
		return text.Text{}, false
	}
	return text.Text{
		ZH: fmt.Sprintf("人工抽检：%d 个回答中，与人工评分最一致的评审模型“%s”也只有 α = %.2f（< 0.667）；请勿单凭评审模型的评分下结论。", r.Answers, zhName(r.Trust), *a.Alpha.Value),
		EN: fmt.Sprintf("Spot check: over %d answers even the judge that agrees best with people, %s, reaches only α = %.2f (< 0.667); do not conclude from the judges' scores alone.", r.Answers, enName(r.Trust), *a.Alpha.Value),
	}, true
}
