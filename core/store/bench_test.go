package store

import (
	"context"
	"sync/atomic"
	"testing"

	"cubeworkbench/core/llm"
)

// go test ./core/store -run '^$' -bench 'Reply' -benchtime 2000x
// go test ./core/store -run '^$' -bench CachedLookups10k -benchtime 3x

func BenchmarkPutReply(b *testing.B) {
	s, _ := openTemp(b)
	defer s.Close()
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		req := sampleRequest(i)
		if err := s.PutReply(ctx, llm.RequestKey("m", req), "m", req, sampleReply(i)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPutReplyParallel(b *testing.B) {
	s, _ := openTemp(b)
	defer s.Close()
	ctx := context.Background()
	b.SetParallelism(8)
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(n.Add(1))
			req := sampleRequest(i)
			if err := s.PutReply(ctx, llm.RequestKey("m", req), "m", req, sampleReply(i)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func fill(b *testing.B, s *Store, n int) []string {
	b.Helper()
	ctx := context.Background()
	keys := make([]string, n)
	for i := range n {
		req := sampleRequest(i)
		keys[i] = llm.RequestKey("fake", req)
		if err := s.PutReply(ctx, keys[i], "fake", req, sampleReply(i)); err != nil {
			b.Fatal(err)
		}
	}
	return keys
}

func BenchmarkGetReply(b *testing.B) {
	s, _ := openTemp(b)
	defer s.Close()
	keys := fill(b, s, 1000)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if _, ok, err := s.GetReply(ctx, keys[i%len(keys)]); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkCachedLookups10k times 10,000 requests answered by Cached from
// the store (the "second run makes no calls" path), one op = 10,000 lookups.
func BenchmarkCachedLookups10k(b *testing.B) {
	s, _ := openTemp(b)
	defer s.Close()
	f := &fakeCompleter{}
	c := s.Cache(f)
	const n = 10000
	fill(b, s, n)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		for i := range n {
			if rep, err := c.Complete(ctx, sampleRequest(i)); err != nil || !rep.Cached {
				b.Fatal(err, rep.Cached)
			}
		}
	}
	b.StopTimer()
	if f.calls.Load() != 0 {
		b.Fatalf("inner calls = %d, want 0", f.calls.Load())
	}
}
