package mfss

import (
	"cubeworkbench/core/glossary"
	bilingual "cubeworkbench/core/text"
	"fmt"
	"math"
	"slices"
)

// Text is a message in both languages of the app.
//
// Deprecated: use core/text's Text; this is an alias for one version.
type Text = bilingual.Text

// Flag marks a factor that cannot tell this run's answers apart, with why.
type Flag struct {
	Factor string         `json:"factor"` // a FactorNames key
	Reason bilingual.Text `json:"reason"`
}

const (
	// nearlyAll is the share of answers above which a factor that gives
	// them one value is uninformative: at 95 % a mean moves by at most
	// 5 % of the factor's range whatever the other answers say.
	nearlyAll = 0.95
	// flatRange: values closer together than this are constant at the
	// three decimals the report prints.
	flatRange = 0.01
	// sentenceShareGap and lowCoherence define a coherence that mostly
	// counts sentences: systems differ by 25 points or more in their share
	// of one-sentence answers (which score 1 by definition) while adjacent
	// sentences of the others average 0.5 or less.
	sentenceShareGap = 0.25
	lowCoherence     = 0.5
	// minFlagAnswers: with fewer answers nothing can be told apart anyway.
	minFlagAnswers = 2
)

// factorName is a factor's display name.
var factorName = map[string]bilingual.Text{
	"accuracy":            {EN: "Accuracy", ZH: "准确性"},
	"factual_consistency": {EN: "Factual consistency", ZH: "事实一致性"},
	"readability":         {EN: "Readability", ZH: "可读性"},
	"coherence":           {EN: "Coherence", ZH: "连贯性"},
	"rouge":               {EN: "ROUGE", ZH: "ROUGE"},
	"conciseness":         {EN: "Conciseness", ZH: "简洁性"},
}

// flagUninformative checks, over the answers with text (blank answers
// score 0 by definition and are left out), which factors are constant or
// nearly so, and why.
func flagUninformative(r *Result, pairs []pair, shapes []shape) []Flag {
	type answer struct {
		system string
		f      Factors
		sents  int
	}
	var as []answer
	for k, sh := range shapes {
		if !sh.empty {
			as = append(as, answer{pairs[k].system, r.Items[k].Factors, sh.sentences})
		}
	}
	flags := []Flag{}
	n := len(as)
	if n < minFlagAnswers {
		return flags
	}
	flagged := map[string]bool{}
	add := func(factor string, reason bilingual.Text) {
		flags = append(flags, Flag{factor, reason})
		flagged[factor] = true
	}
	pct := func(k, of int) float64 { return 100 * float64(k) / float64(of) }

	// Coherence is 1 by definition for a one-sentence answer.
	one := 0
	perSys := map[string][2]int{} // system → one-sentence answers, answers
	var multiSum float64
	multiN := 0
	for _, a := range as {
		c := perSys[a.system]
		c[1]++
		if a.sents <= 1 {
			one++
			c[0]++
		} else if a.f.Has("coherence") {
			multiSum += a.f.Coherence
			multiN++
		}
		perSys[a.system] = c
	}
	if float64(one) >= nearlyAll*float64(n) {
		add("coherence", bilingual.Text{
			EN: fmt.Sprintf("Coherence: %d of %d answers (%.1f %%) are one sentence and score 1 by definition; it cannot tell them apart.",
				one, n, pct(one, n)),
			ZH: fmt.Sprintf("连贯性：%d 个回答中有 %d 个（%.1f %%）只有一句，按定义得 1 分，无法区分回答。", n, one, pct(one, n)),
		})
	} else if multiN > 0 && len(perSys) > 1 {
		hiSys, loSys := "", ""
		hi, lo := -1.0, 2.0
		for _, s := range sortedKeys(perSys) {
			c := perSys[s]
			if c[1] < minFlagAnswers {
				continue
			}
			share := float64(c[0]) / float64(c[1])
			if share > hi {
				hi, hiSys = share, s
			}
			if share < lo {
				lo, loSys = share, s
			}
		}
		mean := multiSum / float64(multiN)
		if hiSys != "" && hi-lo >= sentenceShareGap && mean <= lowCoherence {
			add("coherence", bilingual.Text{
				EN: fmt.Sprintf("Coherence mostly counts sentences here: %.0f %% of %s's answers are one sentence (1 by definition) against %.0f %% of %s's, "+
					"while adjacent sentences of the %d multi-sentence answers average %.3f with embedder %s. A higher coherence mostly means fewer sentences.",
					100*hi, setName(hiSys, "en"), 100*lo, setName(loSys, "en"), multiN, mean, r.Embedder),
				ZH: fmt.Sprintf("连贯性在此主要反映句子数：%s的回答 %.0f %% 只有一句（按定义得 1 分），%s为 %.0f %%；"+
					"而 %d 个多句回答的相邻句相似度平均只有 %.3f（向量模型 %s）。连贯性高主要意味着句子少。",
					setName(hiSys, "zh"), 100*hi, setName(loSys, "zh"), 100*lo, multiN, mean, r.Embedder),
			})
		}
	}

	// Conciseness is 1 with no repeated sentence within twice the reference.
	full := 0
	for _, a := range as {
		if a.f.Conciseness >= 1 {
			full++
		}
	}
	if float64(full) >= nearlyAll*float64(n) {
		add("conciseness", bilingual.Text{
			EN: fmt.Sprintf("Conciseness: %d of %d answers (%.1f %%) repeat no sentence and stay within twice the reference's length, so they score 1; it cannot tell them apart.",
				full, n, pct(full, n)),
			ZH: fmt.Sprintf("简洁性：%d 个回答中有 %d 个（%.1f %%）没有重复句且不超过参考答案长度的两倍，均得 1 分，无法区分回答。", n, full, pct(full, n)),
		})
	}

	// Any factor that takes one value, or nearly so.
	for i, name := range FactorNames {
		if flagged[name] {
			continue
		}
		var vals []float64
		for _, a := range as {
			if a.f.Has(name) {
				vals = append(vals, a.f.vector()[i])
			}
		}
		if len(vals) < minFlagAnswers {
			continue
		}
		mode, count := modeOf(vals)
		lo, hi := slices.Min(vals), slices.Max(vals)
		switch {
		case hi-lo < flatRange:
			add(name, bilingual.Text{
				EN: fmt.Sprintf("%s: every one of %d answers scores between %.3f and %.3f; it cannot tell them apart.", factorName[name].EN, len(vals), lo, hi),
				ZH: fmt.Sprintf("%s：%d 个回答的得分都在 %.3f 到 %.3f 之间，无法区分回答。", factorName[name].ZH, len(vals), lo, hi),
			})
		case float64(count) >= nearlyAll*float64(len(vals)):
			add(name, bilingual.Text{
				EN: fmt.Sprintf("%s: %d of %d answers (%.1f %%) score exactly %.3f; it can hardly tell them apart.",
					factorName[name].EN, count, len(vals), pct(count, len(vals)), mode),
				ZH: fmt.Sprintf("%s：%d 个回答中有 %d 个（%.1f %%）得分恰为 %.3f，几乎无法区分回答。",
					factorName[name].ZH, len(vals), count, pct(count, len(vals)), mode),
			})
		}
	}
	slices.SortStableFunc(flags, func(a, b Flag) int {
		return slices.Index(FactorNames, a.Factor) - slices.Index(FactorNames, b.Factor)
	})
	return flags
}

// modeOf is the most frequent value (to 1e-9) and how often it occurs.
func modeOf(vals []float64) (float64, int) {
	counts := map[int64]int{}
	best, bestN := 0.0, 0
	for _, v := range vals {
		k := int64(math.Round(v * 1e9))
		counts[k]++
		if counts[k] > bestN {
			best, bestN = v, counts[k]
		}
	}
	return best, bestN
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// setName is an answer set's name as every screen shows it (零上下文回答
// for zero …); a workbook's own system keeps its name.
func setName(set string, lang bilingual.Lang) string {
	return glossary.Name(glossary.SetID, set, lang)
}
