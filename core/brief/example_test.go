package brief_test

import (
	"fmt"
	"time"

	"cubeworkbench/core/brief"
	"cubeworkbench/core/chart"
)

func p(v float64) *float64 { return &v }

// How the integrator builds the brief from a run's summary: every field
// comes from SUMMARY.json (engine.Summary) or the run's profile, and the
// charts are core/chart figures, drawn at the size the page gives them.
func ExampleRender() {
	judges := []brief.Judge{{Name: "qwen2.5-32b", Cube: p(72.4), Lo: p(66.0), Hi: p(78.1), RecallAtK: p(0.912)}}
	fig, err := chart.CuBEBars(chart.JudgeScores{
		Judges: []string{"qwen2.5-32b"},
		Scores: []chart.Estimate{{Value: p(72.4), Lo: p(66.0), Hi: p(78.1)}},
		Mean:   chart.Estimate{Value: p(72.4), Lo: p(66.0), Hi: p(78.1)},
	}, chart.Options{Lang: "zh"})
	if err != nil {
		fmt.Println(err)
		return
	}
	pdf, err := brief.Render(brief.Content{
		Lang:    "zh",
		Verdict: brief.Deployable, Deployable: 70, NeedsWork: 40, // Summary.Verdict
		Cube: p(72.4), Lo: p(66.0), Hi: p(78.1), Resamples: 1000, // Aggregate CuBE, its CI, BootstrapB
		Why:             []string{"检索召回率 91.2 %，多数问题检索到了正确的办事指南。"}, // the window's bullets (one source in core)
		Recommendations: []string{"可以部署；上线后每季度复评一次。"},
		Judges:          judges, K: 8, // Judges[i].Cube, CubeCI95; RecallAtK; TopN
		Charts:   []brief.Chart{{Figure: fig}},
		Workbook: "gov-qa.xlsx", System: "ragflow · 政务助手 v2", // Run.Workbook, the profile's target
		Date:        time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), // Run.Finished
		ToolVersion: "0.9.0",                                      // Summary.ToolVersion
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(pdf[:8]))
	// Output: %PDF-1.3
}
