package llm

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"cubeworkbench/internal/fakeai"
)

// BenchmarkComplete measures the client against an in-process fake with
// no added latency, so the figure is the client's own ceiling (plus
// loopback HTTP and the fake's JSON): it must be far above what any real
// judge endpoint serves.
//
//	go test -run '^$' -bench Complete -benchtime 3s ./core/llm
func BenchmarkComplete(b *testing.B) {
	for _, conc := range []int{1, 8} {
		for _, lat := range []time.Duration{0, 50 * time.Millisecond} {
			b.Run(fmt.Sprintf("conc=%d/latency=%v", conc, lat), func(b *testing.B) {
				srv := fakeai.NewServer(fakeai.WithLatency(lat))
				defer srv.Close()
				c, err := New(Endpoint{BaseURL: srv.URL(), Model: "fake-model", Concurrency: conc})
				if err != nil {
					b.Fatal(err)
				}
				var n atomic.Int64
				b.SetParallelism(conc) // goroutines = conc × GOMAXPROCS, enough to fill the slots
				b.ResetTimer()
				start := time.Now()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						i := n.Add(1)
						if _, err := c.Complete(context.Background(), ask(fmt.Sprint("question ", i))); err != nil {
							b.Error(err)
							return
						}
					}
				})
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "calls/s")
			})
		}
	}
}
