package engine

import (
	"fmt"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
)

// PlanStep is one step's share of a pre-flight estimate.
type PlanStep struct {
	Step     string
	Label    string
	Calls    int
	Estimate llm.CostEstimate
}

// Preflight is the pre-flight estimate shown before a run starts: the endpoint
// calls each step will make at most (replies already in the store make
// fewer), the tokens they carry and their cost at the profile's prices.
type Preflight struct {
	Steps            []PlanStep
	Calls            int
	PromptTokens     int
	CompletionTokens int
	Cost             float64
}

// tokensOf estimates tokens from characters: about one token per Han
// character and one per four other characters, as common tokenizers do.
func tokensOf(s string) int {
	han, other := 0, 0
	for _, r := range s {
		if r >= 0x4E00 && r <= 0x9FFF {
			han++
		} else {
			other++
		}
	}
	return han + other/4
}

// rubricTokens is the size of a rendered rubric around its inputs.
const rubricTokens = 450

// Plan estimates what Run will call for wb under p.
func Plan(wb *dataset.Workbook, p profile.Profile) Preflight {
	var plan Preflight
	idx := wb.GuideIndex()
	docTokens := func(it dataset.Item) int {
		if i, ok := idx[it.DocID]; ok {
			return tokensOf(wb.Guides[i].Text)
		}
		return 0
	}
	add := func(step, label string, ep profile.Endpoint, calls, prompt, completion int) {
		if calls == 0 {
			return
		}
		e := llm.Estimate(llm.Endpoint{Model: ep.Model, PriceInPerMTok: ep.PriceIn, PriceOutPerMTok: ep.PriceOut}, calls, prompt/calls, completion/calls)
		plan.Steps = append(plan.Steps, PlanStep{Step: step, Label: label, Calls: calls, Estimate: e})
		plan.Calls += calls
		plan.PromptTokens += e.PromptTokens
		plan.CompletionTokens += e.CompletionTokens
		plan.Cost += e.Cost
	}
	gen := p.Generator
	items := wb.Items
	if len(items) == 0 && gen != nil && gen.BaseURL != "" {
		prompt := 0
		for _, g := range wb.Guides {
			prompt += tokensOf(g.Text) + 200
		}
		add(StepQuestions, gen.Name, *gen, len(wb.Guides), prompt, 40*len(wb.Guides))
		for _, g := range wb.Guides { // the questions to come, for the later steps
			items = append(items, dataset.Item{DocID: g.ID, Question: strings.Repeat("问", 30)})
		}
	}
	if t := p.Target; t != nil {
		n := 0
		for _, it := range items {
			if it.Answer(dataset.SetRAG) == "" {
				n++
			}
		}
		if n > 0 {
			plan.Steps = append(plan.Steps, PlanStep{Step: StepCollect, Label: t.Kind, Calls: n})
			plan.Calls += n
		}
	}
	if gen != nil && gen.BaseURL != "" {
		calls, prompt := 0, 0
		for _, it := range items {
			if it.Answer(dataset.SetZero) == "" {
				calls++
				prompt += tokensOf(it.Question) + 150
			}
			if _, ok := idx[it.DocID]; ok && it.Answer(dataset.SetFull) == "" {
				calls++
				prompt += tokensOf(it.Question) + docTokens(it) + 150
			}
		}
		add(StepBounds, gen.Name, *gen, calls, prompt, 300*calls)
	}
	have := haveJudgements(wb.Scores)
	names, cubeDims := judgingDims(p, items)
	answered := func(it *dataset.Item, set string) bool {
		switch {
		case it.Answer(set) != "":
			return true
		case set == dataset.SetRAG:
			return p.Target != nil // to be collected
		default:
			return gen != nil // to be generated
		}
	}
	for _, ep := range p.Judges {
		if ep.Imported() || ep.Offline() {
			continue
		}
		calls, prompt := 0, 0
		owedJudgements(items, names, cubeDims, max(ep.Repeats, 1), answered,
			func(id, set, dim string, rep int) bool { return have[slot{id, set, ep.Name, dim, rep}] },
			func(i int, set string, d, _ int) {
				it := items[i]
				size := rubricTokens + tokensOf(it.Question) + max(tokensOf(it.Answer(set)), 200) + docTokens(it)
				if d >= cubeDims {
					size = rubricTokens + tokensOf(it.Question) + max(tokensOf(it.Answer(dataset.SetRAG)), 200) + tokensOf(it.Reference) + 3*docTokens(it)
				}
				calls++
				prompt += size
			})
		add(StepJudge, ep.Name, ep, calls, prompt, 120*calls)
	}
	return plan
}

// Describe lists the steps, e.g. "judge qwen 4,800 calls; bounds gen 240 calls".
func (p Preflight) Describe(lang string) string {
	var parts []string
	for _, s := range p.Steps {
		label := StepName(s.Step, lang)
		if s.Label != "" {
			label += " " + s.Label
		}
		parts = append(parts, fmt.Sprintf("%s %d", label, s.Calls))
	}
	return strings.Join(parts, "; ")
}

// Estimate is the sentence shown before a paid run.
func (p Preflight) Estimate(lang string) string {
	cost := ""
	if p.Cost > 0 {
		cost = fmt.Sprintf(", ≈ $%.2f", p.Cost)
	}
	if lang == "zh" {
		if p.Cost > 0 {
			cost = fmt.Sprintf("，约 $%.2f", p.Cost)
		}
		return fmt.Sprintf("预计最多调用接口 %d 次（%s），约 %d 个输入词元、%d 个输出词元%s。已保存在运行库中的结果不会重复调用。",
			p.Calls, p.Describe(lang), p.PromptTokens, p.CompletionTokens, cost)
	}
	return fmt.Sprintf("This run makes at most %d endpoint calls (%s), about %d prompt and %d completion tokens%s. Replies already in the run store are not requested again.",
		p.Calls, p.Describe(lang), p.PromptTokens, p.CompletionTokens, cost)
}

// stepNames are the steps' names for people, as the window's labels.
var stepNames = map[string][2]string{
	StepQuestions: {"questions", "生成问题"},
	StepCollect:   {"collect answers", "收集回答"},
	StepBounds:    {"bound answers", "边界答案"},
	StepJudge:     {"judging", "评分"},
	StepMetrics:   {"metrics", "指标计算"},
	StepReport:    {"report", "报告"},
}

// StepName is a step's name in lang; the id itself for an unknown step.
func StepName(step, lang string) string {
	n, ok := stepNames[step]
	switch {
	case !ok:
		return step
	case lang == "zh":
		return n[1]
	}
	return n[0]
}
