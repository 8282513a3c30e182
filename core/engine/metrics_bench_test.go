package engine

import (
	"context"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"cubeworkbench/core/embed"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/proc"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// BenchmarkMetrics is the metrics stage of an offline evaluation (CuBE
// with its 1,000-resample bootstrap, MFSS, the baselines) over
// CUBE_METRICS_ITEMS questions (default 20,000; 50 to a guide) judged by
// lexical and semantic, one group after another and side by side (issue
// 27), with the CPU seconds and the peak of the heap's objects each took
// (sampled every 5 ms, the workbook's live data included, which is
// live-before-MB):
//
//	go test -run '^$' -bench Metrics -benchtime 1x ./core/engine
func BenchmarkMetrics(b *testing.B) {
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("CUBE_METRICS_ITEMS")); err == nil && v > 0 {
		n = v
	}
	wb := benchWorkbook(n, n/50+1, false)
	p := profile.Default()
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}, {Name: "semantic", Semantic: true}}
	r := &runner{opt: Options{Profile: p, Store: openStore(b, ""), Progress: NoProgress}, wb: wb, lang: text.Lang(p.Language),
		meter: &llm.Meter{}, emb: embed.NewHashed()}
	judges, err := r.judges()
	if err != nil {
		b.Fatal(err)
	}
	if err := r.judgeAll(context.Background(), judges); err != nil {
		b.Fatal(err)
	}
	for _, together := range []bool{false, true} {
		name := map[bool]string{false: "one-by-one", true: "together"}[together]
		b.Run(name, func(b *testing.B) {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-before-MB")
			peak := sampleHeap()
			cpu := proc.CPUTime()
			for range b.N {
				if err := r.metricsWith(context.Background(), p, &result.Summary{}, together); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((proc.CPUTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MB")
		})
	}
}

// sampleHeap samples the bytes of heap objects until the returned function
// is called, which returns the largest sample.
func sampleHeap() func() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var mu sync.Mutex
	var top uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			mu.Lock()
			top = max(top, s[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		mu.Lock()
		defer mu.Unlock()
		return top
	}
}
