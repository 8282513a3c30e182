package engine

import (
	"fmt"
	"slices"
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
	Cost             float64 // every priced step, whatever its currency (see CostBy)
	// Reasks are the calls within Calls that only happen when a judge's
	// reply cannot be read and is asked again (parseRetries per judgement).
	Reasks int
	// CostBy is the cost per currency; Unpriced names the endpoints
	// without a price, whose cost is unknown, never free.
	CostBy   map[string]float64
	Unpriced []string
}

// parseRetries is how many more times a judge is asked after an unreadable
// reply (judge.Judge.ParseRetries): the estimate's upper bound counts them.
const parseRetries = 2

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
		e := llm.Estimate(llm.Endpoint{Model: ep.Model, PriceInPerMTok: ep.PriceIn, PriceOutPerMTok: ep.PriceOut, Currency: ep.Currency}, calls, prompt/calls, completion/calls)
		plan.Steps = append(plan.Steps, PlanStep{Step: step, Label: label, Calls: calls, Estimate: e})
		plan.Calls += calls
		plan.PromptTokens += e.PromptTokens
		plan.CompletionTokens += e.CompletionTokens
		plan.Cost += e.Cost
		if !e.Priced {
			if !slices.Contains(plan.Unpriced, label) {
				plan.Unpriced = append(plan.Unpriced, label)
			}
			return
		}
		if plan.CostBy == nil {
			plan.CostBy = map[string]float64{}
		}
		plan.CostBy[ep.Currency] += e.Cost
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
		// The upper bound: every unreadable reply is asked parseRetries
		// more times with a new seed.
		plan.Reasks += parseRetries * calls
		add(StepJudge, ep.Name, ep, (1+parseRetries)*calls, (1+parseRetries)*prompt, (1+parseRetries)*120*calls)
	}
	return plan
}

// Describe lists the steps, e.g. "judge qwen 4,800 calls; bounds gen 240 calls".
func (p Preflight) Describe(lang string) string {
	var parts []string
	for _, s := range p.Steps {
		label := s.Step
		if s.Label != "" {
			label += " " + s.Label
		}
		parts = append(parts, fmt.Sprintf("%s %d", label, s.Calls))
	}
	return strings.Join(parts, "; ")
}

// Estimate is the sentence shown before a paid run: an upper bound, re-asks
// of unreadable replies included, and the cost in each currency or unknown.
func (p Preflight) Estimate(lang string) string {
	cost := llm.Spent(p.CostBy, p.Unpriced, lang)
	about, aboutZH := "; cost at most about ", "；费用至多约 "
	if len(p.CostBy) == 0 { // only unknown costs: no amount to be "about"
		about, aboutZH = "; cost ", "；"
	}
	if lang == "zh" {
		if cost != "" {
			cost = aboutZH + cost
		}
		return fmt.Sprintf("预计最多调用接口 %d 次（%s；其中 %d 次只在评审回复读不出分数、需要重问时发生），至多约 %d 个输入 token、%d 个输出 token%s。已保存在运行库中的结果不会重复调用。",
			p.Calls, p.Describe(lang), p.Reasks, p.PromptTokens, p.CompletionTokens, cost)
	}
	if cost != "" {
		cost = about + cost
	}
	return fmt.Sprintf("This run makes at most %d endpoint calls (%s; %d of them only if judges' replies cannot be read and are asked again), at most about %d prompt and %d completion tokens%s. Replies already in the run store are not requested again.",
		p.Calls, p.Describe(lang), p.Reasks, p.PromptTokens, p.CompletionTokens, cost)
}
