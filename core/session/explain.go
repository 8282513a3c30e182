package session

import (
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/explain"
	"cubeworkbench/core/result"
)

// explainSummary puts the why of the verdict into the summary, once, so
// the window's panel, the CLI's lines, the report's first page and
// SUMMARY.json all say the same words. wb is the evaluated workbook (its
// scores are the judgements CuBE read).
func explainSummary(sum *result.Summary, wb *dataset.Workbook) {
	if sum == nil || sum.Result == nil || wb == nil {
		return
	}
	judges := make([]explain.Judge, 0, len(sum.Run.Judges))
	for _, j := range sum.Run.Judges {
		judges = append(judges, explain.Judge{Name: j.Name, Kind: j.Kind})
	}
	e := explain.Explain(explain.Input{
		Result: sum.Result,
		Verdict: explain.Verdict{Code: sum.Verdict.Code, Cube: sum.Verdict.Cube,
			DeployableAt: sum.Verdict.Deployable, NeedsWorkAt: sum.Verdict.NeedsWork},
		Items:  wb.Items,
		Scores: wb.Scores,
		Guides: wb.Guides,
		Judges: judges,
	})
	// A reason the verdict is undetermined (too few questions, …) leads the
	// why: the verdict's banner only has room for its few words.
	var lead []explain.Bullet
	for _, r := range sum.Verdict.Reasons {
		lead = append(lead, explain.Bullet{Code: "undetermined_" + r.Code, Text: r.Detail})
	}
	e.Bullets = append(lead, e.Bullets...)
	sum.Explanation = &e
}
