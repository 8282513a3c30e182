package engine

import (
	"sync"
	"time"
)

// stepCounter turns finished units of work into Events with an ETA.
type stepCounter struct {
	mu       sync.Mutex
	progress Progress
	ev       Event
	started  time.Time
	detail   func() string // e.g. the replicas' share, shown with each event
}

func newStepCounter(p Progress, step, label string, total int) *stepCounter {
	c := &stepCounter{progress: p, started: time.Now()}
	c.ev = Event{Step: step, Label: label, Total: total}
	p.Event(c.ev)
	return c
}

// add records one finished unit: failed when it produced no usable result,
// calls and cached as the endpoint counted them, tokens and cost spent.
func (c *stepCounter) add(failed bool, calls, cached, tokens int, cost float64) {
	f := 0
	if failed {
		f = 1
	}
	c.advance(1, f, calls, cached, tokens, cost, true)
}

// price says in which currency the step's calls are priced, or that they
// are not (their cost is then unknown, never 0).
func (c *stepCounter) price(currency string, priced bool) {
	c.mu.Lock()
	c.ev.Currency, c.ev.Unpriced = currency, !priced
	c.mu.Unlock()
}

// addDone records done finished units at once, failed of them without a
// usable result, with no calls, cost or tokens: the offline judges, which
// finish a million units in seconds, send one event per answer, not one
// per unit.
func (c *stepCounter) addDone(done, failed int) {
	c.advance(done, failed, 0, 0, 0, 0, false)
}

// advance counts finished units and what they spent, updates the elapsed
// time and ETA, and sends the event (with the step's detail line when
// withDetail; the offline judges' per-answer events go without it).
func (c *stepCounter) advance(done, failed, calls, cached, tokens int, cost float64, withDetail bool) {
	c.mu.Lock()
	c.ev.Done += done
	c.ev.Failed += failed
	c.ev.Calls += calls
	c.ev.Cached += cached
	c.ev.Tokens += tokens
	c.ev.Cost += cost
	c.ev.Elapsed = time.Since(c.started)
	c.ev.ETA = 0
	if c.ev.Done > 0 && c.ev.Done < c.ev.Total {
		per := c.ev.Elapsed / time.Duration(c.ev.Done)
		c.ev.ETA = per * time.Duration(c.ev.Total-c.ev.Done)
	}
	ev := c.ev
	detail := c.detail
	c.mu.Unlock()
	if withDetail && detail != nil {
		ev.Detail = detail()
	}
	c.progress.Event(ev)
}

// finish sends the step's last event and returns it.
func (c *stepCounter) finish() Event {
	c.mu.Lock()
	c.ev.Finished = true
	c.ev.ETA = 0
	c.ev.Elapsed = time.Since(c.started)
	ev := c.ev
	c.mu.Unlock()
	c.progress.Event(ev)
	return ev
}
