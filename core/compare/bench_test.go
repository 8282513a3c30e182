package compare

import "testing"

// BenchmarkCompare is the paper's scale: 6,000 questions × 4 dimensions ×
// 4 judges on both sides (384,000 judgements), B = 1000 paired resamples.
func BenchmarkCompare(b *testing.B) {
	wb := book(6000, []string{"j1", "j2", "j3", "j4"}, 1, 0.5, func(string, int) float64 { return 0.2 })
	x, y := FromWorkbook(wb, "rag", "v2")
	for _, unpaired := range []bool{false, true} {
		name := "paired-1000"
		if unpaired {
			name = "paired+unpaired-1000"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compare(x, y, Options{Config: config(1000), Unpaired: unpaired}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
