package llm

import (
	"context"
	"sync"
	"time"
)

// rateLimiter spaces request starts evenly, 60/RPM apart: a token bucket
// of depth one. Depth one is deliberate: providers count requests in
// sliding windows, and a burst at start-up is exactly what trips a 429.
// The clock and the sleep are injected so tests need no real waiting.
type rateLimiter struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
	now      func() time.Time
	sleep    func(context.Context, time.Duration) error
}

func newRateLimiter(rpm int, now func() time.Time, sleep func(context.Context, time.Duration) error) *rateLimiter {
	if rpm <= 0 {
		return nil
	}
	return &rateLimiter{interval: time.Minute / time.Duration(rpm), now: now, sleep: sleep}
}

// wait blocks until the caller's slot. A nil limiter never waits.
func (l *rateLimiter) wait(ctx context.Context) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	now := l.now()
	slot := l.next
	if slot.Before(now) {
		slot = now
	}
	l.next = slot.Add(l.interval)
	l.mu.Unlock()
	if d := slot.Sub(now); d > 0 {
		return l.sleep(ctx, d)
	}
	return ctx.Err()
}

// realSleep waits d or until ctx is done.
func realSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
