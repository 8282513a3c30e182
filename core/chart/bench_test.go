package chart

import "testing"

// BenchmarkPNG renders each fixture chart to PNG at its default size:
//
//	go test -run '^$' -bench PNG -benchmem ./core/chart
func BenchmarkPNG(b *testing.B) {
	for _, c := range chartCases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				fig, err := c.build(Options{Lang: LangZH})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := fig.PNG(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
