package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// verdictWords are the plain verdicts, B relative to A.
var verdictWords = map[string][2]string{ // zh, en
	VerdictBetter:    {"明显更好", "clearly better"},
	VerdictNone:      {"没有可检测的差异", "no detectable difference"},
	VerdictWorse:     {"明显更差", "clearly worse"},
	VerdictUndefined: {"无法判断", "cannot tell"},
}

// VerdictText is a verdict's plain words in both languages.
func VerdictText(verdict string) Message {
	w, ok := verdictWords[verdict]
	if !ok {
		w = verdictWords[VerdictUndefined]
	}
	return msg(verdict, w[0], w[1])
}

// signed formats a difference with its sign and a real minus sign; a
// value that rounds to zero is "0.0", never "−0.0".
func signed(v float64) string {
	if math.Round(v*10) == 0 {
		return "0.0"
	}
	return minus(fmt.Sprintf("%+.1f", v))
}

func plain(v float64) string {
	if math.Round(v*10) == 0 {
		return "0.0"
	}
	return minus(fmt.Sprintf("%.1f", v))
}

func minus(s string) string { return strings.ReplaceAll(s, "-", "−") }

// intervalText is "95 % 区间 −7.1 至 −1.3" / "95 % interval −7.1 to −1.3".
func intervalText(ci *[2]float64) (zh, en string) {
	if ci == nil {
		return "95 % 区间无定义", "95 % interval undefined"
	}
	return "95 % 区间 " + plain(ci[0]) + " 至 " + plain(ci[1]), "95 % interval " + plain(ci[0]) + " to " + plain(ci[1])
}

// deltaText is "Δ −4.2（95 % 区间 −7.1 至 −1.3），明显更差" in both languages.
func deltaText(d Delta, unitZH, unitEN string) (zh, en string) {
	if d.Diff == nil {
		return "Δ 无定义", "Δ undefined"
	}
	iz, ie := intervalText(d.CI95)
	v := VerdictText(d.Verdict)
	return "Δ " + signed(*d.Diff) + unitZH + "（" + iz + "），" + v.ZH,
		"Δ " + signed(*d.Diff) + unitEN + " (" + ie + "), " + v.EN
}

func valueText(v *float64, ci *[2]float64) (zh, en string) {
	if v == nil {
		return "无定义", "undefined"
	}
	iz, ie := intervalText(ci)
	return plain(*v) + "（" + iz + "）", plain(*v) + " (" + ie + ")"
}

// describe writes the verdict, the headline, the bullets and the warnings.
func (c *comparison) describe() {
	res := c.res
	a, b := res.Names()
	d := res.Aggregate.Cube
	res.Verdict = d.Verdict
	c.disagreement()

	var h Message
	h.Code = d.Verdict
	n := res.Paired
	switch d.Verdict {
	case VerdictUndefined:
		h.ZH = fmt.Sprintf("无法判断“%s”与“%s”的差异：ΔCuBE 无定义（%d 个配对问题；见下方提示）。", b.ZH, a.ZH, n)
		h.EN = fmt.Sprintf("Cannot tell %s from %s: ΔCuBE is undefined (%d paired questions; see the warnings).", b.EN, a.EN, n)
	default:
		iz, ie := intervalText(d.CI95)
		mz, me := "", ""
		if d.Detectable != nil {
			mz = fmt.Sprintf("；在 %d 个问题上，可检测的最小差异约为 %s 分", n, plain(*d.Detectable))
			me = fmt.Sprintf("; with %d questions the smallest detectable difference is about %s points", n, plain(*d.Detectable))
		}
		switch d.Verdict {
		case VerdictBetter:
			h.ZH = fmt.Sprintf("“%s”比“%s”明显更好：ΔCuBE %s（%s）%s。", b.ZH, a.ZH, signed(*d.Diff), iz, mz)
			h.EN = fmt.Sprintf("%s is clearly better than %s: ΔCuBE %s (%s)%s.", b.EN, a.EN, signed(*d.Diff), ie, me)
		case VerdictWorse:
			h.ZH = fmt.Sprintf("“%s”比“%s”明显更差：ΔCuBE %s（%s）%s。", b.ZH, a.ZH, signed(*d.Diff), iz, mz)
			h.EN = fmt.Sprintf("%s is clearly worse than %s: ΔCuBE %s (%s)%s.", b.EN, a.EN, signed(*d.Diff), ie, me)
		default:
			h.ZH = fmt.Sprintf("“%s”与“%s”没有可检测的差异：ΔCuBE %s（%s）%s。", b.ZH, a.ZH, signed(*d.Diff), iz, mz)
			h.EN = fmt.Sprintf("No detectable difference between %s and %s: ΔCuBE %s (%s)%s.", b.EN, a.EN, signed(*d.Diff), ie, me)
		}
	}
	if res.JudgesDisagree {
		h.ZH += "注意：各评审模型对改进方向意见不一。"
		h.EN += " Caution: the judges disagree on the direction."
	}
	res.Headline = h

	bz, be := func() (string, string) {
		az, ae := valueText(d.A, d.ACI95)
		bz, be := valueText(d.B, d.BCI95)
		return fmt.Sprintf("“%s”：CuBE %s；“%s”：CuBE %s（同一批 %d 个问题）。", a.ZH, az, b.ZH, bz, n),
			fmt.Sprintf("%s: CuBE %s; %s: CuBE %s (the same %d questions).", a.EN, ae, b.EN, be, n)
	}()
	res.Bullets = []Message{msg("sides", bz, be)}
	add := func(code, zh, en string) { res.Bullets = append(res.Bullets, msg(code, zh, en)) }
	for _, dim := range append([]string{MetricWeighted}, res.Dimensions...) {
		dd := res.Aggregate.Weighted
		nameZH, nameEN := "加权归一化得分", "weighted normalised score"
		if dim != MetricWeighted {
			dd = res.Aggregate.Normalized[dim]
			nameZH, nameEN = glossary.Name(glossary.DimensionID, dim, "zh")+"（归一化得分）", "normalised "+glossary.Name(glossary.DimensionID, dim, "en")
		}
		z, e := deltaText(dd, " 分", " points")
		add("dimension:"+dim, nameZH+"："+z+"。", nameEN+": "+e+".")
	}
	z, e := deltaText(res.Recall, " 个百分点", " percentage points")
	add(MetricRecall, glossary.GuideRecallAt(c.topN(), "zh")+"："+z+"。", upperFirst(glossary.GuideRecallAt(c.topN(), "en"))+": "+e+".")
	if res.MFSS != nil {
		z, e := deltaText(*res.MFSS, " 分（满分 100）", " points (of 100)")
		add(MetricMFSS, "MFSS 总分："+z+"。", "MFSS total: "+e+".")
	}
	if cp := res.Aggregate.CoFEPass; cp != nil {
		z, e := deltaText(*cp, " 个百分点", " percentage points")
		add(MetricCoFEPass, "CoFE 正确率（≥ 4 分）："+z+"。", "CoFE pass rate (correctness ≥ 4): "+e+".")
	}
	cz := fmt.Sprintf("%d 个问题变好、%d 个变差、%d 个基本不变（容差 ±%s 分）", res.Better, res.Worse, res.Same, plain(res.Tolerance))
	ce := fmt.Sprintf("%d questions got better, %d worse, %d about the same (tolerance ±%s points)", res.Better, res.Worse, res.Same, plain(res.Tolerance))
	if len(res.Regressions) > 0 {
		var ids []string
		for _, ch := range res.Regressions[:min(3, len(res.Regressions))] {
			ids = append(ids, ch.ID+"（"+signed(ch.Diff)+"）")
		}
		cz += "；回退最严重的：" + strings.Join(ids, "、")
		ce += "; worst regressions: " + strings.ReplaceAll(strings.ReplaceAll(strings.Join(ids, ", "), "（", " ("), "）", ")")
	}
	add("items", cz+"。", ce+".")
	if len(res.Judges) > 1 {
		var pz, pe []string
		for _, jd := range res.Judges {
			v := VerdictText(jd.Cube.Verdict)
			jz, je := judgeNames(jd.Judge)
			if jd.Cube.Diff == nil {
				pz, pe = append(pz, jz+" 无定义"), append(pe, je+" undefined")
				continue
			}
			pz = append(pz, jz+" "+signed(*jd.Cube.Diff)+"（"+v.ZH+"）")
			pe = append(pe, je+" "+signed(*jd.Cube.Diff)+" ("+v.EN+")")
		}
		add("judges", "各评审模型的 ΔCuBE："+strings.Join(pz, "、")+"。", "ΔCuBE per judge: "+strings.Join(pe, ", ")+".")
	}
	c.warnings()
}

// judgeNames is a judge's name in Chinese and English: the glossary's for
// the offline judges (词汇基线评审, not lexical), the user's own otherwise.
func judgeNames(name string) (zh, en string) {
	return glossary.JudgeName(name, "zh"), glossary.JudgeName(name, "en")
}

// upperFirst starts an English sentence that begins with a glossary name
// (lower case for use inside sentences) with a capital.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func judgeList(names []string) (zh, en string) {
	z, e := make([]string, len(names)), make([]string, len(names))
	for i, n := range names {
		z[i], e[i] = judgeNames(n)
	}
	return strings.Join(z, "、"), strings.Join(e, ", ")
}

func (c *comparison) topN() int { return c.sides[0].rep.Result().TopN }

// disagreement flags judges whose ΔCuBE point estimates have opposite
// signs while a direction is claimed.
func (c *comparison) disagreement() {
	res := c.res
	var up, down [2][]string // zh, en
	// A direction is claimed when the cross-judge verdict or some judge's
	// verdict is better or worse; opposite signs of differences that no
	// judge can tell from 0 are noise, not a disagreement.
	claimed := res.Aggregate.Cube.Verdict == VerdictBetter || res.Aggregate.Cube.Verdict == VerdictWorse
	for _, jd := range res.Judges {
		if jd.Cube.Diff == nil {
			continue
		}
		claimed = claimed || jd.Cube.Verdict == VerdictBetter || jd.Cube.Verdict == VerdictWorse
		jz, je := judgeNames(jd.Judge)
		switch v := *jd.Cube.Diff; {
		case v > 1e-9:
			up[0], up[1] = append(up[0], jz+" "+signed(v)), append(up[1], je+" "+signed(v))
		case v < -1e-9:
			down[0], down[1] = append(down[0], jz+" "+signed(v)), append(down[1], je+" "+signed(v))
		}
	}
	if len(up[0]) == 0 || len(down[0]) == 0 || !claimed {
		return
	}
	res.JudgesDisagree = true
	_, b := res.Names()
	res.Warnings = append(res.Warnings, msg(CodeJudgesDisagree,
		fmt.Sprintf("各评审模型对改进方向意见不一：认为“%s”更好的有 %s，认为更差的有 %s（ΔCuBE）。跨评审模型的结论不可靠：请增加评审模型或重复评分，或人工复核回退的问题。",
			b.ZH, strings.Join(up[0], "、"), strings.Join(down[0], "、")),
		fmt.Sprintf("The judges disagree on the direction: %s is better for %s and worse for %s (ΔCuBE). The cross-judge verdict is not reliable: add judges or repeats, or review the regressions by hand.",
			b.EN, strings.Join(up[1], ", "), strings.Join(down[1], ", "))))
}

func (c *comparison) warnings() {
	res := c.res
	warn := func(code, zh, en string) { res.Warnings = append(res.Warnings, msg(code, zh, en)) }
	a, b := res.Names()
	for _, u := range []struct {
		side text.Text
		ids  []string
	}{{a, res.UnmatchedA}, {b, res.UnmatchedB}} {
		if len(u.ids) == 0 {
			continue
		}
		le, lz := listIDs(u.ids, 10)
		warn(CodeUnmatched,
			fmt.Sprintf("%d 个问题只在“%s”一方，未参与比较：%s。", len(u.ids), u.side.ZH, lz),
			fmt.Sprintf("%d questions are only on the %s side and are left out of the comparison: %s.", len(u.ids), u.side.EN, le))
	}
	if !res.SharedBounds {
		le, lz := listIDs(res.BoundsDiffer, 10)
		warn(CodeBoundsDiffer,
			fmt.Sprintf("%d 个问题在两方的问题文本或标准文档不同：两方各用自己的零分、满分边界（不再共用）。不同的问题：%s。", len(res.BoundsDiffer), lz),
			fmt.Sprintf("%d questions differ between the sides in their text or gold guide: each side uses its own zero and full bounds (not shared). They are: %s.", len(res.BoundsDiffer), le))
	}
	for _, o := range []struct {
		side   text.Text
		judges []string
	}{{a, res.JudgesOnlyA}, {b, res.JudgesOnlyB}} {
		if len(o.judges) > 0 {
			jz, je := judgeList(o.judges)
			warn(CodeJudgeOneSide,
				fmt.Sprintf("评审模型 %s 只给“%s”一方评了分，不参与比较。", jz, o.side.ZH),
				fmt.Sprintf("Judge %s scored only the %s side and is left out of the comparison.", je, o.side.EN))
		}
	}
	var out []string
	for _, jd := range res.Judges {
		if jd.Cube.Diff == nil {
			out = append(out, jd.Judge)
		}
	}
	if len(out) > 0 {
		jz, je := judgeList(out)
		warn(CodeJudgeLeftOut,
			fmt.Sprintf("评审模型 %s 的 ΔCuBE 在某一方无定义（缺少评分或边界重合），跨评审模型的结论只基于其余 %d 个评审模型。", jz, res.Aggregate.Cube.Judges),
			fmt.Sprintf("Judge %s has no ΔCuBE (scores missing on a side, or its bounds collapse): the cross-judge figures rest on the other %d judges.", je, res.Aggregate.Cube.Judges))
	}
	if c.sameRetrieval() {
		warn(CodeSameRetrieval,
			"两方每个问题的检索结果相同：Δ"+glossary.Term(glossary.GuideRecall, "zh")+" 必然为 0，ΔCuBE 只反映回答的差异。",
			"Both sides retrieved the same documents for every question: the change in "+glossary.Term(glossary.GuideRecall, "en")+" is 0 by construction and ΔCuBE reflects the answers only.")
	}
	if res.NotComparable > 0 {
		warn(CodeNoItemScore,
			fmt.Sprintf("%d 个问题在某一方没有完整的评分（或边界重合），无法逐题比较。", res.NotComparable),
			fmt.Sprintf("%d questions lack a complete score on one side (or its bounds collapse) and cannot be compared one by one.", res.NotComparable))
	}
	if res.mfssOneSide {
		warn(CodeMFSSOneSide, "只有一方有 MFSS 得分：不比较 MFSS。", "Only one side has MFSS scores: MFSS is not compared.")
	}
}

func (c *comparison) sameRetrieval() bool {
	a, b := c.sides[0], c.sides[1]
	for x := range c.p.ids {
		if !slices.Equal(a.side.Items[a.idx[x]].Retrieved, b.side.Items[b.idx[x]].Retrieved) {
			return false
		}
	}
	return true
}
