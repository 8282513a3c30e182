package report

import (
	"math/rand/v2"
	"strconv"
	"strings"
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

// TestPlainXMLIsVerbatim: a text plainXML lets through unescaped is one
// that the escaping path writes byte for byte as it is, with no _xHHHH_;
// over the tricky texts and generated mixtures of Chinese, ASCII, marks,
// controls, U+FFFE/U+FFFF, invalid UTF-8 and surrogate encodings.
func TestPlainXMLIsVerbatim(t *testing.T) {
	pieces := []string{"办理", "材料", "abc", " ", "\n", "\t", "\r", "\x01", "\x7f", "\"", "'", "&", "<", ">", "_", "_x0041_",
		"\uFFFD", "\uFFFE", "\uFFFF", "\uFFFC", "\xef\xbf", "\xef", "\xff", "\xed\xa0\x80", "😀", "\u2028", "\u0085", "（）", "１２"}
	texts := append([]string{}, trickyTexts...)
	r := rand.New(rand.NewPCG(9, 10))
	for range 50000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	plain := 0
	for _, s := range texts {
		if !plainXML(s) {
			continue
		}
		plain++
		if got := appendXMLText(nil, s); string(got) != s || hasBstr(got) {
			t.Fatalf("plainXML(%q) but the escaping writes %q", s, got)
		}
	}
	if plain < 1000 {
		t.Fatalf("only %d plain texts: the test reads too little", plain)
	}
}

// BenchmarkEscaped puts Chinese cell text, as most of the report's is,
// into a row buffer the two ways escaped can: checked plain and copied
// once, or escaped rune by rune and copied again (the only way before).
func BenchmarkEscaped(b *testing.B) {
	s := "根据北京市东城区市公安局出入境管理支队发布的办事指南，办理居民身份证申领须居民户口簿原件及复印件；近期免冠彩色照片两张。"
	var buf, scratch []byte
	b.Run("plain", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			if plainXML(s) {
				buf = append(buf[:0], s...)
			}
		}
	})
	b.Run("escape", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			scratch = appendXMLText(scratch[:0], s)
			if !hasBstr(scratch) {
				buf = append(buf[:0], scratch...)
			}
		}
	})
}
