package retrieve

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cubeworkbench/core/chunk"
)

// BenchmarkGovQAIndex indexes the 2,080 real documents (one chunk each).
func BenchmarkGovQAIndex(b *testing.B) {
	g := loadGovQA(b)
	cs := g.chunks(chunk.PerDocument())
	b.ResetTimer()
	for b.Loop() {
		NewBM25(cs)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/index")
}

// BenchmarkGovQABM25Query runs the real questions against the real index.
func BenchmarkGovQABM25Query(b *testing.B) {
	g := loadGovQA(b)
	ix := NewBM25(g.chunks(chunk.PerDocument()))
	ctx := context.Background()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		if _, err := ix.Search(ctx, g.questions[n%len(g.questions)], 30); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "queries/s")
}

// syntheticChunks draws n chunks of about 200 tokens from a Zipf-distributed
// vocabulary of 3,000 Han characters and 2,000 Latin words.
func syntheticChunks(n int) []chunk.Chunk {
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 1, 4999)
	vocab := make([]string, 5000)
	for i := range vocab {
		if i < 3000 {
			vocab[i] = string(rune(0x4E00 + i*7))
		} else {
			vocab[i] = " w" + strings.Repeat(string(rune('a'+i%26)), 1+i%5) + string(rune('a'+i%23)) + " "
		}
	}
	out := make([]chunk.Chunk, n)
	var sb strings.Builder
	for i := range out {
		sb.Reset()
		for range 150 + r.IntN(100) {
			sb.WriteString(vocab[z.Uint64()])
		}
		out[i] = chunk.Chunk{DocID: "d", Index: i, Text: sb.String()}
	}
	return out
}

// BenchmarkIndex100k indexes 100,000 synthetic chunks and reports the peak
// heap in use while building (sampled every millisecond, HeapAlloc above the heap before) and the heap the
// finished index retains. Run it with -benchtime=1x: with more iterations
// the previous index may still be counted in the "before" heap.
func BenchmarkIndex100k(b *testing.B) {
	cs := syntheticChunks(100_000)
	ctx := context.Background()
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		var peak atomic.Uint64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			var m runtime.MemStats
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
					runtime.ReadMemStats(&m)
					if m.HeapAlloc > peak.Load() {
						peak.Store(m.HeapAlloc)
					}
				}
			}
		}()
		start := time.Now()
		ix := NewBM25(cs)
		build := time.Since(start)
		close(stop)
		<-done
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(build.Seconds(), "s/build")
		b.ReportMetric(float64(peak.Load()-min(peak.Load(), before.HeapAlloc))/(1<<20), "MiB-peak-extra")
		b.ReportMetric(float64(after.HeapAlloc-min(after.HeapAlloc, before.HeapAlloc))/(1<<20), "MiB-retained")
		start = time.Now()
		for i := range 200 {
			if _, err := ix.Search(ctx, cs[i].Text[:60], 30); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(200/time.Since(start).Seconds(), "queries/s")
		runtime.KeepAlive(ix)
	}
}
