package explain

import (
	"fmt"
	"strings"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dimension"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// findingText words one of CuBE's findings from its evidence: what was
// found and what to do about it.
func findingText(f cube.Finding) text.Text {
	e := f.Evidence
	switch f.Rule {
	case cube.RuleRecallLow:
		r := 100 * e.RecallAtK
		return text.Text{
			EN: fmt.Sprintf("The %s is %.2f %% (below %.0f %%): %d of %d questions never see their guide. Raise TOP-N or improve retrieval (chunking, embedding model, reranking). Check the misses for near-duplicate guides — the same service for another district, level or year — which retrievers confuse with the gold document.",
				glossary.GuideRecallAt(e.TopN, text.EN), r, 100*e.Threshold, e.Missed, e.GoldKnown),
			ZH: fmt.Sprintf("%s 为 %.2f %%（低于 %.0f %%）：%d 个问题中有 %d 个未检索到对应指南。可提高 TOP-N 或改进检索（切分、向量模型、重排序）。请检查未命中的问题是否与近似重复的指南混淆——同一事项在其他区县、层级或年份的版本。",
				glossary.GuideRecallAt(e.TopN, text.ZH), r, 100*e.Threshold, e.GoldKnown, e.Missed)}
	case cube.RuleDimensionWeak:
		adv := advice(e.Dimension)
		return text.Text{
			EN: fmt.Sprintf("%s reaches only %.2f of 100 between the bounds (below %.0f): %s.", e.Dimension, e.Normalized, e.Threshold, adv.EN),
			ZH: fmt.Sprintf("%s 在上下界之间仅达到 %.2f（低于 %.0f）：%s。", e.Dimension, e.Normalized, e.Threshold, adv.ZH)}
	case cube.RuleJudgesDisagree:
		return text.Text{
			EN: fmt.Sprintf("The judges' CuBE scores spread by SD %.2f points (above %.0f): add judges or repeats, and read the most disputed items to see which rubric reading differs.", e.SD, e.Threshold),
			ZH: fmt.Sprintf("各评审模型的 CuBE 分数标准差为 %.2f 分（高于 %.0f）：请增加评审模型或重复次数，并查看分歧最大的题目，找出评分标准理解的差异。", e.SD, e.Threshold)}
	case cube.RuleSingleJudge:
		return text.Text{
			EN: "Only one judge has a CuBE score, so nothing says how much another judge would differ: add a second judge.",
			ZH: "只有一个评审模型得出 CuBE 分数，无法估计评审之间的差异：建议增加第二个评审模型。"}
	case cube.RuleOwnKnowledge:
		return text.Text{
			EN: fmt.Sprintf("%d answers score %.0f or more although their guide was not retrieved (e.g. %s): the model answers from its own knowledge, which may be outdated or not local policy. Check these answers against the guides.", e.Items, e.Threshold, strings.Join(e.Examples, ", ")),
			ZH: fmt.Sprintf("有 %d 个回答在未检索到对应指南的情况下仍得分 %.0f 分及以上（如 %s）：模型在依靠自身知识作答，可能已过时或不符合本地政策。请对照指南核查这些回答。", e.Items, e.Threshold, strings.Join(e.Examples, "、"))}
	case cube.RuleUnscorable:
		return text.Text{
			EN: fmt.Sprintf("Judge %s left %d of %d replies unscorable: check its model, the rubric prompt and the score format it is asked for.", glossary.JudgeName(e.Judge, text.EN), e.Unscorable, e.Judgements),
			ZH: fmt.Sprintf("评审模型 %s 有 %d/%d 条回复无法解析为分数：请检查该模型、评分提示词及要求的分数格式。", glossary.JudgeName(e.Judge, text.ZH), e.Unscorable, e.Judgements)}
	case cube.RuleBounds:
		zh, en := make([]string, len(e.Flags)), make([]string, len(e.Flags))
		for i, fl := range e.Flags {
			zh[i], en[i] = cube.FlagText(fl).ZH, cube.FlagText(fl).EN
		}
		// The sets by their glossary names, never the ids zero and full.
		zero, full := glossary.Text(glossary.SetZeroShort), glossary.Text(glossary.SetFullShort)
		return text.Text{
			EN: fmt.Sprintf("Judge %s: %s. The %s and %s do not bracket the system here; check that the %s were given the gold guide and the %s no context.",
				glossary.JudgeName(e.Judge, text.EN), strings.Join(en, "; "), zero.EN, full.EN, full.EN, zero.EN),
			ZH: fmt.Sprintf("评审模型 %s：%s。此处%s与%s未能构成上下界；请确认生成%s时给了标准指南、生成%s时没有给上下文。",
				glossary.JudgeName(e.Judge, text.ZH), strings.Join(zh, "；"), zero.ZH, full.ZH, full.ZH, zero.ZH)}
	}
	return text.Text{ZH: string(f.Rule), EN: string(f.Rule)}
}

// genericAdvice stands in for a dimension the registry gives no advice.
var genericAdvice = text.Text{ZH: "针对该维度改进提示词和知识库内容", EN: "work on the prompt and the knowledge-base content this dimension judges"}

// advice is what to work on when a dimension is weak: the dimension
// registry's words, or genericAdvice.
func advice(dim string) text.Text {
	d, ok := dimension.Lookup(dim)
	if !ok || d.AdviceEN == "" || d.AdviceZH == "" {
		return genericAdvice
	}
	return text.Text{ZH: d.AdviceZH, EN: d.AdviceEN}
}
