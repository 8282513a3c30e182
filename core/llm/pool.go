package llm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Pool spreads one judge's requests over several replicas of the same model
// (several vLLM servers, say): each request goes to the replica with the
// fewest requests in flight, and a replica that fails with a connection
// error or a server error after its own retries is taken out of rotation
// for a cool-down while the request moves on to the next one. The pool is a
// Completer, so the run store wraps it like a single client.
type Pool struct {
	model    string
	members  []*poolMember
	cooldown time.Duration
	now      func() time.Time

	mu sync.Mutex
}

type poolMember struct {
	c           Completer
	name        string
	outstanding int
	served      int
	failures    int
	downUntil   time.Time
}

// ReplicaStats is one replica's share of the work, for progress displays.
type ReplicaStats struct {
	Name        string
	Outstanding int
	Served      int
	Failures    int
	Down        bool
}

// NewPool builds a pool over replicas that serve the same model. The model
// name of the first replica keys the store's cache, so a reply is reused
// whichever replica produced it.
func NewPool(replicas []Completer, names []string, cooldown time.Duration) (*Pool, error) {
	if len(replicas) == 0 {
		return nil, errors.New("llm: a pool needs at least one replica")
	}
	if cooldown <= 0 {
		cooldown = 30 * time.Second
	}
	p := &Pool{model: replicas[0].Model(), cooldown: cooldown, now: time.Now}
	for i, c := range replicas {
		name := fmt.Sprintf("replica %d", i+1)
		if i < len(names) && names[i] != "" {
			name = names[i]
		}
		p.members = append(p.members, &poolMember{c: c, name: name})
	}
	return p, nil
}

// Model is the model all replicas serve.
func (p *Pool) Model() string { return p.model }

// pick returns the live replica with the fewest requests in flight among
// those not yet tried, or, when all are down, the one that comes back first.
func (p *Pool) pick(tried map[*poolMember]bool) *poolMember {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	var best, soonest *poolMember
	for _, m := range p.members {
		if tried[m] {
			continue
		}
		if now.Before(m.downUntil) {
			if soonest == nil || m.downUntil.Before(soonest.downUntil) {
				soonest = m
			}
			continue
		}
		if best == nil || m.outstanding < best.outstanding {
			best = m
		}
	}
	if best == nil {
		best = soonest
	}
	if best != nil {
		best.outstanding++
	}
	return best
}

func (p *Pool) release(m *poolMember, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	m.outstanding--
	if err == nil || !replicaDown(err) {
		m.served++
		return
	}
	m.failures++
	m.downUntil = p.now().Add(p.cooldown)
}

// replicaDown reports failures that say the server, not the request, is the
// problem: connection errors, timeouts and 5xx that outlived the retries.
func replicaDown(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var api *APIError
	if errors.As(err, &api) {
		return api.Status >= 500 || api.Status == 429
	}
	return errors.Is(err, ErrTimeout) || isConnError(err)
}

// Complete sends the request to the least busy live replica and fails over
// to the others when that replica is down.
func (p *Pool) Complete(ctx context.Context, req Request) (Reply, error) {
	tried := map[*poolMember]bool{}
	var lastErr error
	for range p.members {
		m := p.pick(tried)
		if m == nil {
			break
		}
		tried[m] = true
		rep, err := m.c.Complete(ctx, req)
		p.release(m, err)
		if err == nil || !replicaDown(err) || ctx.Err() != nil {
			return rep, err
		}
		lastErr = fmt.Errorf("%s: %w", m.name, err)
	}
	return Reply{}, fmt.Errorf("llm: every replica failed: %w", lastErr)
}

// Stats reports each replica's share.
func (p *Pool) Stats() []ReplicaStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	out := make([]ReplicaStats, len(p.members))
	for i, m := range p.members {
		out[i] = ReplicaStats{Name: m.name, Outstanding: m.outstanding, Served: m.served, Failures: m.failures, Down: now.Before(m.downUntil)}
	}
	return out
}

// Adaptations gathers what every replica's client changed in its requests.
func (p *Pool) Adaptations() []Adaptation {
	var out []Adaptation
	for _, m := range p.members {
		if a, ok := m.c.(Adapter); ok {
			out = append(out, a.Adaptations()...)
		}
	}
	return out
}
