package llm

import (
	"context"
	"sync"
	"time"
)

// gate is the endpoint's concurrency limit, adapted to 429s (AIMD, as TCP
// adapts its window): a 429 lowers the limit by a quarter, every full
// window of successes raises it by one, never above the configured
// concurrency nor below one.
//
// Why these numbers: a 429 with Retry-After says "come back after T", not
// "you are twice too fast", so the cut is gentle (×¾, close to CUBIC's 0.7)
// rather than TCP's halving; and one burst of 429s is one signal, so the
// limit is cut at most once per Retry-After (at least minCutSpacing):
// requests already in flight when the limit fell would otherwise cut it
// again for the same congestion. Growth of one slot per window (limit
// successes) is TCP's additive increase.
//
// A request holds a slot only while its HTTP attempt is on the wire: its
// backoff and its Retry-After wait are spent outside, so the other requests
// keep the endpoint busy.
type gate struct {
	mu       sync.Mutex
	max      int
	limit    float64
	inflight int
	waiters  []chan struct{}
	noCut    time.Time // no further cut before this
	now      func() time.Time
}

// minCutSpacing keeps a 429 without Retry-After from cutting the limit on
// every reply of a burst.
const minCutSpacing = time.Second

func newGate(max int, now func() time.Time) *gate {
	return &gate{max: max, limit: float64(max), now: now}
}

// acquire waits for a slot or until ctx ends.
func (g *gate) acquire(ctx context.Context) error {
	g.mu.Lock()
	if len(g.waiters) == 0 && g.inflight < g.allowed() {
		g.inflight++
		g.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	g.waiters = append(g.waiters, ch)
	g.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		g.mu.Lock()
		defer g.mu.Unlock()
		for i, w := range g.waiters {
			if w == ch {
				g.waiters = append(g.waiters[:i], g.waiters[i+1:]...)
				return ctx.Err()
			}
		}
		// Granted while giving up: hand the slot on.
		g.inflight--
		g.grant()
		return ctx.Err()
	}
}

// release frees a slot.
func (g *gate) release() {
	g.mu.Lock()
	g.inflight--
	g.grant()
	g.mu.Unlock()
}

// succeeded is additive increase: one slot per window of successes.
func (g *gate) succeeded() {
	g.mu.Lock()
	if g.limit < float64(g.max) {
		g.limit = min(float64(g.max), g.limit+1/g.limit)
		g.grant()
	}
	g.mu.Unlock()
}

// throttled is multiplicative decrease, at most once per hold (the server's
// Retry-After, or minCutSpacing).
func (g *gate) throttled(hold time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if now.Before(g.noCut) {
		return
	}
	g.limit = max(1, g.limit*3/4)
	g.noCut = now.Add(max(hold, minCutSpacing))
}

// Limit is the current number of slots.
func (g *gate) current() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.allowed()
}

func (g *gate) allowed() int { return max(1, int(g.limit)) }

func (g *gate) grant() {
	for len(g.waiters) > 0 && g.inflight < g.allowed() {
		ch := g.waiters[0]
		g.waiters = g.waiters[1:]
		g.inflight++
		close(ch)
	}
}

// workersPerSlot is how many callers Workers gives each slot.
const workersPerSlot = 4

// Workers is how many goroutines should call one client of the given
// concurrency at once. More than the slots, because a call spends most of
// a faulty endpoint's time outside its slot (backoff after a 500, the
// Retry-After of a 429): with only as many callers as slots those waits
// leave the endpoint idle (6 requests in flight of 32 under 15 % 429 and
// 10 % 500). Four per slot keeps the slots busy while a call spends up to
// three quarters of its time waiting; the extra callers wait for a slot in
// the client. Eight per slot measured no better under the 429 mix and cost
// about a tenth of the healthy 50 ms throughput on a loaded 2-core machine
// (more goroutines rendering prompts and reading the store ahead of their
// slot).
func Workers(concurrency int) int { return workersPerSlot * max(concurrency, 1) }
