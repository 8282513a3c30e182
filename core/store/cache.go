package store

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"cubeworkbench/core/llm"
)

// Cached is a Completer that answers from the store when it can and
// otherwise calls the inner Completer and stores the reply before returning
// it. Identical requests in flight at the same time make one call.
type Cached struct {
	s     *Store
	inner llm.Completer

	mu      sync.Mutex
	flights map[string]*flight
}

type flight struct {
	done chan struct{}
	rep  llm.Reply
	err  error
}

// Cache wraps inner with the store.
func (s *Store) Cache(inner llm.Completer) *Cached {
	return &Cached{s: s, inner: inner, flights: map[string]*flight{}}
}

var _ llm.Completer = (*Cached)(nil)

// Model is the inner Completer's model.
func (c *Cached) Model() string { return c.inner.Model() }

// Complete returns the stored reply (Cached = true) or calls the endpoint.
// A reply served to a caller that waited on another caller's identical
// request is also marked Cached: that caller caused no call.
func (c *Cached) Complete(ctx context.Context, req llm.Request) (llm.Reply, error) {
	key := llm.RequestKey(c.inner.Model(), req)
	for {
		rep, ok, err := c.s.GetReply(ctx, key)
		if err != nil {
			return llm.Reply{}, err
		}
		if ok {
			rep.Cached = true
			return rep, nil
		}
		c.mu.Lock()
		f, waiting := c.flights[key]
		if !waiting {
			f = &flight{done: make(chan struct{})}
			c.flights[key] = f
		}
		c.mu.Unlock()

		if !waiting {
			f.rep, f.err = c.call(ctx, key, req)
			c.mu.Lock()
			delete(c.flights, key)
			c.mu.Unlock()
			close(f.done)
			return f.rep, f.err
		}
		select {
		case <-f.done:
		case <-ctx.Done():
			return llm.Reply{}, ctx.Err()
		}
		if f.err == nil {
			rep := f.rep
			rep.Cached = true
			return rep, nil
		}
		// The leader gave up because its own context ended; ours is still
		// alive, so try again (lead a new flight) rather than inherit that.
		if ctx.Err() == nil && (errors.Is(f.err, context.Canceled) || errors.Is(f.err, context.DeadlineExceeded)) {
			continue
		}
		return llm.Reply{}, f.err
	}
}

func (c *Cached) call(ctx context.Context, key string, req llm.Request) (llm.Reply, error) {
	rep, err := c.inner.Complete(ctx, req)
	if err != nil {
		return llm.Reply{}, err
	}
	rep.Cached = false
	// The reply is paid for: store it even if the caller's context has just
	// ended, so the next run does not pay again.
	if err := c.s.PutReply(context.WithoutCancel(ctx), key, c.inner.Model(), req, rep); err != nil {
		return rep, fmt.Errorf("store: keep reply: %w", err)
	}
	return rep, nil
}
