package figures

import (
	"fmt"
	"testing"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/result"
)

// The score histograms show one value per item and judge — the mean of the
// judge's repeats — for the window and the report alike (the window once
// drew every repeat, so a judge with three repeats tripled its counts).
func TestHistogramsArePerItemMeans(t *testing.T) {
	var items []dataset.Item
	var scores []dataset.Judgement
	add := func(id, set string, rep int, v float64) {
		scores = append(scores, dataset.Judgement{ItemID: id, Set: set, Judge: "qwen", Dimension: "relevance", Repeat: rep, Score: v, Status: dataset.StatusOK})
	}
	for i := 1; i <= 4; i++ {
		id := fmt.Sprint("q", i)
		items = append(items, dataset.Item{ID: id, DocID: "G1", Retrieved: []string{"G1"}})
		for rep := 1; rep <= 3; rep++ {
			add(id, dataset.SetZero, rep, 1)
			add(id, dataset.SetFull, rep, 9)
			add(id, dataset.SetRAG, rep, float64(3+rep+i%2)) // repeats 4,5,6 or 5,6,7
		}
	}
	cfg := cube.DefaultConfig()
	cfg.Dimensions, cfg.BootstrapB = []string{"relevance"}, 0
	r, err := cube.Evaluate(items, dataset.ScoresOf(scores...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := Histograms(r, func(d string) string { return "«" + d + "»" })
	if len(h) != 1 || h[0].Judge != "qwen" || h[0].Dimension != "«relevance»" {
		t.Fatalf("samples %+v", h)
	}
	want := []float64{6, 5, 6, 5} // q1: 5,6,7; q2: 4,5,6; …
	if fmt.Sprint(h[0].Scores) != fmt.Sprint(want) {
		t.Fatalf("histogram values %v, want the per-item means %v", h[0].Scores, want)
	}
	// Every figure the summary allows builds.
	for _, f := range All(&result.Summary{Result: r}) {
		if _, err := f.Build(chart.Options{Lang: chart.LangEN}); err != nil {
			t.Errorf("%s: %v", f.File, err)
		}
	}
}
