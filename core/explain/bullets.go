package explain

import (
	"fmt"
	"math"
	"slices"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// maxBullets keeps the why panel readable: the first five that apply, in
// the order retrieval, answers, score, judges, unscorable, dimension.
const maxBullets = 5

func bullets(in Input) []Bullet {
	res := in.Result
	if res == nil {
		return []Bullet{{Code: BulletCube, Text: text.New("无法判定：没有 CuBE 评估结果", "Undetermined: there is no CuBE result"), Numbers: map[string]any{"cube": nil}}}
	}
	out := []Bullet{retrievalBullet(res), effectivenessBullet(res), cubeBullet(res, in.Verdict), judgesBullet(res)}
	if b, ok := unscorableBullet(res); ok {
		out = append(out, b)
	}
	if b, ok := dimensionBullet(res); ok {
		out = append(out, b)
	}
	return out[:min(len(out), maxBullets)]
}

func retrievalBullet(res *cube.Result) Bullet {
	known := res.Items - res.UnknownGold
	missed := known - res.Retrieved
	recallZH, recallEN := glossary.GuideRecallAt(res.TopN, "zh"), glossary.GuideRecallAt(res.TopN, "en")
	nums := map[string]any{"questions": res.Items, "gold_known": known, "missed": missed,
		"recall_at_k": res.RecallAtK, "top_n": res.TopN, "unknown_gold": res.UnknownGold, "share_missed": nil}
	var b Bullet
	switch {
	case res.RecallAtK == nil && res.RecallNA != nil:
		b = Bullet{Code: BulletRecallUndefined, Text: text.New(res.RecallNA.ZH, res.RecallNA.EN)}
	case res.RecallAtK == nil || known <= 0:
		b = Bullet{Code: BulletRecallUndefined, Text: text.New(
			fmt.Sprintf("没有问题标注了标准指南，无法计算%s", recallZH),
			fmt.Sprintf("No question names its gold guide, so %s cannot be computed", recallEN))}

	case missed == 0:
		b = Bullet{Code: BulletAllRetrieved, Text: text.New(
			fmt.Sprintf("全部 %d 个问题都检索到了标准指南（%s 为 100 %%）", known, recallZH),
			fmt.Sprintf("All %d questions retrieved their gold guide (%s 100 %%)", known, recallEN))}

		nums["share_missed"] = 0.0
	default:
		share := float64(missed) / float64(known)
		nums["share_missed"] = share
		b = Bullet{Code: BulletNotRetrieved, Text: text.New(
			fmt.Sprintf("%d 个问题（%s）未检索到标准指南（%s 为 %s）", missed, pct(share), recallZH, pct(*res.RecallAtK)),
			fmt.Sprintf("%d questions (%s) did not retrieve their gold guide (%s %s)", missed, pct(share), recallEN, pct(*res.RecallAtK)))}

	}
	if res.UnknownGold > 0 && b.Code != BulletRecallUndefined {
		b.ZH += fmt.Sprintf("；另有 %d 个问题未标注标准指南，不计入", res.UnknownGold)
		b.EN += fmt.Sprintf("; %d more questions name no gold guide and are left out", res.UnknownGold)
	}
	b.Numbers = nums
	return b
}

func effectivenessBullet(res *cube.Result) Bullet {
	n := res.Aggregate.Normalized[cube.Weighted].Mean
	whereZH, whereEN := "检索命中时", "When the guide was retrieved"
	if res.Subset == cube.SubsetAll {
		whereZH, whereEN = "在全部问题上", "Over all questions"
	}
	b := Bullet{Code: BulletEffectiveness, Numbers: map[string]any{"normalized": n, "subset": res.Subset}}
	if n == nil {
		b.ZH = whereZH + "的回答有效性无法计算：" + glossary.Term(glossary.Bounds, "zh") + "缺少评分或塌缩"
		b.EN = whereEN + ", the answers' effectiveness cannot be computed: the bounds lack scores or collapse"
		return b
	}
	b.ZH = fmt.Sprintf("%s，%s达到%s水平的 %s %%（以%s为 0 %%）", whereZH,
		glossary.Term(glossary.SetRAG, "zh"), glossary.Term(glossary.SetFullShort, "zh"), points(*n), glossary.Term(glossary.SetZeroShort, "zh"))
	b.EN = fmt.Sprintf("%s, %s reach %s %% of the level of %s (%s = 0 %%)", whereEN,
		glossary.Term(glossary.SetRAG, "en"), points(*n), glossary.Term(glossary.SetFullShort, "en"), glossary.Term(glossary.SetZeroShort, "en"))
	switch {
	case *n > 100:
		b.ZH += "，超过上界"
		b.EN += ", above the upper bound"
	case *n < 0:
		b.ZH += "，低于下界"
		b.EN += ", below the lower bound"
	}
	return b
}

func cubeBullet(res *cube.Result, v Verdict) Bullet {
	c := res.Aggregate.Cube.Mean
	if v.Cube != nil {
		c = v.Cube
	}
	ci := res.Aggregate.CubeCI95
	b := Bullet{Code: BulletCube, Numbers: map[string]any{"cube": c, "ci95": ci, "deployable_at": v.DeployableAt,
		"needs_work_at": v.NeedsWorkAt, "verdict": v.Code, "straddles": nil}}
	code := v.Code
	if code == "" { // a session that did not say: never a blank verdict
		code = glossary.Undetermined
	}
	verdictZH, verdictEN := code.Words("zh"), code.Words("en")
	if c == nil {
		b.ZH = glossary.Term(glossary.VerdictUndetermined, "zh") + "：未能算出 " + glossary.Term(glossary.CubeScore, "zh")
		b.EN = glossary.Term(glossary.VerdictUndetermined, "en") + ": no CuBE score could be computed"
		return b
	}
	b.ZH = fmt.Sprintf("%s %s（= 回答有效性 × 指南召回率）", glossary.Term(glossary.CubeScore, "zh"), two(*c))
	b.EN = fmt.Sprintf("%s %s (= effectiveness × guide recall)", glossary.Term(glossary.CubeScore, "en"), two(*c))
	if ci != nil {
		b.ZH += fmt.Sprintf("，%s为 %s–%s", glossary.Interval95With(res.BootstrapB, "zh"), two(ci[0]), two(ci[1]))
		b.EN += fmt.Sprintf(", %s %s–%s", glossary.Interval95With(res.BootstrapB, "en"), two(ci[0]), two(ci[1]))
	}
	b.ZH += fmt.Sprintf("；%s需 ≥ %s，%s需 ≥ %s，结论：%s", glossary.Term(glossary.VerdictDeployable, "zh"), points(v.DeployableAt),
		glossary.Term(glossary.VerdictNeedsWork, "zh"), points(v.NeedsWorkAt), verdictZH)
	b.EN += fmt.Sprintf("; deployable needs ≥ %s, needs work ≥ %s; verdict: %s", points(v.DeployableAt), points(v.NeedsWorkAt), verdictEN)
	// An interval across a threshold means another set of questions of the
	// same kind could well give the other verdict: say so, never hide it.
	if ci != nil {
		var cross []float64
		for _, t := range []float64{v.DeployableAt, v.NeedsWorkAt} {
			if ci[0] < t && t <= ci[1] {
				cross = append(cross, t)
			}
		}
		if len(cross) > 0 {
			b.Numbers["straddles"] = cross
			b.ZH += fmt.Sprintf("；区间跨过 %s 分的门槛，换一批同类问题结论可能不同", points(cross[0]))
			b.EN += fmt.Sprintf("; the interval crosses the %s threshold, so another set of such questions could give another verdict", points(cross[0]))
		}
	}
	return b
}

func judgesBullet(res *cube.Result) Bullet {
	agg := res.Aggregate.Cube
	switch {
	case agg.N >= 2 && agg.SD != nil:
		return Bullet{Code: BulletJudgesSpread, Text: text.New(
			fmt.Sprintf("%d 个评审模型之间的 CuBE 得分相差 ±%s 分（标准差）", agg.N, two(*agg.SD)),
			fmt.Sprintf("The %d judges' CuBE scores differ by ±%s points (SD)", agg.N, two(*agg.SD))), Numbers: map[string]any{"judges": agg.N, "sd": agg.SD}}

	case agg.N == 1:
		return Bullet{Code: BulletSingleJudge, Text: text.New(
			glossary.Term(glossary.SingleJudge, "zh")+"：无法估计换一个评审模型结论会变多少",
			"Only 1 judge: nothing says how much another judge would change the verdict"), Numbers: map[string]any{"judges": 1, "sd": nil}}

	}
	return Bullet{Code: BulletNoJudge, Text: text.New(
		"没有评审模型给出 CuBE 得分",
		"No judge produced a CuBE score"), Numbers: map[string]any{"judges": agg.N, "sd": nil}}

}

func unscorableBullet(res *cube.Result) (Bullet, bool) {
	var un, all int
	for _, j := range res.Judges {
		un += j.Unscorable
		all += j.Judgements
	}
	if un == 0 || all == 0 {
		return Bullet{}, false
	}
	share := float64(un) / float64(all)
	return Bullet{Code: BulletUnscorable, Text: text.New(
			fmt.Sprintf("%d 条评审回复（%s）%s，未计入任何平均", un, pct(share), glossary.Term(glossary.Unscorable, "zh")),
			fmt.Sprintf("%d judge replies (%s) were unscorable and left out of every mean", un, pct(share))), Numbers: map[string]any{"unscorable": un, "judgements": all, "share": share}},

		true
}

// weakestDimension is the dimension with the lowest mean bounded score
// across judges; ok is false with fewer than two defined.
func weakestDimension(res *cube.Result) (dim string, n float64, ok bool) {
	defined := 0
	n = math.Inf(1)
	for _, d := range res.Dimensions {
		m := res.Aggregate.Normalized[d].Mean
		if m == nil {
			continue
		}
		defined++
		if *m < n {
			dim, n = d, *m
		}
	}
	return dim, n, defined >= 2
}

func dimensionBullet(res *cube.Result) (Bullet, bool) {
	dim, n, ok := weakestDimension(res)
	if !ok {
		return Bullet{}, false
	}
	dims := slices.Clone(res.Dimensions)
	return Bullet{Code: BulletWeakestDimension, Text: text.New(
			fmt.Sprintf("最弱的%s是%s：达到%s水平的 %s %%", glossary.Term(glossary.Dimension, "zh"),
				glossary.Name(glossary.DimensionID, dim, "zh"), glossary.Term(glossary.SetFullShort, "zh"), points(n)),
			fmt.Sprintf("The weakest dimension is %s: %s %% of the level of %s", glossary.Name(glossary.DimensionID, dim, "en"),
				points(n), glossary.Term(glossary.SetFullShort, "en"))), Numbers: map[string]any{"dimension": dim, "normalized": n, "dimensions": dims}},

		true
}
