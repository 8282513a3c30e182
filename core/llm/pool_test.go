package llm_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"cubeworkbench/core/llm"
	"cubeworkbench/internal/fakeai"
)

func noSleep(context.Context, time.Duration) error { return nil }

func poolOver(t *testing.T, servers ...*fakeai.Server) *llm.Pool {
	t.Helper()
	var cs []llm.Completer
	var names []string
	for i, s := range servers {
		c, err := llm.New(llm.Endpoint{Name: fmt.Sprint("r", i), BaseURL: s.URL(), Model: "m", Concurrency: 8, MaxRetries: 1,
			Timeout: 2 * time.Second}, llm.WithSleep(noSleep))
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
		names = append(names, fmt.Sprint("r", i))
	}
	p, err := llm.NewPool(cs, names, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Three replicas, one of which dies part-way: every request completes once,
// and the dead replica stops receiving work.
func TestPoolFailover(t *testing.T) {
	a, b, c := fakeai.New(t), fakeai.New(t), fakeai.New(t)
	b.DieAfter(20, fakeai.DieRefuse)
	p := poolOver(t, a, b, c)
	const n = 300
	var wg sync.WaitGroup
	errs := make(chan error, n)
	sem := make(chan struct{}, 12)
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			rep, err := p.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: fmt.Sprint("item ", i)}}})
			if err != nil {
				errs <- err
				return
			}
			if rep.Content == "" {
				errs <- fmt.Errorf("item %d: empty", i)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	served := 0
	var down int
	for _, s := range p.Stats() {
		served += s.Served
		if s.Down {
			down++
		}
	}
	if served != n {
		t.Errorf("served %d, want %d", served, n)
	}
	if down != 1 || !p.Stats()[1].Down {
		t.Errorf("stats = %+v, want only r1 down", p.Stats())
	}
	if a.Requests() == 0 || c.Requests() == 0 {
		t.Errorf("load not spread: a %d b %d c %d", a.Requests(), b.Requests(), c.Requests())
	}
}

func TestPoolAllDown(t *testing.T) {
	a, b := fakeai.New(t), fakeai.New(t)
	a.Close() // nothing listens any more: connections are refused
	b.Close()
	p := poolOver(t, a, b)
	_, err := p.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "x"}}})
	if err == nil {
		t.Fatal("a pool of dead replicas answered")
	}
}

func TestPoolLeastOutstanding(t *testing.T) {
	a, b := fakeai.New(t, fakeai.WithLatency(30*time.Millisecond)), fakeai.New(t, fakeai.WithLatency(30*time.Millisecond))
	p := poolOver(t, a, b)
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, _ = p.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: fmt.Sprint(i)}}})
		}(i)
	}
	wg.Wait()
	// With equal latency, least-outstanding keeps the split near even.
	if d := a.Requests() - b.Requests(); d > 10 || d < -10 {
		t.Errorf("uneven split: %d vs %d", a.Requests(), b.Requests())
	}
}
