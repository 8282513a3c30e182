package compare

import (
	"fmt"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// Row is one line of the delta table: what the CLI prints and the
// window shows, from the same function.
type Row struct {
	Key   string // the metric (MetricCube, a dimension, …), "cube:JUDGE" per judge
	Label string
	Delta Delta
}

// Rows are the comparison's figures in table order: across judges
// ΔCuBE, the weighted total and every dimension, Recall@k, MFSS, CoFE pass
// rate, then ΔCuBE per judge when there are several.
func Rows(r *Result, lang string) []Row {
	g := text.LangOf(lang)
	rows := []Row{{MetricCube, "ΔCuBE", r.Aggregate.Cube}, {MetricWeighted, pickLang(lang, "weighted", "加权总分"), r.Aggregate.Weighted}}
	for _, d := range r.Dimensions {
		rows = append(rows, Row{d, glossary.Name(glossary.DimensionID, d, g), r.Aggregate.Normalized[d]}) // 相关性, not relevance
	}
	rows = append(rows, Row{MetricRecall, glossary.Term(glossary.GuideRecall, g), r.Recall})
	if r.MFSS != nil {
		rows = append(rows, Row{MetricMFSS, pickLang(lang, "MFSS total", "MFSS 总分"), *r.MFSS})
	}
	if r.Aggregate.CoFEPass != nil {
		rows = append(rows, Row{MetricCoFEPass, pickLang(lang, "CoFE pass rate", "CoFE 正确率"), *r.Aggregate.CoFEPass})
	}
	if len(r.Judges) > 1 {
		for _, j := range r.Judges {
			rows = append(rows, Row{MetricCube + ":" + j.Judge, "ΔCuBE · " + glossary.JudgeName(j.Judge, g), j.Cube})
		}
	}
	return rows
}

// Fmt1 prints an optional figure with one decimal, n/a when undefined.
func Fmt1(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f", *v)
}

// FmtSigned prints an optional difference with its sign.
func FmtSigned(v *float64) string {
	if v == nil {
		return "n/a"
	}
	if fmt.Sprintf("%.1f", *v) == "0.0" || fmt.Sprintf("%.1f", *v) == "-0.0" {
		return "0.0"
	}
	return fmt.Sprintf("%+.1f", *v)
}

// FmtCI prints an interval as [lo, hi], n/a when undefined.
func FmtCI(ci *[2]float64) string {
	if ci == nil {
		return "n/a"
	}
	return fmt.Sprintf("[%.1f, %.1f]", ci[0], ci[1])
}

func pickLang(lang, en, zh string) string {
	if len(lang) >= 2 && lang[:2] == "zh" {
		return zh
	}
	return en
}
