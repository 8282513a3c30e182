package engine

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"cubeworkbench/core/store"
	"cubeworkbench/internal/fakeai"
)

// Benchmarks of issue 12: judging throughput on a faulty endpoint as a
// ratio to the same run on a healthy one, both at 50 ms latency and
// concurrency 32, measured in the same benchmark run so the machine's load
// cancels out. Run with
//
//	go test ./core/engine -run '^$' -bench Faults -benchtime 1x
//
// ratio is faulty judgements/s over healthy judgements/s for the judge
// step; max-in-flight is the fake's high-water mark of requests on the
// wire; server/calls is requests the server saw per judgement.

type faultMix struct {
	name  string
	rates map[fakeai.Fault]float64
}

var faultMixes = []faultMix{
	// (a) 10 % 500 and 10 % unparsable replies (the judge re-asks those).
	{"500+garbage", map[fakeai.Fault]float64{fakeai.ServerError: 0.10, fakeai.Garbage: 0.10}},
	// (b) 15 % 429 with Retry-After 1 s (fakeai's default) and 10 % 500.
	{"429+500", map[fakeai.Fault]float64{fakeai.RateLimited: 0.15, fakeai.ServerError: 0.10}},
}

func BenchmarkFaults50ms(b *testing.B) {
	const items, conc = 400, 32
	for _, mix := range faultMixes {
		b.Run(mix.name, func(b *testing.B) {
			var healthy, faulty float64
			var high, requests, judgements, unscorable int
			for i := 0; i < b.N; i++ {
				h, _, _, _ := judgeOnce(b, items, conc, nil)
				f, srv, n, u := judgeOnce(b, items, conc, mix.rates)
				healthy += h
				faulty += f
				high = max(high, srv.MaxConcurrent())
				requests += srv.Requests()
				judgements += n
				unscorable += u
			}
			b.ReportMetric(faulty/healthy, "ratio")
			b.ReportMetric(faulty/float64(b.N), "judgements/s")
			b.ReportMetric(healthy/float64(b.N), "healthy-judgements/s")
			b.ReportMetric(float64(high), "max-in-flight")
			b.ReportMetric(float64(requests)/float64(judgements), "server/judgement")
			b.ReportMetric(float64(unscorable)/float64(b.N), "unscorable")
		})
	}
}

// judgeOnce evaluates a fresh workbook on a fresh store against a fake
// with the given fault rates and returns the judge step's judgements/s.
func judgeOnce(b *testing.B, items, conc int, rates map[fakeai.Fault]float64) (rate float64, srv *fakeai.Server, judgements, unscorable int) {
	b.Helper()
	opts := []fakeai.Option{fakeai.WithLatency(50 * time.Millisecond)}
	if rates != nil {
		opts = append(opts, fakeai.WithFaultRates(12, rates))
	}
	srv = fakeai.New(b, opts...)
	st, err := store.Open(filepath.Join(b.TempDir(), "run.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	clock := &judgeClock{}
	res, err := Run(context.Background(), cloneWorkbook(buildWorkbook(items)), Options{Profile: benchProfile(srv.URL(), conc), Store: st, Progress: clock})
	if err != nil {
		b.Fatal(err)
	}
	want := items * 3 * len(fourDims)
	if res.Workbook.Scores.Len() != want {
		b.Fatalf("%d judgements, want %d", res.Workbook.Scores.Len(), want)
	}
	return float64(want) / clock.elapsed.Seconds(), srv, want, res.Summary.Run.Unscorable
}
