package cube

import (
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/proc"
)

// BenchmarkEvaluate is the paper's scale: 6,111 items × 4 dimensions × 3
// sets × 4 judges (293,328 judgements), with and without the B = 1000
// bootstrap.
func BenchmarkEvaluate(b *testing.B) {
	items, js := synth(6111, []string{"j1", "j2", "j3", "j4"}, DefaultDimensions, 1)
	for _, B := range []int{0, 1000} {
		b.Run(map[int]string{0: "no-bootstrap", 1000: "bootstrap-1000"}[B], func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.BootstrapB = B
			b.ReportAllocs()
			cpu := proc.CPUTime()
			defer func() { b.ReportMetric((proc.CPUTime()-cpu).Seconds()/float64(b.N), "cpu-s/op") }()
			for b.Loop() {
				if _, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
