package cube

import (
	"fmt"
	"slices"
	"strings"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/text"
)

// maxListed caps the item ids quoted as evidence.
const maxListed = 5

// unscorableHigh is the share of unscorable replies above which the judge
// set-up itself is worth a look.
const unscorableHigh = 0.05

// dimensionAdvice says what to work on when a built-in dimension is weak
// (core/dimension holds the text).
func dimensionAdvice(name string) (text.Text, bool) {
	d, ok := dimension.Lookup(name)
	if !ok || d.AdviceEN == "" {
		return text.Text{}, false
	}
	return text.Text{EN: d.AdviceEN, ZH: d.AdviceZH}, true
}

var genericAdvice = text.Text{
	EN: "work on the prompt and the knowledge-base content this dimension judges",
	ZH: "针对该维度改进提示词和知识库内容",
}

// find applies the rules whose thresholds Config holds.
func (e *evaluation) find(res *Result) []Finding {
	recs := []Finding{}
	cfg := e.cfg

	if res.RecallAtK != nil && *res.RecallAtK < cfg.RecallLow {
		var missed []string
		for i, it := range e.items {
			if e.goldKnown[i] && e.rank[i] == 0 && len(missed) < maxListed {
				missed = append(missed, it.ID)
			}
		}
		known := res.Items - res.UnknownGold
		r := 100 * *res.RecallAtK
		recs = append(recs, Finding{Rule: RuleRecallLow, Severity: SeverityHigh, Text: text.Text{
			EN: fmt.Sprintf("Recall@%d is %.2f %% (below %.0f %%): %d of %d questions never see their guide. Raise TOP-N or improve retrieval (chunking, embedding model, reranking). Check the misses for near-duplicate guides — the same service for another district, level or year — which retrievers confuse with the gold document.",
				cfg.TopN, r, 100*cfg.RecallLow, known-res.Retrieved, known),
			ZH: fmt.Sprintf("召回率@%d 为 %.2f %%（低于 %.0f %%）：%d 个问题中有 %d 个未检索到对应指南。可提高 TOP-N 或改进检索（切分、向量模型、重排序）。请检查未命中的问题是否与近似重复的指南混淆——同一事项在其他区县、层级或年份的版本。",
				cfg.TopN, r, 100*cfg.RecallLow, known, known-res.Retrieved)},
			Evidence: Evidence{RecallAtK: *res.RecallAtK, Threshold: cfg.RecallLow, TopN: cfg.TopN,
				Missed: known - res.Retrieved, Examples: missed},
		})
	}

	for _, d := range e.dims {
		m := res.Aggregate.Normalized[d].Mean
		if m == nil || *m >= cfg.DimensionWeak {
			continue
		}
		adv, ok := dimensionAdvice(d)
		if !ok {
			adv = genericAdvice
		}
		recs = append(recs, Finding{Rule: RuleDimensionWeak, Severity: SeverityMedium, Text: text.Text{
			EN: fmt.Sprintf("%s reaches only %.2f of 100 between the bounds (below %.0f): %s.", d, *m, cfg.DimensionWeak, adv.EN),
			ZH: fmt.Sprintf("%s 在上下界之间仅达到 %.2f（低于 %.0f）：%s。", d, *m, cfg.DimensionWeak, adv.ZH)},
			Evidence: Evidence{Dimension: d, Normalized: *m, Threshold: cfg.DimensionWeak},
		})
	}

	if sd := res.Aggregate.Cube.SD; sd != nil && *sd > cfg.JudgeSDHigh {
		top := e.mostDisputed(res)
		recs = append(recs, Finding{Rule: RuleJudgesDisagree, Severity: SeverityMedium, Text: text.Text{
			EN: fmt.Sprintf("The judges' CuBE scores spread by SD %.2f points (above %.0f): add judges or repeats, and read the most disputed items to see which rubric reading differs.", *sd, cfg.JudgeSDHigh),
			ZH: fmt.Sprintf("各评审模型的 CuBE 分数标准差为 %.2f 分（高于 %.0f）：请增加评审模型或重复次数，并查看分歧最大的题目，找出评分标准理解的差异。", *sd, cfg.JudgeSDHigh)},
			Evidence: Evidence{SD: *sd, Threshold: cfg.JudgeSDHigh, Judges: len(res.Judges), Examples: top},
		})
	}
	if res.Aggregate.Cube.N == 1 {
		recs = append(recs, Finding{Rule: RuleSingleJudge, Severity: SeverityLow, Text: text.Text{
			EN: "Only one judge has a CuBE score, so nothing says how much another judge would differ: add a second judge.",
			ZH: "只有一个评审模型得出 CuBE 分数，无法估计评审之间的差异：建议增加第二个评审模型。"},
			Evidence: Evidence{Judges: len(res.Judges)},
		})
	}

	var own []string
	count := 0
	for i, d := range res.ItemDetails {
		if e.goldKnown[i] && e.rank[i] == 0 && d.RAGOverall != nil && *d.RAGOverall >= cfg.ZeroHighScore {
			count++
			if len(own) < maxListed {
				own = append(own, d.ID)
			}
		}
	}
	if count > 0 {
		recs = append(recs, Finding{Rule: RuleOwnKnowledge, Severity: SeverityLow, Text: text.Text{
			EN: fmt.Sprintf("%d answers score %.0f or more although their guide was not retrieved (e.g. %s): the model answers from its own knowledge, which may be outdated or not local policy. Check these answers against the guides.", count, cfg.ZeroHighScore, strings.Join(own, ", ")),
			ZH: fmt.Sprintf("有 %d 个回答在未检索到对应指南的情况下仍得分 %.0f 分及以上（如 %s）：模型在依靠自身知识作答，可能已过时或不符合本地政策。请对照指南核查这些回答。", count, cfg.ZeroHighScore, strings.Join(own, "、"))},
			Evidence: Evidence{Items: count, Threshold: cfg.ZeroHighScore, Examples: own},
		})
	}

	for _, jr := range res.Judges {
		if jr.Judgements > 0 && float64(jr.Unscorable) > unscorableHigh*float64(jr.Judgements) {
			recs = append(recs, Finding{Rule: RuleUnscorable, Severity: SeverityMedium, Text: text.Text{
				EN: fmt.Sprintf("Judge %s left %d of %d replies unscorable: check its model, the rubric prompt and the score format it is asked for.", jr.Judge, jr.Unscorable, jr.Judgements),
				ZH: fmt.Sprintf("评审模型 %s 有 %d/%d 条回复无法解析为分数：请检查该模型、评分提示词及要求的分数格式。", jr.Judge, jr.Unscorable, jr.Judgements)},
				Evidence: Evidence{Judge: jr.Judge, Unscorable: jr.Unscorable, Judgements: jr.Judgements},
			})
		}
		var bounds []string
		for _, f := range jr.Flags {
			if strings.HasSuffix(f, FlagCollapse) || strings.HasSuffix(f, FlagOutside) {
				bounds = append(bounds, f)
			}
		}
		if len(bounds) > 0 {
			recs = append(recs, Finding{Rule: RuleBounds, Severity: SeverityMedium, Text: text.Text{
				EN: fmt.Sprintf("Judge %s: %s. The zero and full answers do not bracket the system here; check that the full set was given the gold guide and the zero set no context.", jr.Judge, strings.Join(bounds, "; ")),
				ZH: fmt.Sprintf("评审模型 %s：%s。此处零上下文与全文档答案未能构成上下界；请确认 full 组给了标准指南、zero 组没有给上下文。", jr.Judge, strings.Join(translateFlags(bounds, "zh"), "；"))},
				Evidence: Evidence{Judge: jr.Judge, Flags: bounds},
			})
		}
	}
	return recs
}

// mostDisputed lists the items whose judges disagree most overall.
func (e *evaluation) mostDisputed(res *Result) []string {
	type pair struct {
		id string
		sd float64
	}
	var ps []pair
	for _, d := range res.ItemDetails {
		if d.DisagreementOverall != nil {
			ps = append(ps, pair{d.ID, *d.DisagreementOverall})
		}
	}
	slices.SortStableFunc(ps, func(a, b pair) int {
		switch {
		case a.sd > b.sd:
			return -1
		case a.sd < b.sd:
			return 1
		}
		return 0
	})
	var ids []string
	for _, p := range ps[:min(len(ps), maxListed)] {
		ids = append(ids, p.id)
	}
	return ids
}
