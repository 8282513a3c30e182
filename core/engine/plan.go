package engine

import (
	"slices"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
)

// PlanStep is one step's share of a pre-flight estimate (result.PlanStep).
type PlanStep = result.PlanStep

// Preflight is the pre-flight estimate shown before a run starts
// (result.Preflight, which also words it).
type Preflight = result.Preflight

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
	have := haveJudgements(&wb.Scores)
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
		owedJudgements(items, judgedSets, names, cubeDims, max(ep.Repeats, 1), answered,
			func(id, set, dim string, rep int) bool { return have.has(id, set, ep.Name, dim, rep) },
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
