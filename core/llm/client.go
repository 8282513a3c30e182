package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Client talks to one Endpoint. It is safe for concurrent use; its
// concurrency limit, rate limit and meter cover every goroutine using it.
type Client struct {
	ep       Endpoint
	key      string
	hc       *http.Client
	sem      chan struct{}
	limiter  *rateLimiter
	sleep    func(context.Context, time.Duration) error
	now      func() time.Time
	meter    *Meter
	budget   float64
	inflight atomic.Int64
	noSwitch atomic.Bool // the endpoint rejected the thinking switch

	chatURL, embedURL, modelsURL string
}

// Option adjusts a Client.
type Option func(*Client)

// WithAPIKey supplies the key directly (e.g. from the OS keyring) instead
// of the environment variable the Endpoint names.
func WithAPIKey(key string) Option { return func(c *Client) { c.key = key } }

// WithHTTPClient replaces the HTTP client (proxies, custom TLS roots).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithSleep replaces the function used to wait (backoff, Retry-After, rate
// limit), so tests can record the waits instead of sleeping.
func WithSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = f }
}

// WithClock replaces time.Now for the rate limiter and HTTP-date
// Retry-After headers.
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// WithMeter makes the client record into m (shared across clients for a
// run-wide total) instead of a meter of its own.
func WithMeter(m *Meter) Option { return func(c *Client) { c.meter = m } }

// WithBudget refuses calls with ErrBudgetExceeded once the meter's cost,
// plus the mean cost of a call for each call in flight and the next one,
// would exceed maxCost. maxCost ≤ 0 means no budget.
func WithBudget(maxCost float64) Option { return func(c *Client) { c.budget = maxCost } }

// New makes a client for ep. The key is read from os.Getenv(ep.APIKeyEnv)
// unless WithAPIKey gives one; it is only ever put in request headers.
func New(ep Endpoint, opts ...Option) (*Client, error) {
	ep = ep.withDefaults()
	if ep.BaseURL == "" {
		return nil, fmt.Errorf("llm %s: base_url is empty", ep.Name)
	}
	if ep.Model == "" {
		return nil, fmt.Errorf("llm: endpoint %s: model is empty", ep.BaseURL)
	}
	base, err := url.Parse(ep.BaseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("llm %s: base_url %q is not an http(s) URL", ep.Name, ep.BaseURL)
	}
	c := &Client{ep: ep, sleep: realSleep, now: time.Now, key: "\x00unset"}
	for _, o := range opts {
		o(c)
	}
	if c.key == "\x00unset" {
		c.key = ""
		if ep.APIKeyEnv != "" {
			c.key = strings.TrimSpace(os.Getenv(ep.APIKeyEnv))
			if c.key == "" {
				return nil, fmt.Errorf("llm %s: %w: %s", ep.Name, ErrNoKey, ep.APIKeyEnv)
			}
		}
	}
	if c.hc == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 2 * ep.Concurrency
		// No Client.Timeout: each attempt gets its own context deadline.
		c.hc = &http.Client{Transport: t}
	}
	if c.meter == nil {
		c.meter = &Meter{}
	}
	c.sem = make(chan struct{}, ep.Concurrency)
	c.limiter = newRateLimiter(ep.RPM, c.now, c.sleep)
	c.chatURL = join(base, "/chat/completions")
	c.embedURL = join(base, "/embeddings")
	c.modelsURL = join(base, "/models")
	return c, nil
}

// join appends a path to the base URL, keeping a query string such as
// Azure's api-version.
func join(base *url.URL, suffix string) string {
	u := *base
	u.Path = strings.TrimRight(u.Path, "/") + suffix
	u.RawPath = ""
	return u.String()
}

// Model is the endpoint's model name.
func (c *Client) Model() string { return c.ep.Model }

// Endpoint is the endpoint with its defaults filled in.
func (c *Client) Endpoint() Endpoint { return c.ep }

// Meter is where the client records usage.
func (c *Client) Meter() *Meter { return c.meter }

// Complete sends one chat request. Temperature is always on the wire, 0
// included; the provider's thinking switch is added (Endpoint.DisableThinking).
// Reply.Content has <think> blocks stripped (Reply.Raw keeps the original).
// An empty answer returns ErrEmptyReply and a cut-off one ErrTruncated,
// both with the Reply filled in.
func (c *Client) Complete(ctx context.Context, req Request) (Reply, error) {
	if len(req.Messages) == 0 {
		return Reply{}, fmt.Errorf("llm %s: request has no messages", c.ep.Name)
	}
	release, err := c.enter(ctx)
	if err != nil {
		return Reply{}, err
	}
	defer release()

	withSwitch := !c.noSwitch.Load() && switchField(c.ep.Provider) != "" && c.ep.thinkingOff()
	var reply Reply
	decode := func(b []byte) error {
		var err error
		reply, err = decodeChat(b)
		return err
	}
	body, err := buildChat(c.ep, req, withSwitch)
	if err != nil {
		return Reply{}, err
	}
	retries, err := c.do(ctx, c.chatURL, body, decode)
	if withSwitch && rejectsSwitch(err, c.ep.Provider) {
		// An older server that refuses the switch (e.g. Ollama before
		// reasoning_effort "none") still answers without it; remember,
		// so the rest of the run does not pay for the refusal.
		c.noSwitch.Store(true)
		if body, err = buildChat(c.ep, req, false); err != nil {
			return Reply{}, err
		}
		var more int
		more, err = c.do(ctx, c.chatURL, body, decode)
		retries += 1 + more
	}
	if reply.Model == "" {
		reply.Model = c.ep.Model
	}
	reply.Attempts = retries + 1
	unusable := errors.Is(err, ErrEmptyReply) || errors.Is(err, ErrTruncated)
	c.meter.record(c.ep, reply.Usage, reply.Usage != (Usage{}), retries, err, unusable)
	if err != nil {
		return reply, c.wrap(err, retries)
	}
	return reply, nil
}

// rejectsSwitch reports a 400/422 that names the thinking switch we sent.
func rejectsSwitch(err error, provider string) bool {
	var ae *APIError
	if !errors.As(err, &ae) || (ae.Status != 400 && ae.Status != 422) {
		return false
	}
	m := strings.ToLower(ae.Message + " " + ae.Code)
	if provider == ProviderDashScope && strings.Contains(m, "must be set to false") {
		// DashScope's complaint that thinking is on: dropping the switch
		// would only make it worse.
		return false
	}
	f := switchField(provider)
	return (f != "" && strings.Contains(m, f)) || strings.Contains(m, "reasoning") || strings.Contains(m, "thinking")
}

// enter checks the budget and takes a concurrency slot.
func (c *Client) enter(ctx context.Context) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("llm %s: %w", c.ep.Name, err)
	}
	if c.budget > 0 {
		total, per := c.meter.cost()
		if total+per*float64(c.inflight.Load()+1) > c.budget {
			return nil, fmt.Errorf("llm %s: %w (%.4f of %.4f spent)", c.ep.Name, ErrBudgetExceeded, total, c.budget)
		}
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("llm %s: %w", c.ep.Name, ctx.Err())
	}
	c.inflight.Add(1)
	return func() {
		c.inflight.Add(-1)
		<-c.sem
	}, nil
}

// maxMalformed is how many unparsable 200 bodies in a row are retried: a
// proxy hiccup is worth another try, a base_url pointing at a web page is not.
const maxMalformed = 2

// maxRetryAfter caps a server's Retry-After so a bogus header cannot stall
// a run for hours; ctx cancellation still ends any wait.
const maxRetryAfter = 10 * time.Minute

// do POSTs body to target until decode accepts the reply, a non-retryable
// error comes back, or the retries run out. It returns the retries made.
func (c *Client) do(ctx context.Context, target string, body []byte, decode func([]byte) error) (int, error) {
	malformed := 0
	for attempt := 0; ; attempt++ {
		if err := c.limiter.wait(ctx); err != nil {
			return attempt, err
		}
		wait, err := c.attempt(ctx, target, body, decode)
		if err == nil {
			return attempt, nil
		}
		if ctx.Err() != nil {
			return attempt, ctx.Err()
		}
		retry := retryable(err)
		if errors.Is(err, ErrMalformed) {
			malformed++
			retry = malformed <= maxMalformed
		}
		if !retry || attempt >= c.ep.MaxRetries {
			return attempt, err
		}
		if wait < 0 {
			wait = c.backoff(attempt)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return attempt, err
		}
	}
}

// backoff is exponential with full jitter: uniform in [0, min(max, base·2^n)].
func (c *Client) backoff(n int) time.Duration {
	ceil := c.ep.BackoffMax
	if n < 30 {
		if d := c.ep.BackoffBase << n; d > 0 && d < ceil {
			ceil = d
		}
	}
	return time.Duration(rand.Int64N(int64(ceil) + 1))
}

func retryable(err error) bool {
	var ae *APIError
	switch {
	case errors.As(err, &ae):
		return ae.retryable()
	case errors.Is(err, ErrTimeout):
		return true
	case errors.Is(err, ErrEmptyReply), errors.Is(err, ErrTruncated):
		// The same request at temperature 0 gives the same reply.
		return false
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), isConnError(err):
		return true
	}
	return false
}

// attempt makes one HTTP request. wait is the server's Retry-After, or -1.
func (c *Client) attempt(ctx context.Context, target string, body []byte, decode func([]byte) error) (wait time.Duration, err error) {
	actx, cancel := context.WithTimeout(ctx, c.ep.Timeout)
	defer cancel()
	timedOut := func(err error) error {
		if ctx.Err() == nil && actx.Err() != nil {
			return fmt.Errorf("%w after %v", ErrTimeout, c.ep.Timeout)
		}
		return err
	}
	hr, err := http.NewRequestWithContext(actx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return -1, fmt.Errorf("build request: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json")
	c.authorize(hr)
	resp, err := c.hc.Do(hr)
	if err != nil {
		return -1, timedOut(err)
	}
	defer resp.Body.Close()
	// 64 MiB is far beyond any chat reply or embeddings batch; the cap
	// only guards against a misconfigured URL streaming something huge.
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return -1, timedOut(fmt.Errorf("read reply: %w", err))
	}
	if resp.StatusCode != http.StatusOK {
		ae := parseAPIError(resp.StatusCode, data)
		ae.Message = redact(ae.Message, c.key)
		return retryAfter(resp.Header, c.now()), ae
	}
	if err := decode(data); err != nil {
		if errors.Is(err, errMalformed) {
			return -1, fmt.Errorf("%w: %v", ErrMalformed, snippet(data))
		}
		var ae *APIError
		if errors.As(err, &ae) {
			ae.Message = redact(ae.Message, c.key)
		}
		return -1, err
	}
	return -1, nil
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return strconv.Quote(s)
}

// retryAfter reads retry-after-ms (OpenAI) or Retry-After in seconds or as
// an HTTP date; -1 when neither is usable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	clamp := func(d time.Duration) time.Duration { return min(max(d, 0), maxRetryAfter) }
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return clamp(time.Duration(ms * float64(time.Millisecond)))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return -1
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return clamp(time.Duration(s * float64(time.Second)))
	}
	if t, err := http.ParseTime(v); err == nil {
		return clamp(t.Sub(now))
	}
	return -1
}

// wrap adds the endpoint name and attempt count and makes sure the key
// cannot leak through any error text.
func (c *Client) wrap(err error, retries int) error {
	if retries > 0 {
		err = fmt.Errorf("llm %s: after %d attempts: %w", c.ep.Name, retries+1, err)
	} else {
		err = fmt.Errorf("llm %s: %w", c.ep.Name, err)
	}
	if msg := err.Error(); len(c.key) >= 4 && strings.Contains(msg, c.key) {
		return &redactedError{msg: redact(msg, c.key), err: err}
	}
	return err
}

// authorize puts the key in the header the provider expects (Azure's
// api-key, Bearer elsewhere). Headers are the only place the key goes.
func (c *Client) authorize(hr *http.Request) {
	if c.key == "" {
		return
	}
	if c.ep.Provider == ProviderAzure {
		hr.Header.Set("api-key", c.key)
	} else {
		hr.Header.Set("Authorization", "Bearer "+c.key)
	}
}
