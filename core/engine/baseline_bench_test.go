package engine

import (
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/internal/benchbook"
)

// benchWorkbook is internal/benchbook's workbook (internal/scale's
// cannot be imported here: scale imports the session, which imports the
// engine).
func benchWorkbook(n, g int, english bool) *dataset.Workbook {
	return benchbook.Workbook(n, g, english)
}

// BenchmarkBaselines scores the BLEU and ROUGE-L baselines of 2,000
// questions (6,000 answers) over 40 guides per iteration, as
// computeBaselines does at any scale (50 questions a guide, as at 100,000
// over 2,000): go test -run '^$' -bench Baselines -benchmem ./core/engine
func BenchmarkBaselines(b *testing.B) {
	for _, c := range []struct {
		name    string
		english bool
	}{{"zh", false}, {"en", true}} {
		b.Run(c.name, func(b *testing.B) {
			wb := benchWorkbook(2000, 40, c.english)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if res := computeBaselines(wb); res.Items != 2000 {
					b.Fatalf("%d items scored", res.Items)
				}
			}
		})
	}
}
