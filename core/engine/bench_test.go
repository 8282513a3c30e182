package engine

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
	"cubeworkbench/internal/fakeai"
)

// Benchmarks of issue 3: judgements per second end to end (engine, judge,
// run store with every reply and judgement written, real llm client, HTTP
// to an in-process fake endpoint). Run with
//
//	go test ./core/engine -run '^$' -bench . -benchtime 3x
//
// Each reports judgements/s over the judge step (from its progress events)
// and over the whole Run (metrics included).

func benchProfile(url string, concurrency int) profile.Profile {
	p := testProfile(profile.Endpoint{Name: "qwen", BaseURL: url, Model: "qwen-fake", Concurrency: concurrency, TimeoutSec: 60})
	p.Bootstrap = 0
	return p
}

// judgeClock keeps the judge step's elapsed time from its last event.
type judgeClock struct {
	mu      sync.Mutex
	elapsed time.Duration
}

func (c *judgeClock) Event(e Event) {
	if e.Step == StepJudge && e.Finished {
		c.mu.Lock()
		c.elapsed += e.Elapsed
		c.mu.Unlock()
	}
}

func benchJudging(b *testing.B, latency time.Duration, items, concurrency int) (judgeRate, runRate float64, srv *fakeai.Server) {
	srv = fakeai.New(b, fakeai.WithLatency(latency))
	base := buildWorkbook(items)
	p := benchProfile(srv.URL(), concurrency)
	want := items * 3 * len(fourDims)
	var judgeTime, runTime time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		st, err := store.Open(filepath.Join(b.TempDir(), "run.db"))
		if err != nil {
			b.Fatal(err)
		}
		wb := cloneWorkbook(base)
		clock := &judgeClock{}
		b.StartTimer()
		start := time.Now()
		res, err := Run(context.Background(), wb, Options{Profile: p, Store: st, Progress: clock})
		runTime += time.Since(start)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if res.Workbook.Scores.Len() != want || res.Summary.Run.Calls != want {
			b.Fatalf("%d judgements, %d calls; want %d", res.Workbook.Scores.Len(), res.Summary.Run.Calls, want)
		}
		judgeTime += clock.elapsed
		st.Close()
		b.StartTimer()
	}
	n := float64(want * b.N)
	return n / judgeTime.Seconds(), n / runTime.Seconds(), srv
}

// BenchmarkJudge0ms: a 0 ms endpoint, concurrency 32 (target ≥ 2,000/s).
func BenchmarkJudge0ms(b *testing.B) {
	judge, run, _ := benchJudging(b, 0, 250, 32)
	b.ReportMetric(judge, "judgements/s")
	b.ReportMetric(run, "run-judgements/s")
}

// BenchmarkJudge50ms: a 50 ms endpoint at concurrency 32, whose ideal is
// 32 / 0.05 s = 640/s; the ratio to it is the engine's overhead (target ≥ 0.9).
func BenchmarkJudge50ms(b *testing.B) {
	judge, run, srv := benchJudging(b, 50*time.Millisecond, 120, 32)
	const ideal = 32 / 0.05
	b.ReportMetric(judge, "judgements/s")
	b.ReportMetric(judge/ideal, "ratio-to-ideal")
	b.ReportMetric(run/ideal, "run-ratio-to-ideal")
	b.ReportMetric(float64(srv.MaxConcurrent()), "max-in-flight")
}

// BenchmarkCachedRerun10k: a rerun of 10,008 judgements whose replies are
// all in the store (target < 5 s and 0 calls).
func BenchmarkCachedRerun10k(b *testing.B) {
	const items = 834 // × 3 sets × 4 dimensions = 10,008 judgements
	srv := fakeai.New(b)
	base := buildWorkbook(items)
	p := benchProfile(srv.URL(), 32)
	st, err := store.Open(filepath.Join(b.TempDir(), "run.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := Run(context.Background(), cloneWorkbook(base), Options{Profile: p, Store: st}); err != nil {
		b.Fatal(err)
	}
	before := srv.Requests()
	calls := 0
	var runTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		wb := cloneWorkbook(base)
		b.StartTimer()
		start := time.Now()
		res, err := Run(context.Background(), wb, Options{Profile: p, Store: st})
		runTime += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		calls += res.Summary.Run.Calls
		if res.Summary.Run.Cached != items*3*len(fourDims) {
			b.Fatalf("%d served from the store, want %d", res.Summary.Run.Cached, items*3*len(fourDims))
		}
	}
	b.ReportMetric(runTime.Seconds()/float64(b.N), "s/rerun")
	b.ReportMetric(float64(calls)/float64(b.N), "calls/rerun")
	b.ReportMetric(float64(srv.Requests()-before)/float64(b.N), "server-requests/rerun")
}
