package llm

import (
	"maps"
	"slices"
	"sync"
)

// Meter accumulates what calls cost. One Meter may be shared by several
// clients (WithMeter) so a budget covers a whole run. The zero value is
// ready to use; all methods are safe for concurrent use.
type Meter struct {
	mu       sync.Mutex
	s        Stats
	costBy   map[string]float64
	unpriced []string
}

// Stats is a snapshot of a Meter.
type Stats struct {
	Calls            int64   // Complete/Embed calls that reached the endpoint
	Failures         int64   // calls that ended in an error (unusable replies included)
	Unusable         int64   // of those, empty or truncated replies (ErrEmptyReply, ErrTruncated)
	Retries          int64   // attempts beyond the first
	Attempts         int64   // HTTP requests sent, retries and re-sends included: what the server saw
	Replies          int64   // HTTP responses received, any status (Attempts − Replies never got an answer)
	Throttled        int64   // 429 responses among the replies
	Adapted          int64   // re-sends after the endpoint refused a parameter (see Adaptations)
	PromptTokens     int64   // as the endpoints reported them
	CompletionTokens int64   //
	NoUsage          int64   // successful replies that reported no token usage
	Cost             float64 // from the endpoints' prices; meaningful only when Priced
	Priced           bool    // some endpoint that was metered had a price
}

// Stats returns a snapshot.
func (m *Meter) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.s
}

// Spending is the cost per currency of the prices ("" when the profile
// named none; amounts in two currencies are never added together) and the
// endpoints called without a price, whose cost is unknown, not zero.
func (m *Meter) Spending() (costBy map[string]float64, unpriced []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.costBy), slices.Clone(m.unpriced)
}

// cost returns the accumulated cost and the mean cost per call, the
// budget check's guess at what the next call will cost.
func (m *Meter) cost() (total, perCall float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.s.Calls > 0 {
		perCall = m.s.Cost / float64(m.s.Calls)
	}
	return m.s.Cost, perCall
}

// record adds one finished call.
func (m *Meter) record(ep Endpoint, u Usage, reported bool, t tally, err error, unusable bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.Calls++
	m.s.Retries += int64(max(0, t.attempts-1-t.adapted))
	m.s.Attempts += int64(t.attempts)
	m.s.Replies += int64(t.replies)
	m.s.Throttled += int64(t.throttled)
	m.s.Adapted += int64(t.adapted)
	if err != nil {
		m.s.Failures++
	}
	if unusable {
		m.s.Unusable++
	}
	if err == nil && !reported {
		m.s.NoUsage++
	}
	m.s.PromptTokens += int64(u.PromptTokens)
	m.s.CompletionTokens += int64(u.CompletionTokens)
	m.s.Cost += price(ep, u.PromptTokens, u.CompletionTokens)
	m.s.Priced = m.s.Priced || ep.Priced()
	switch {
	case ep.Priced():
		if m.costBy == nil {
			m.costBy = map[string]float64{}
		}
		m.costBy[ep.Currency] += price(ep, u.PromptTokens, u.CompletionTokens)
	case !slices.Contains(m.unpriced, ep.Name):
		m.unpriced = append(m.unpriced, ep.Name)
	}
}

func price(ep Endpoint, prompt, completion int) float64 {
	return (float64(prompt)*ep.PriceInPerMTok + float64(completion)*ep.PriceOutPerMTok) / 1e6
}

// CostEstimate is the pre-flight estimate shown before a run starts.
type CostEstimate struct {
	Calls            int
	PromptTokens     int
	CompletionTokens int
	Cost             float64 // in the currency of the endpoint's prices
	Priced           bool    // false: the endpoint has no prices, Cost is unknown rather than free
	Currency         string  // the prices' currency
}

// Estimate forecasts the tokens and cost of calls to ep.
func Estimate(ep Endpoint, calls, promptTokensPerCall, completionTokensPerCall int) CostEstimate {
	p, c := calls*promptTokensPerCall, calls*completionTokensPerCall
	return CostEstimate{Calls: calls, PromptTokens: p, CompletionTokens: c,
		Cost: price(ep, p, c), Priced: ep.Priced(), Currency: ep.Currency}
}
