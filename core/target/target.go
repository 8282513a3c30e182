package target

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/secret"
)

// Doc is one retrieved document, in rank order.
type Doc struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Content string  `json:"content,omitempty"`
	Score   float64 `json:"score,omitempty"`
}

// Answer is the system's reply to one question.
type Answer struct {
	Text      string   `json:"text"`
	Retrieved []Doc    `json:"retrieved"` // one entry per document, first occurrence wins
	Contexts  []string `json:"contexts,omitempty"`
	// Warnings about the target's settings found in this reply (e.g. no
	// documents because RAGFlow's quote is off). Never about the question.
	Warnings []Warning `json:"warnings,omitempty"`
}

// Target answers questions.
type Target interface {
	Ask(ctx context.Context, question string) (Answer, error)
	Kind() string
}

// Error is a failure the system reported. Retryable errors were retried
// before they were returned.
type Error struct {
	Kind      string // ragflow, dify, openai, http
	Status    int    // HTTP status, 0 when the failure came in a 200 envelope
	Code      string
	Message   string
	Retryable bool
	Auth      bool // the key is missing or wrong, however the system said it
}

func (e *Error) Error() string {
	if e.Code != "" {
		return fmt.Sprintf("%s: HTTP %d code %s: %s", e.Kind, e.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("%s: HTTP %d: %s", e.Kind, e.Status, e.Message)
}

// IsAuth reports a missing or wrong key, however the system said it.
func (e *Error) IsAuth() bool {
	return e.Auth || e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
}

// ErrReasoningCut is an answer that ends inside the system's model's
// reasoning: the model used its tokens thinking and the citizen got no
// answer. It is not judged (its thinking would be scored as an answer);
// the question is counted as not answered, with this reason, and asked
// again on the next run.
var ErrReasoningCut = errors.New("target: the answer ends inside the model's reasoning (<think> never closed), so no answer reached the citizen; raise the model's max tokens in the system, or turn its reasoning off")

// ErrOnlyMarks is an answer with nothing a citizen reads once the system's
// own marks are out: a MaxKB workflow that stops at a form node for the
// citizen to fill in, an answer of citation markers alone. Like an answer
// cut in its reasoning, it is counted as not answered, with this reason,
// rather than judged as an empty answer.
var ErrOnlyMarks = errors.New("target: the answer holds only the system's own marks (a workflow form waiting for input, citation markers), no text a citizen reads; check that the application answers in one turn")

// ErrConfig marks a target profile that cannot work.
var ErrConfig = errors.New("target: bad configuration")

// New builds the connector a profile names, through the registry. The API
// key is read from the environment variable the profile names; it never
// leaves the Authorization header and is redacted from every error.
func New(t Config) (Target, error) { return build(t, 4) }

// NewOnce is New without retries: Test connection wants the first failure
// as it came, at once, not after a minute of backoff.
func NewOnce(t Config) (Target, error) { return build(t, 1) }

func build(t Config, attempts int) (Target, error) {
	spec, ok := SpecOf(t.Kind)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrConfig, CheckKind(t.Kind))
	}
	// A key typed in the window this session, else the profile's
	// environment variable, else the OS keyring; no key is fine for
	// targets that need none, and the connector's 401 then says so.
	key, _, _ := secret.Default().Get(secret.Target(t.Kind), t.APIKeyEnv)
	httpsafe.Register(key)
	httpsafe.Register(httpsafe.URLSecrets(t.BaseURL)...)
	t.BaseURL = strings.TrimRight(t.BaseURL, "/")
	if missing := spec.Missing(t, "en"); len(missing) > 0 {
		return nil, fmt.Errorf("%w: %s needs %s", ErrConfig, t.Kind, strings.Join(missing, ", "))
	}
	hc := httpsafe.NewClient(httpsafe.Options{Timeout: 180 * time.Second, AllowRedirects: t.AllowRedirects})
	c := client{http: hc, key: key, sleep: sleepCtx, attempts: attempts}
	tg, err := spec.build(c, t)
	if err != nil {
		return nil, err
	}
	return finishing{Target: tg, key: key, clean: spec.Cleanup}, nil
}

// finishing is the one way an answer leaves the package: cleaned by the
// connector's own Cleanup (so a connector cannot forget it, nor use
// another system's), then with every known key removed, successful
// answers included: one that echoes its request headers must not put a
// key into the store, the report or the window.
type finishing struct {
	Target
	key   string
	clean Cleanup
}

func (r finishing) Ask(ctx context.Context, question string) (Answer, error) {
	ans, err := r.Target.Ask(ctx, question)
	text, cut := r.clean.Clean(ans.Text)
	if cut && err == nil {
		return Answer{}, fmt.Errorf("%w (%s)", ErrReasoningCut, r.Target.Kind())
	}
	if text == "" && strings.TrimSpace(ans.Text) != "" && err == nil {
		return Answer{}, fmt.Errorf("%w (%s)", ErrOnlyMarks, r.Target.Kind())
	}
	ans.Text = redactKey(text, r.key)
	for i := range ans.Contexts {
		ans.Contexts[i] = redactKey(ans.Contexts[i], r.key)
	}
	for i := range ans.Retrieved {
		ans.Retrieved[i].Content = redactKey(ans.Retrieved[i].Content, r.key)
	}
	return ans, err
}

// client holds what every connector shares: the HTTP client, the key and
// the retry policy (429 and 5xx retried with backoff honouring Retry-After).
type client struct {
	http     *http.Client
	key      string
	sleep    func(context.Context, time.Duration) error
	attempts int
	stall    time.Duration // no byte of a begun reply for this long ends the attempt; 0: stallAfter
}

// stallAfter is how long a reply that has begun may send nothing: a system
// that hangs mid-answer is named in a minute, not after the 180 s timeout
// of every attempt.
const stallAfter = 60 * time.Second

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// post sends a JSON body and returns the response body of a 2xx reply.
// Non-2xx replies come back as *Error after retries (decode is given the
// body to extract the server's own code and message).
func (c client) post(ctx context.Context, kind, url string, body []byte, decodeErr func(status int, body []byte) *Error) ([]byte, error) {
	return c.send(ctx, http.MethodPost, kind, url, body, decodeErr)
}

// get is post's GET twin (no body).
func (c client) get(ctx context.Context, kind, url string, decodeErr func(status int, body []byte) *Error) ([]byte, error) {
	return c.send(ctx, http.MethodGet, kind, url, nil, decodeErr)
}

func (c client) send(ctx context.Context, method, kind, url string, body []byte, decodeErr func(status int, body []byte) *Error) ([]byte, error) {
	attempts := max(c.attempts, 1)
	var last error
	for attempt := 0; attempt < attempts; attempt++ {
		if attempt > 0 {
			wait := time.Duration(1<<(attempt-1)) * time.Second
			if e, ok := last.(*retryAfter); ok && e.wait > 0 {
				wait = e.wait
			}
			if err := c.sleep(ctx, wait); err != nil {
				return nil, err
			}
		}
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		actx, cancel := context.WithCancel(ctx)
		req, err := http.NewRequestWithContext(actx, method, url, rd)
		if err != nil {
			cancel()
			return nil, fmt.Errorf("%w: %v", ErrConfig, err)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if c.key != "" {
			req.Header.Set("Authorization", "Bearer "+c.key)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			cancel()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			last = &retryAfter{err: &Error{Kind: kind, Message: redactKey(redactURL(err.Error()), c.key), Retryable: true}}
			continue
		}
		stall := c.stall
		if stall <= 0 {
			stall = stallAfter
		}
		var stalled atomic.Bool
		idle := time.AfterFunc(stall, func() { stalled.Store(true); cancel() })
		data, readErr := io.ReadAll(io.LimitReader(&httpsafe.IdleReader{R: resp.Body, Timer: idle, D: stall}, 64<<20))
		idle.Stop()
		resp.Body.Close()
		cancel()
		if readErr != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			msg := readErr.Error()
			if stalled.Load() {
				msg = fmt.Sprintf("回复中途停止：%v 内没有再收到数据 / the reply stopped coming: no bytes for %v", stall, stall)
			}
			last = &retryAfter{err: &Error{Kind: kind, Status: resp.StatusCode, Message: msg, Retryable: true}}
			continue
		}
		if resp.StatusCode/100 == 2 {
			return data, nil
		}
		e := decodeErr(resp.StatusCode, data)
		e.Kind, e.Status = kind, resp.StatusCode
		e.Message = redactKey(e.Message, c.key)
		e.Retryable = resp.StatusCode == 429 || resp.StatusCode >= 500
		if !e.Retryable {
			return nil, e
		}
		last = &retryAfter{err: e, wait: parseRetryAfter(resp.Header.Get("Retry-After"))}
	}
	return nil, last.(*retryAfter).err
}

type retryAfter struct {
	err  error
	wait time.Duration
}

func (r *retryAfter) Error() string { return r.err.Error() }

func parseRetryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		return min(time.Duration(secs*float64(time.Second)), 5*time.Minute)
	}
	if at, err := http.ParseTime(v); err == nil {
		return min(max(time.Until(at), 0), 5*time.Minute)
	}
	return 0
}

// redactURL removes credentials embedded in URLs of transport errors.
func redactURL(s string) string { return httpsafe.Redact(s) }

// dedupe keeps the first occurrence of every document, in rank order.
func dedupe(docs []Doc) []Doc {
	seen := map[string]bool{}
	out := docs[:0:0]
	for _, d := range docs {
		key := d.ID
		if key == "" {
			key = "name:" + d.Name
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, d)
	}
	return out
}
