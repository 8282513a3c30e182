package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
)

// bigInput is n items with the three answer sets (~150–300 characters each,
// shared from a small pool so the input itself stays small), two judges
// over four dimensions (24 judgements an item) and its CuBE summary.
func bigInput(b *testing.B, n int) Input {
	b.Helper()
	pool := make([]string, 64)
	for i := range pool {
		pool[i] = fmt.Sprintf("您好，办理第 %d 类事项需要携带身份证、户口簿和申请表，可通过政务服务网在线申请，也可到市民中心窗口办理，承诺 5 个工作日内办结，不收取费用。如有疑问请拨打 12345。", i)
	}
	wb := &dataset.Workbook{}
	for g := range 1000 {
		wb.Guides = append(wb.Guides, dataset.Guide{ID: fmt.Sprintf("G%04d", g), Title: fmt.Sprintf("事项 %d", g), Text: pool[g%64] + pool[(g+1)%64]})
	}
	judges := []string{"qwen2.5-32b", "lexical"}
	dims := cube.DefaultDimensions
	wb.Items = make([]dataset.Item, n)
	wb.Scores.Grow(n * len(judges) * len(dims) * 3)
	raw := `{"score": 7, "reason": "回答基本准确"}`
	for i := range wb.Items {
		gold := fmt.Sprintf("G%04d", i%1000)
		it := dataset.Item{ID: "q" + strconv.Itoa(i), Question: "请问" + pool[i%64][:30] + "？", DocID: gold,
			Retrieved: []string{fmt.Sprintf("G%04d", (i+1)%1000), gold}, Answers: map[string]string{"rag": pool[i%64], "zero": pool[(i+7)%64], "full": pool[(i+9)%64]}}
		if i%5 == 0 {
			it.Retrieved = it.Retrieved[:1]
		}
		wb.Items[i] = it
		for jn, j := range judges {
			for dn, d := range dims {
				base := float64((i+jn+dn)%5) + 3
				for s, set := range []string{"zero", "rag", "full"} {
					wb.Scores.Add(dataset.Judgement{ItemID: it.ID, Set: set, Judge: j, Dimension: d, Repeat: 1,
						Score: base + float64(s), Raw: raw, Status: dataset.StatusOK})
				}
			}
		}
	}
	cfg := cube.DefaultConfig()
	cfg.BootstrapB = 0
	res, err := cube.Evaluate(wb.Items, wb.Scores, nil, cfg)
	if err != nil {
		b.Fatal(err)
	}
	s := &result.Summary{ToolVersion: "bench", Result: res, Verdict: result.VerdictFor(res.Aggregate.Cube.Mean, 60, 40)}
	return Input{Summary: s, Workbook: wb, Profile: profile.Default(), Lang: "zh"}
}

// BenchmarkWrite writes reports of 10k and 100k items and reports, for
// the writing alone: its wall time, the CPU the process used meanwhile,
// the process's peak resident set (Linux: reset before writing, so it is
// the input plus the writer), the heap in use before writing (the input),
// the peak heap in use and memory obtained from the OS (sampled every
// 20 ms), and the most the writer itself kept live (the live heap the
// runtime measured at each collection, less the input). It forces no
// collection while writing: a forced one every 0.5 s scanned the 460 MB
// input 200 times at 100k and cost more CPU than the writer did.
// Run: go test -run '^$' -bench Write -benchtime 1x -benchmem ./core/report/
func BenchmarkWrite(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			in := bigInput(b, n)
			dir := b.TempDir()
			for b.Loop() {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				base := ms.HeapInuse
				liveBase := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
				metrics.Read(liveBase) // the input's live heap, as the runtime counts it for write-live
				baseLive := liveBase[0].Value.Uint64()
				rssReset := resetPeakRSS()
				cpu0, cpuOK := cpuSeconds()
				var peakHeap, peakSys, peakLive uint64
				var mu sync.Mutex
				done := make(chan struct{})
				var wg sync.WaitGroup
				wg.Add(1)
				go func() {
					defer wg.Done()
					t := time.NewTicker(20 * time.Millisecond)
					defer t.Stop()
					live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
					for {
						var m runtime.MemStats
						runtime.ReadMemStats(&m)
						metrics.Read(live)
						mu.Lock()
						peakHeap, peakSys = max(peakHeap, m.HeapInuse), max(peakSys, m.Sys)
						if live[0].Value.Kind() == metrics.KindUint64 {
							peakLive = max(peakLive, live[0].Value.Uint64())
						}
						mu.Unlock()
						select {
						case <-done:
							return
						case <-t.C:
						}
					}
				}()
				start := time.Now()
				path := filepath.Join(dir, "report.xlsx")
				if err := Write(context.Background(), path, in, nil); err != nil {
					b.Fatal(err)
				}
				elapsed := time.Since(start)
				cpu1, _ := cpuSeconds()
				close(done)
				wg.Wait()
				st, _ := os.Stat(path)
				b.ReportMetric(elapsed.Seconds(), "s/report")
				if cpuOK {
					b.ReportMetric(cpu1-cpu0, "cpu-s")
				}
				if rss, ok := peakRSS(); ok && rssReset {
					b.ReportMetric(rss/(1<<20), "peak-rss-MB")
				}
				b.ReportMetric(float64(base)/(1<<20), "input-heap-MB")
				b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
				b.ReportMetric(float64(peakLive-min(peakLive, baseLive))/(1<<20), "write-live-MB")
				b.ReportMetric(float64(peakSys)/(1<<20), "peak-sys-MB")
				b.ReportMetric(float64(st.Size())/(1<<20), "file-MB")
			}
		})
	}
}

// BenchmarkWriteBrief writes the one-page brief of the same inputs: it
// reads the summary only, so its time should not grow with the items.
// Run: go test -run '^$' -bench WriteBrief -benchtime 3x ./core/report/
func BenchmarkWriteBrief(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			in := bigInput(b, n)
			path := filepath.Join(b.TempDir(), "report-brief.pdf")
			cpu0, ok := cpuSeconds()
			for b.Loop() {
				if err := WriteBrief(path, in.Summary, in.Profile, in.Lang); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, _ := cpuSeconds(); ok {
				b.ReportMetric((cpu1-cpu0)/float64(b.N), "cpu-s/op")
			}
		})
	}
}
