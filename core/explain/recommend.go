package explain

import (
	"fmt"
	"slices"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// maxExamples caps the question ids quoted in a recommendation.
const maxExamples = 5

// Recommend is the one list of recommendations of in (SUMMARY.json's
// "recommendations", the window's, the CLI's and the report's): CuBE's
// findings, each with the side it changes, and, when the verdict is below
// deployable and no finding changes the system, explain's own
// (retrieval_misses, dimension_focus, effectiveness_gap); the system side
// first, then by severity.
func Recommend(in Input) []Recommendation {
	res := in.Result
	if res == nil {
		return []Recommendation{}
	}
	th := in.Thresholds.withDefaults()
	var recs []Recommendation
	fired := map[cube.Rule]bool{}
	weakDims := map[string]bool{}
	for _, f := range res.Findings {
		fired[f.Rule] = true
		if f.Rule == cube.RuleDimensionWeak {
			weakDims[f.Evidence.Dimension] = true
		}
		recs = append(recs, FromFinding(f))
	}
	if in.Verdict.belowDeployable() {
		// CuBE's rules fire on thresholds; a verdict below deployable needs
		// something to change in the system even when none is crossed (the
		// sample: recall exactly at 80 %, no rule fired).
		if !fired[cube.RuleRecallLow] {
			if r, ok := retrievalMisses(res, th); ok {
				recs = append(recs, r)
			}
		}
		if dim, n, ok := weakestDimension(res); ok && !weakDims[dim] {
			recs = append(recs, dimensionFocus(dim, n))
		}
		if !slices.ContainsFunc(recs, func(r Recommendation) bool { return r.Side == SideSystem }) {
			recs = append(recs, effectivenessGap(res))
		}
	}
	slices.SortStableFunc(recs, func(a, b Recommendation) int {
		if a.Side != b.Side {
			if a.Side == SideSystem {
				return -1
			}
			return 1
		}
		return severityRank[a.Severity] - severityRank[b.Severity]
	})
	if recs == nil {
		recs = []Recommendation{}
	}
	return recs
}

// FromFinding is one of CuBE's findings as a recommendation: its words
// (findingText), the side it changes and its evidence under the names
// SUMMARY.json has always given them.
func FromFinding(f cube.Finding) Recommendation {
	t := findingText(f)
	return Recommendation{Code: string(f.Rule), Severity: string(f.Severity), Side: sideOf(f.Rule), Text: text.New(
		t.ZH, t.EN), Evidence: evidenceOf(f)}

}

// sideOf says what a rule's advice changes: retrieval, a weak dimension
// and answers from the model's own knowledge are the system's; judges,
// unscorable replies and bounds are the evaluation's.
func sideOf(r cube.Rule) string {
	switch r {
	case cube.RuleRecallLow, cube.RuleDimensionWeak, cube.RuleOwnKnowledge:
		return SideSystem
	}
	return SideEvaluation
}

// evidenceOf is the numbers of f each rule states (cube.Evidence says
// which), keyed as SUMMARY.json names them.
func evidenceOf(f cube.Finding) map[string]any {
	e := f.Evidence
	switch f.Rule {
	case cube.RuleRecallLow:
		return map[string]any{"recall_at_k": e.RecallAtK, "threshold": e.Threshold, "top_n": e.TopN,
			"missed": e.Missed, "examples": e.Examples}
	case cube.RuleDimensionWeak:
		return map[string]any{"dimension": e.Dimension, "normalized": e.Normalized, "threshold": e.Threshold}
	case cube.RuleJudgesDisagree:
		return map[string]any{"sd": e.SD, "threshold": e.Threshold, "judges": e.Judges, "examples": e.Examples}
	case cube.RuleSingleJudge:
		return map[string]any{"judges": e.Judges}
	case cube.RuleOwnKnowledge:
		return map[string]any{"items": e.Items, "threshold": e.Threshold, "examples": e.Examples}
	case cube.RuleUnscorable:
		return map[string]any{"judge": e.Judge, "unscorable": e.Unscorable, "judgements": e.Judgements}
	case cube.RuleBounds:
		return map[string]any{"judge": e.Judge, "flags": e.Flags}
	}
	return map[string]any{}
}

var severityRank = map[string]int{"high": 0, "medium": 1, "low": 2}

func retrievalMisses(res *cube.Result, th Thresholds) (Recommendation, bool) {
	missed := missedIDs(res)
	known := res.Items - res.UnknownGold
	if len(missed) == 0 || known <= 0 || res.RecallAtK == nil {
		return Recommendation{}, false
	}
	share := float64(len(missed)) / float64(known)
	sev := "medium"
	if *res.RecallAtK <= th.RecallLow || share >= 0.1 {
		sev = "high"
	}
	ex := missed[:min(len(missed), maxExamples)]
	zh := fmt.Sprintf("%d 个问题（%s）未检索到标准指南（如 %s）：逐一查看这些问题的%s——标准指南是否切分得过碎、检索结果中的编码或标题是否与指南一致、是否被近似事项（其他区县、层级或年份的同类事项）挤出前 %d 条；可增加%s、改进切分或向量模型、加入重排序。",
		len(missed), pct(share), listZH(ex), glossary.Term(glossary.Retrieved, "zh"), res.TopN, glossary.Term(glossary.TopN, "zh"))
	en := fmt.Sprintf("%d questions (%s) did not retrieve their gold guide (e.g. %s): read their retrieved documents — is the guide chunked too finely, do the ids or titles in the retrieved list match the guides, do near-duplicate services (another district, level or year) push it out of the top %d? Retrieve more documents, improve chunking or the embedding model, add reranking.",
		len(missed), pct(share), listEN(ex), res.TopN)
	if *res.RecallAtK >= th.RecallLow && *res.RecallAtK <= th.RecallLow+0.05 {
		zh += fmt.Sprintf("%s 为 %s，正处在 %s 的提示门槛上。", glossary.GuideRecallAt(res.TopN, "zh"), pct(*res.RecallAtK), pct(th.RecallLow))
		en += fmt.Sprintf(" %s is %s, right at the %s threshold.", capitalize(glossary.GuideRecallAt(res.TopN, "en")), pct(*res.RecallAtK), pct(th.RecallLow))
	}
	return Recommendation{Code: CodeRetrievalMisses, Severity: sev, Side: SideSystem, Text: text.New(zh, en), Evidence: map[string]any{"missed": len(missed), "gold_known": known, "recall_at_k": *res.RecallAtK,
			"threshold": th.RecallLow, "top_n": res.TopN, "examples": ex}},

		true
}

func dimensionFocus(dim string, n float64) Recommendation {
	// The advice is the dimension registry's, the same words CuBE's own
	// dimension_weak rule is given.
	adv := advice(dim)
	return Recommendation{Code: CodeDimensionFocus, Severity: "medium", Side: SideSystem, Text: text.New(
		fmt.Sprintf("%s是最弱的%s（达到标准指南回答水平的 %s %%）：%s。", glossary.Name(glossary.DimensionID, dim, "zh"),
			glossary.Term(glossary.Dimension, "zh"), points(n), adv.ZH),
		fmt.Sprintf("%s is the weakest dimension (%s %% of the level of gold-guide answers): %s.", capitalize(glossary.Name(glossary.DimensionID, dim, "en")), points(n), adv.EN)), Evidence: map[string]any{"dimension": dim, "normalized": n}}

}

func effectivenessGap(res *cube.Result) Recommendation {
	n := res.Aggregate.Normalized[cube.Weighted].Mean
	zh := "被测系统回答离标准指南回答仍有差距：在提示词中要求只依据检索到的指南作答、写明材料和时限，并抽查得分最低的问题。"
	en := "The system answers still fall short of the gold-guide answers: ask in the prompt to answer only from the retrieved guide, with its materials and time limits, and read the lowest-scoring questions."
	if n != nil {
		zh = fmt.Sprintf("被测系统回答只达到标准指南回答的 %s %%：在提示词中要求只依据检索到的指南作答、写明材料和时限，并抽查得分最低的问题。", points(*n))
		en = fmt.Sprintf("The system answers reach only %s %% of the gold-guide answers: ask in the prompt to answer only from the retrieved guide, with its materials and time limits, and read the lowest-scoring questions.", points(*n))
	}
	return Recommendation{Code: CodeEffectivenessGap, Severity: "medium", Side: SideSystem, Text: text.New(zh, en), Evidence: map[string]any{"normalized": n}}

}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
