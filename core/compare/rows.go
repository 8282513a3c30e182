package compare

import (
	"fmt"

	"cubeworkbench/core/dimension"
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
// rate, then ΔCuBE per judge when there are several. Each is labelled in
// lang by its name: a built-in dimension by the registry's title
// (Relevance, 相关性 — never the id relevance), a user's own by its name.
func Rows(r *Result, lang text.Lang) []Row {
	rows := []Row{{MetricCube, "ΔCuBE", r.Aggregate.Cube}, {MetricWeighted, weightedName.In(lang), r.Aggregate.Weighted}}
	for _, d := range r.Dimensions {
		rows = append(rows, Row{d, dimensionName(d, lang), r.Aggregate.Normalized[d]})
	}
	rows = append(rows, Row{MetricRecall, heading(glossary.Term(glossary.GuideRecall, lang)), r.Recall})
	if r.MFSS != nil {
		rows = append(rows, Row{MetricMFSS, mfssName.In(lang), *r.MFSS})
	}
	if r.Aggregate.CoFEPass != nil {
		rows = append(rows, Row{MetricCoFEPass, cofePassName.In(lang), *r.Aggregate.CoFEPass})
	}
	if len(r.Judges) > 1 {
		for _, j := range r.Judges {
			rows = append(rows, Row{MetricCube + ":" + j.Judge, "ΔCuBE · " + glossary.JudgeName(j.Judge, lang), j.Cube})
		}
	}
	return rows
}

// Names of the table's rows that are not dimensions. The weighted total
// is the bounded score over the weighted dimensions (N_J), in the words
// the report's units note uses.
var (
	weightedName = text.New("加权总分", "Weighted total")
	mfssName     = text.New("MFSS 总分", "MFSS total")
	cofePassName = text.New("CoFE 正确率", "CoFE pass rate")
)

// heading is a glossary term (written to stand inside a sentence: guide
// recall@k) as the head of a row: Guide recall@k.
func heading(term string) string {
	if term != "" && term[0] >= 'a' && term[0] <= 'z' {
		return string(term[0]-'a'+'A') + term[1:]
	}
	return term
}

// dimensionName is a dimension as a row of the table names it: a
// built-in one by the registry's title in lang, a user's own as written.
func dimensionName(d string, lang text.Lang) string {
	if dim, ok := dimension.Lookup(d); ok {
		return dim.Title(lang)
	}
	return d
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
