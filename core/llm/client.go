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
	"sync"
	"sync/atomic"
	"time"

	"cubeworkbench/core/httpsafe"
)

// Client talks to one Endpoint. It is safe for concurrent use; its
// concurrency limit, rate limit and meter cover every goroutine using it.
type Client struct {
	ep       Endpoint
	key      string
	hc       *http.Client
	gate     *gate
	limiter  *rateLimiter
	sleep    func(context.Context, time.Duration) error
	now      func() time.Time
	meter    *Meter
	budget   float64
	inflight atomic.Int64

	detectOnce sync.Once  // server = "auto": the server is asked once (detect.go)
	epMu       sync.Mutex // guards ep.Provider while it is resolved

	adapted     [adaptKinds]atomic.Bool // what the endpoint refused, remembered
	adaptMu     sync.Mutex
	adaptations []Adaptation

	chatURL, embedURL, modelsURL string
}

// Option adjusts a Client.
type Option func(*Client)

// WithAPIKey supplies the key directly (e.g. from the OS keyring) instead
// of the environment variable the Endpoint names.
func WithAPIKey(key string) Option { return func(c *Client) { c.key = key } }

// WithHTTPClient replaces the HTTP client (proxies, custom TLS roots). Build
// it with httpsafe.NewClient so the redirect policy stays.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithSleep replaces the function used to wait (backoff, Retry-After, rate
// limit), so tests can record the waits instead of sleeping.
func WithSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = f }
}

// WithClock replaces time.Now for the rate limiter, the 429 adaptation and
// HTTP-date Retry-After headers.
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// WithMeter makes the client record into m (shared across clients for a
// run-wide total) instead of a meter of its own.
func WithMeter(m *Meter) Option { return func(c *Client) { c.meter = m } }

// WithBudget refuses calls with ErrBudgetExceeded once the meter's cost,
// plus the mean cost of a call for each call in flight and the next one,
// would exceed maxCost. maxCost ≤ 0 means no budget.
func WithBudget(maxCost float64) Option { return func(c *Client) { c.budget = maxCost } }

// New makes a client for ep. The key is read from os.Getenv(ep.APIKeyEnv)
// unless WithAPIKey gives one; it is only ever put in request headers, and
// it is registered with httpsafe so that no message can show it.
func New(ep Endpoint, opts ...Option) (*Client, error) {
	ep = ep.withDefaults()
	httpsafe.Register(httpsafe.URLSecrets(ep.BaseURL)...)
	if ep.BaseURL == "" {
		return nil, fmt.Errorf("llm %s: base_url is empty", ep.Name)
	}
	if ep.Model == "" {
		return nil, fmt.Errorf("llm: endpoint %s: model is empty", httpsafe.SanitizeURL(ep.BaseURL))
	}
	base, err := url.Parse(ep.BaseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("llm %s: base_url %q is not an http(s) URL", ep.Name, httpsafe.SanitizeURL(ep.BaseURL))
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
	httpsafe.Register(c.key)
	if c.hc == nil {
		// No Timeout: each attempt gets its own context deadline.
		c.hc = httpsafe.NewClient(httpsafe.Options{AllowRedirects: ep.AllowRedirects, MaxIdleConnsPerHost: 2 * ep.Concurrency})
	}
	if c.meter == nil {
		c.meter = &Meter{}
	}
	c.gate = newGate(ep.Concurrency, c.now)
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

// Endpoint is the endpoint with its defaults filled in (Provider "auto"
// until the first request asked the server).
func (c *Client) Endpoint() Endpoint {
	c.epMu.Lock()
	defer c.epMu.Unlock()
	return c.ep
}

// Meter is where the client records usage.
func (c *Client) Meter() *Meter { return c.meter }

// Complete sends one chat request. Temperature is always on the wire, 0
// included, unless the model refused it (see Adaptations); the provider's
// thinking switch is added (Endpoint.DisableThinking).
// Reply.Content has <think> blocks stripped (Reply.Raw keeps the original).
// An empty answer returns ErrEmptyReply and a cut-off one ErrTruncated,
// both with the Reply filled in.
func (c *Client) Complete(ctx context.Context, req Request) (Reply, error) {
	if len(req.Messages) == 0 {
		return Reply{}, fmt.Errorf("llm %s: request has no messages", c.ep.Name)
	}
	c.resolveProvider(ctx)
	done, err := c.enter(ctx)
	if err != nil {
		return Reply{}, err
	}
	defer done()

	var reply Reply
	decode := func(b []byte) error {
		var err error
		reply, err = decodeChat(b)
		return err
	}
	// The body is built inside the slot, from what the endpoint has taught
	// the client by then, and the options it was built with are kept: a
	// refusal of a body built before another request's adaptation is sent
	// again, rebuilt, and is no failure.
	var sent wireOptions
	build := func() ([]byte, error) {
		sent = c.wireOptions()
		return buildChat(c.ep, req, sent)
	}
	adapt := func(err error) bool {
		sentSwitch := sent.withSwitch && switchField(c.ep.Provider) != "" && c.ep.thinkingOff()
		k := adaptFor(err, c.ep.Provider, sentSwitch)
		return k >= 0 && (c.adapt(k, err) || stale(sent, k))
	}
	t, err := c.do(ctx, c.chatURL, c.ep.MaxReplyBytes, build, decode, adapt)
	// A server that echoes its request headers must not hand a key to the
	// store, the report or the window, even in a reply that succeeded.
	reply.Content, reply.Raw, reply.Reasoning = httpsafe.Redact(reply.Content), httpsafe.Redact(reply.Raw), httpsafe.Redact(reply.Reasoning)
	if reply.Model == "" {
		reply.Model = c.ep.Model
	}
	reply.Attempts = t.attempts
	unusable := errors.Is(err, ErrEmptyReply) || errors.Is(err, ErrTruncated) || errors.Is(err, ErrUnfinished)
	c.meter.record(c.ep, reply.Usage, reply.Usage != (Usage{}), t, err, unusable)
	if err != nil {
		return reply, c.wrap(err, t.attempts)
	}
	return reply, nil
}

// wireOptions is what the endpoint has taught the client so far.
func (c *Client) wireOptions() wireOptions {
	return wireOptions{
		withSwitch:    !c.adapted[adaptSwitch].Load(),
		maxCompletion: c.adapted[adaptMaxCompletion].Load(),
		noTemperature: c.adapted[adaptTemperature].Load(),
	}
}

// ChatBody is the exact body Complete would send for req now, adaptations
// learned so far included: a batch file must ask what a live call asks.
func (c *Client) ChatBody(req Request) ([]byte, error) {
	c.resolveProvider(context.Background())
	return buildChat(c.ep, req, c.wireOptions())
}

// enter checks the budget and counts the call in flight. The concurrency
// slot is taken per attempt, in do.
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
	c.inflight.Add(1)
	return func() { c.inflight.Add(-1) }, nil
}

// CurrentConcurrency is the endpoint's concurrency limit now: the
// configured one, lowered while the endpoint answers 429.
func (c *Client) CurrentConcurrency() int { return c.gate.current() }

// maxMalformed is how many unparsable 200 bodies in a row are retried: a
// proxy hiccup is worth another try, a base_url pointing at a web page is not.
const maxMalformed = 2

// maxStalls is how many stalled attempts in one request are tried again.
const maxStalls = 1

// maxRetryAfter caps a server's Retry-After so a bogus header cannot stall
// a run for hours; ctx cancellation still ends any wait.
const maxRetryAfter = 10 * time.Minute

// tally counts what one call put on the wire: attempts are HTTP requests
// sent (what the server sees), replies the HTTP responses that came back
// (any status), throttled the 429s among them.
type tally struct {
	attempts, replies, throttled, adapted int
}

// do POSTs the body build renders until decode accepts the reply, a
// non-retryable error comes back, or the retries run out. Each attempt
// holds a concurrency slot only while it is on the wire: backoff and
// Retry-After waits happen outside it. A refusal that adapt accepts (a
// parameter the model does not take) is sent again at once, rebuilt, and is
// not counted as a retry.
func (c *Client) do(ctx context.Context, target string, limit int64, build func() ([]byte, error),
	decode func([]byte) error, adapt func(error) bool) (t tally, err error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, c.ep.TotalTimeout)
	defer cancel()
	defer func() {
		// The request's own limit ran out, not the caller's context: a
		// failure of the endpoint, never mistaken for a cancellation.
		if err != nil && parent.Err() == nil && ctx.Err() != nil {
			err = fmt.Errorf("%w after %v (%d attempts; last: %s)", ErrGaveUp, c.ep.TotalTimeout, t.attempts, gaveUpCause(err))
		}
	}()
	malformed, retries, stalls := 0, 0, 0
	for {
		if err := c.gate.acquire(ctx); err != nil {
			return t, err
		}
		// The rate limit is waited inside the slot, as before: waiting it
		// first and the slot second would let reserved starts bunch up
		// behind a full gate and leave in a burst.
		if err := c.limiter.wait(ctx); err != nil {
			c.gate.release()
			return t, err
		}
		// Built last, just before it goes out: a request that waited for
		// its slot carries what the endpoint taught the client meanwhile.
		body, err := build()
		if err != nil {
			c.gate.release()
			return t, err
		}
		t.attempts++
		wait, replied, err := c.attempt(ctx, target, body, limit, decode)
		c.gate.release()
		if replied {
			t.replies++
		}
		if err == nil {
			c.gate.succeeded()
			return t, nil
		}
		if ctx.Err() != nil {
			return t, ctx.Err()
		}
		if adapt != nil && adapt(err) {
			t.adapted++
			continue
		}
		var ae *APIError
		if errors.As(err, &ae) && ae.Status == http.StatusTooManyRequests && ae.kind() != kindBalance {
			t.throttled++
			c.gate.throttled(wait)
		}
		retry := retryable(err)
		if errors.Is(err, ErrMalformed) {
			malformed++
			retry = malformed <= maxMalformed
		}
		if errors.Is(err, ErrStalled) {
			// A server that hangs mid-reply mostly hangs again: one more
			// try, then the endpoint is named, within minutes.
			stalls++
			retry = stalls <= maxStalls
		}
		if !retry || retries >= c.ep.MaxRetries {
			return t, err
		}
		if wait < 0 {
			wait = c.backoff(retries)
		}
		retries++
		if err := c.sleep(ctx, wait); err != nil {
			return t, err
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
	case errors.Is(err, httpsafe.ErrCrossHostRedirect), errors.Is(err, ErrReplyTooLarge):
		// The same request gets the same redirect, the same huge body.
		return false
	case errors.As(err, &ae):
		return ae.retryable()
	case errors.Is(err, ErrTimeout), errors.Is(err, ErrStalled):
		return true
	case errors.Is(err, ErrEmptyReply), errors.Is(err, ErrTruncated), errors.Is(err, ErrUnfinished):
		// The same request at temperature 0 gives the same reply.
		return false
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), isConnError(err):
		return true
	}
	return false
}

// readCapped reads at most limit bytes of a reply; a longer one is
// ErrReplyTooLarge, never a silently cut body.
func readCapped(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w (max_reply_bytes = %d)", ErrReplyTooLarge, limit)
	}
	return data, nil
}

// attempt makes one HTTP request. wait is the server's Retry-After, or -1;
// replied says an HTTP response came back (whatever its status).
func (c *Client) attempt(ctx context.Context, target string, body []byte, limit int64, decode func([]byte) error) (wait time.Duration, replied bool, err error) {
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
		return -1, false, fmt.Errorf("build request: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json")
	c.authorize(hr)
	resp, err := c.hc.Do(hr)
	if err != nil {
		return -1, false, timedOut(err)
	}
	defer resp.Body.Close()
	// The body must keep coming: no byte for StallTimeout ends the attempt.
	var stalled atomic.Bool
	idle := time.AfterFunc(c.ep.StallTimeout, func() { stalled.Store(true); cancel() })
	defer idle.Stop()
	data, err := readCapped(&httpsafe.IdleReader{R: resp.Body, Timer: idle, D: c.ep.StallTimeout}, limit)
	if err != nil {
		if stalled.Load() && ctx.Err() == nil {
			return -1, true, fmt.Errorf("%w for %v", ErrStalled, c.ep.StallTimeout)
		}
		return -1, true, timedOut(fmt.Errorf("read reply: %w", err))
	}
	if resp.StatusCode != http.StatusOK {
		ae := parseAPIError(resp.StatusCode, data)
		ae.Message = httpsafe.Redact(ae.Message)
		return retryAfter(resp.Header, c.now()), true, ae
	}
	if err := decode(data); err != nil {
		if errors.Is(err, errMalformed) {
			return -1, true, fmt.Errorf("%w: %v", ErrMalformed, snippet(data))
		}
		var ae *APIError
		if errors.As(err, &ae) {
			ae.Message = httpsafe.Redact(ae.Message)
		}
		return -1, true, err
	}
	return -1, true, nil
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

// wrap adds the endpoint name and attempt count and makes sure no known
// key (this client's or any other registered one) can leak through the
// error text.
func (c *Client) wrap(err error, attempts int) error {
	if attempts > 1 {
		err = fmt.Errorf("llm %s: after %d attempts: %w", c.ep.Name, attempts, err)
	} else {
		err = fmt.Errorf("llm %s: %w", c.ep.Name, err)
	}
	return httpsafe.RedactError(err)
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

// gaveUpCause is the last failure of a request that ran out of total time,
// without the context error it ended in.
func gaveUpCause(err error) string {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return "no reply"
	}
	return err.Error()
}
