package mfss

import (
	"context"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/proc"
	"cubeworkbench/internal/benchbook"
)

// scaleItems are n questions of internal/benchbook's workbook, 50 to a
// guide (internal/scale's cannot be imported here: it imports the engine,
// which imports this package).
func scaleItems(n int, english bool) []dataset.Item {
	return benchbook.Workbook(n, n/50+1, english).Items
}

// BenchmarkEvaluateScale is MFSS as the engine runs it on an offline
// evaluation: 2,000 questions × the three answer sets with the offline
// embedder per iteration: go test -run '^$' -bench EvaluateScale -benchmem ./core/mfss
func BenchmarkEvaluateScale(b *testing.B) {
	for _, c := range []struct {
		name    string
		english bool
	}{{"zh", false}, {"en", true}} {
		b.Run(c.name, func(b *testing.B) {
			items := scaleItems(2000, c.english)
			ctx, h, cfg := context.Background(), embed.NewHashed(), DefaultConfig()
			systems := []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := proc.CPUTime()
			defer func() { b.ReportMetric((proc.CPUTime()-cpu).Seconds()/float64(b.N), "cpu-s/op") }()
			for range b.N {
				res, err := Evaluate(ctx, h, items, systems, cfg, nil)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Items) != 6000 {
					b.Fatalf("%d pairs", len(res.Items))
				}
			}
		})
	}
}
