package report

import (
	"strconv"
	"testing"
	"time"
)

// BenchmarkRowWriter streams 200,000 rows shaped like the report's scores
// sheet (2.4 million of them at 100,000 questions) through rowWriter and
// reports the wall time, the CPU the process used meanwhile and their
// ratio (how many cores the writing and its compression kept busy), the
// rows' XML and their deflated size:
//
//	go test -run '^$' -bench RowWriter -benchmem ./core/report
func BenchmarkRowWriter(b *testing.B) {
	const rows = 200_000
	sets, dims := []string{"rag", "zero", "full"}, []string{"relevance", "specificity", "completeness", "quality"}
	for b.Loop() {
		cpu0, cpuOK := cpuSeconds()
		start := time.Now()
		rw, err := newRowWriter()
		if err != nil {
			b.Fatal(err)
		}
		for r := 1; r <= rows; r++ {
			rw.startRow(r, 0)
			rw.text(1, r, 0, "Q"+strconv.Itoa(100000+r/24))
			rw.text(2, r, 0, sets[r%3])
			rw.text(3, r, 0, "lexical")
			rw.text(4, r, 0, dims[r%4])
			rw.number(5, r, 3, float64(r%101)/10)
			rw.text(6, r, 0, "lexical 相关性：问题的 "+strconv.Itoa(r%17)+" 个词中有 "+strconv.Itoa(r%7)+" 个出现在回答中 | relevance: "+strconv.Itoa(r%7)+"/"+strconv.Itoa(r%17)+" question words in the answer")
			rw.endRow()
		}
		if err := rw.finish(); err != nil {
			b.Fatal(err)
		}
		wall := time.Since(start).Seconds()
		b.ReportMetric(wall, "s/op-wall")
		if cpu1, _ := cpuSeconds(); cpuOK {
			b.ReportMetric(cpu1-cpu0, "cpu-s")
			b.ReportMetric((cpu1-cpu0)/wall, "cores")
		}
		b.ReportMetric(float64(rw.n)/(1<<20), "xml-MB")
		b.ReportMetric(float64(rw.zlen)/(1<<20), "deflated-MB")
		rw.close()
	}
}
