package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"cubeworkbench/internal/fakeai"
)

// waits records the client's sleeps instead of sleeping; with a clock it
// also advances that clock, so rate-limit spacing is visible without time
// passing.
type waits struct {
	mu    sync.Mutex
	d     []time.Duration
	clock time.Time
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.clock = w.clock.Add(d)
	w.mu.Unlock()
	return ctx.Err()
}

func (w *waits) now() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.clock
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func testEndpoint(srv *fakeai.Server) Endpoint {
	return Endpoint{Name: "fake", BaseURL: srv.URL(), Model: "fake-model", Timeout: 5 * time.Second,
		BackoffBase: 100 * time.Millisecond, BackoffMax: 2 * time.Second}
}

func newTestClient(t *testing.T, ep Endpoint, opts ...Option) (*Client, *waits) {
	t.Helper()
	w := &waits{clock: epoch}
	c, err := New(ep, append([]Option{WithSleep(w.sleep), WithClock(w.now)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c, w
}

func ask(text string) Request {
	return Request{Messages: []Message{{Role: "system", Content: "Rate 1-10."}, {Role: "user", Content: text}}}
}

func fakeMsgs(r Request) []fakeai.Message {
	out := make([]fakeai.Message, len(r.Messages))
	for i, m := range r.Messages {
		out[i] = fakeai.Message{Role: m.Role, Content: m.Content}
	}
	return out
}

func TestWireFields(t *testing.T) {
	no := false
	cases := []struct {
		provider string
		disable  *bool
		field    string // thinking switch expected on the wire, "" = none
		value    string // its JSON
	}{
		{ProviderGeneric, nil, "", ""},
		{ProviderOllama, nil, "reasoning_effort", `"none"`},
		{ProviderVLLM, nil, "chat_template_kwargs", `{"enable_thinking":false}`},
		{ProviderLlamaCpp, nil, "chat_template_kwargs", `{"enable_thinking":false}`},
		{ProviderDeepSeek, nil, "thinking", `{"type":"disabled"}`},
		{ProviderDashScope, nil, "enable_thinking", `false`},
		{ProviderOpenAI, nil, "", ""},
		{ProviderLMStudio, nil, "", ""},
		{ProviderDashScope, &no, "", ""},
		{ProviderVLLM, &no, "", ""},
	}
	switches := []string{"reasoning_effort", "chat_template_kwargs", "thinking", "enable_thinking"}
	for _, tc := range cases {
		name := tc.provider
		if name == "" {
			name = "generic"
		}
		if tc.disable != nil {
			name += "/thinking-allowed"
		}
		t.Run(name, func(t *testing.T) {
			srv := fakeai.New(t)
			ep := testEndpoint(srv)
			ep.Provider, ep.DisableThinking = tc.provider, tc.disable
			c, _ := newTestClient(t, ep)
			seed := 7
			for i, temp := range []float64{0, 0, 0.7} {
				req := ask(fmt.Sprintf("answer %d", i))
				req.Temperature, req.Seed = temp, &seed
				if _, err := c.Complete(context.Background(), req); err != nil {
					t.Fatal(err)
				}
			}
			chats := srv.Chats()
			if len(chats) != 3 {
				t.Fatalf("server saw %d chats, want 3", len(chats))
			}
			for i, ch := range chats {
				if got := string(ch.Fields["temperature"]); got != []string{"0", "0", "0.7"}[i] {
					t.Errorf("request %d: temperature on the wire = %q", i, got)
				}
				if ch.Seed == nil || *ch.Seed != 7 {
					t.Errorf("request %d: seed = %v, want 7", i, ch.Seed)
				}
				if ch.Model != "fake-model" || ch.Stream {
					t.Errorf("request %d: model %q stream %v", i, ch.Model, ch.Stream)
				}
				for _, f := range switches {
					got, has := ch.Fields[f]
					switch {
					case f == tc.field && string(got) != tc.value:
						t.Errorf("request %d: %s = %s, want %s", i, f, got, tc.value)
					case f != tc.field && has:
						t.Errorf("request %d: unexpected %s = %s", i, f, got)
					}
				}
			}
		})
	}
}

func TestJSONModeAndMaxTokens(t *testing.T) {
	srv := fakeai.New(t)
	c, _ := newTestClient(t, testEndpoint(srv))
	req := ask("json please")
	req.JSON, req.MaxTokens = true, 256
	if _, err := c.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	ch := srv.Chats()[0]
	if ch.ResponseFormat["type"] != "json_object" || ch.MaxTokens == nil || *ch.MaxTokens != 256 {
		t.Errorf("response_format %v max_tokens %v", ch.ResponseFormat, ch.MaxTokens)
	}
	if ch.Has("seed") {
		t.Errorf("seed sent although the request had none")
	}
}

func TestDefaultReplyAndUsage(t *testing.T) {
	srv := fakeai.New(t)
	c, _ := newTestClient(t, testEndpoint(srv))
	req := ask("政务服务")
	r, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("Score: %d", fakeai.Score(fakeMsgs(req)))
	if r.Content != want || r.Raw != want || r.Reasoning != "" || r.FinishReason != "stop" || r.Attempts != 1 {
		t.Errorf("reply %+v, want content %q", r, want)
	}
	// "Rate 1-10." is 10 runes, "政务服务" 4: the fake counts one token a rune.
	if r.Usage.PromptTokens != 14 || r.Usage.CompletionTokens != len(want) {
		t.Errorf("usage %+v", r.Usage)
	}
	if c.Model() != "fake-model" || r.Model != "fake-model" {
		t.Errorf("model %q / %q", c.Model(), r.Model)
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithRetryAfter("2"), fakeai.WithRetryAfterMs("1500"),
		fakeai.WithScript(fakeai.RateLimited, fakeai.RateLimitedMs))
	c, w := newTestClient(t, testEndpoint(srv))
	r, err := c.Complete(context.Background(), ask("q"))
	if err != nil {
		t.Fatal(err)
	}
	got := w.all()
	if len(got) != 2 || got[0] != 2*time.Second || got[1] != 1500*time.Millisecond {
		t.Errorf("sleeps %v, want [2s 1.5s]", got)
	}
	if r.Attempts != 3 || srv.Requests() != 3 {
		t.Errorf("attempts %d, server requests %d; want 3, 3", r.Attempts, srv.Requests())
	}
	if s := c.Meter().Stats(); s.Retries != 2 || s.Calls != 1 || s.Failures != 0 {
		t.Errorf("meter %+v", s)
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	srv := fakeai.New(t)
	first := true
	var mu sync.Mutex
	srv.SetResponder(func(req fakeai.ChatRequest) fakeai.Response {
		mu.Lock()
		defer mu.Unlock()
		if first {
			first = false
			return fakeai.Response{Status: 429, ErrorMessage: "slow down",
				Header: map[string]string{"Retry-After": epoch.Add(3 * time.Second).Format(http.TimeFormat)}}
		}
		return fakeai.DefaultResponse(req)
	})
	c, w := newTestClient(t, testEndpoint(srv))
	if _, err := c.Complete(context.Background(), ask("q")); err != nil {
		t.Fatal(err)
	}
	if got := w.all(); len(got) != 1 || got[0] != 3*time.Second {
		t.Errorf("sleeps %v, want [3s]", got)
	}
}

func TestTransientFailuresThenSuccess(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithScript(fakeai.ServerError, fakeai.Unavailable, fakeai.Hangup))
	ep := testEndpoint(srv)
	c, w := newTestClient(t, ep)
	r, err := c.Complete(context.Background(), ask("q"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Attempts != 4 || srv.Requests() != 4 {
		t.Errorf("attempts %d, requests %d; want 4", r.Attempts, srv.Requests())
	}
	got := w.all()
	if len(got) != 3 {
		t.Fatalf("sleeps %v, want 3", got)
	}
	for n, d := range got {
		// Full jitter: uniform in [0, base·2^n].
		if ceil := ep.BackoffBase << n; d < 0 || d > ceil {
			t.Errorf("backoff %d = %v, outside [0, %v]", n, d, ceil)
		}
	}
	if srv.Distinct() != 1 {
		t.Errorf("retries changed the body: %d distinct bodies", srv.Distinct())
	}
}

func TestRetriesRunOut(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithScript(fakeai.Unavailable, fakeai.Unavailable, fakeai.Unavailable))
	ep := testEndpoint(srv)
	ep.MaxRetries = 2
	c, _ := newTestClient(t, ep)
	_, err := c.Complete(context.Background(), ask("q"))
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 503 {
		t.Fatalf("err = %v, want APIError 503", err)
	}
	if srv.Requests() != 3 || !strings.Contains(err.Error(), "after 3 attempts") {
		t.Errorf("requests %d, err %q", srv.Requests(), err)
	}
	if s := c.Meter().Stats(); s.Failures != 1 || s.Retries != 2 {
		t.Errorf("meter %+v", s)
	}
}

func TestTimeoutRetriedThenFails(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithScript(fakeai.Slow, fakeai.Slow, fakeai.Slow))
	ep := testEndpoint(srv)
	ep.Timeout, ep.MaxRetries = 50*time.Millisecond, 2
	c, _ := newTestClient(t, ep)
	_, err := c.Complete(context.Background(), ask("q"))
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if srv.Requests() != 3 {
		t.Errorf("requests %d, want 3", srv.Requests())
	}
	if msg := err.Error(); !strings.Contains(msg, "timed out after 50ms") || !strings.Contains(msg, "fake") {
		t.Errorf("unclear error %q", msg)
	}
	if Hint(err).In("zh") == "" || Hint(err).In("en") == "" {
		t.Errorf("no hint for a timeout")
	}
}

func TestClientErrorsNotRetried(t *testing.T) {
	cases := []struct {
		name   string
		resp   fakeai.Response
		status int
		kind   int
	}{
		{"400", fakeai.Response{Status: 400, ErrorType: "invalid_request_error", ErrorMessage: "invalid parameter"}, 400, kindInvalid},
		{"401", fakeai.Response{Status: 401, ErrorCode: "invalid_api_key", ErrorMessage: "Incorrect API key provided"}, 401, kindBadKey},
		{"402", fakeai.Response{Status: 402, ErrorMessage: "Insufficient Balance"}, 402, kindBalance},
		{"404", fakeai.Response{Status: 404, ErrorType: "not_found_error", ErrorMessage: `model "x" not found, try pulling it first`}, 404, kindModel},
		{"422", fakeai.Response{Status: 422, ErrorMessage: "Invalid request: temperature"}, 422, kindInvalid},
		{"429 out of quota", fakeai.Response{Status: 429, ErrorCode: "insufficient_quota", ErrorMessage: "You exceeded your current quota"}, 429, kindBalance},
		{"context overflow", fakeai.Response{Status: 400, ErrorType: "exceed_context_size_error", ErrorMessage: "request (5000 tokens) exceeds the available context size (4096 tokens)"}, 400, kindContext},
		{"dashscope arrearage", fakeai.Response{Status: 400, ErrorCode: "Arrearage", ErrorMessage: "Access denied, please make sure your account is in good standing."}, 400, kindBalance},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeai.New(t, fakeai.WithResponder(func(fakeai.ChatRequest) fakeai.Response { return tc.resp }))
			c, w := newTestClient(t, testEndpoint(srv))
			_, err := c.Complete(context.Background(), ask("q"))
			var ae *APIError
			if !errors.As(err, &ae) || ae.Status != tc.status {
				t.Fatalf("err = %v, want APIError %d", err, tc.status)
			}
			if srv.Requests() != 1 || len(w.all()) != 0 {
				t.Errorf("retried: %d requests, sleeps %v", srv.Requests(), w.all())
			}
			if ae.kind() != tc.kind {
				t.Errorf("kind %d, want %d", ae.kind(), tc.kind)
			}
			en, zh := Hint(err).In("en"), Hint(err).In("zh")
			if en == "" || zh == "" || en == zh {
				t.Errorf("hints en %q zh %q", en, zh)
			}
		})
	}
}

func TestMalformedRetriedLimited(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithScript(fakeai.Malformed))
	c, _ := newTestClient(t, testEndpoint(srv))
	if _, err := c.Complete(context.Background(), ask("q")); err != nil {
		t.Fatalf("one malformed body then success: %v", err)
	}
	if srv.Requests() != 2 {
		t.Errorf("requests %d, want 2", srv.Requests())
	}

	srv = fakeai.New(t, fakeai.WithScript(fakeai.Malformed, fakeai.Malformed, fakeai.Malformed, fakeai.Malformed))
	c, _ = newTestClient(t, testEndpoint(srv))
	_, err := c.Complete(context.Background(), ask("q"))
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("err = %v, want ErrMalformed", err)
	}
	if srv.Requests() != 1+maxMalformed {
		t.Errorf("requests %d, want %d", srv.Requests(), 1+maxMalformed)
	}
}

func TestUnusableReplies(t *testing.T) {
	cases := []struct {
		fault fakeai.Fault
		want  error
		raw   string
	}{
		{fakeai.EmptyChoices, ErrEmptyReply, ""},
		{fakeai.NullContent, ErrEmptyReply, ""},
		{fakeai.Truncated, ErrTruncated, "Sco"},
	}
	for _, tc := range cases {
		t.Run(tc.fault.String(), func(t *testing.T) {
			srv := fakeai.New(t, fakeai.WithScript(tc.fault))
			c, _ := newTestClient(t, testEndpoint(srv))
			r, err := c.Complete(context.Background(), ask("q"))
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if r.Raw != tc.raw || srv.Requests() != 1 {
				t.Errorf("raw %q requests %d", r.Raw, srv.Requests())
			}
			if s := c.Meter().Stats(); s.Unusable != 1 || s.Failures != 1 {
				t.Errorf("meter %+v", s)
			}
		})
	}
	// Thinking and nothing else is an empty answer too.
	srv := fakeai.New(t, fakeai.WithResponder(func(fakeai.ChatRequest) fakeai.Response {
		return fakeai.Response{Content: "<think>Score: 3</think>\n"}
	}))
	c, _ := newTestClient(t, testEndpoint(srv))
	r, err := c.Complete(context.Background(), ask("q"))
	if !errors.Is(err, ErrEmptyReply) || r.Reasoning != "Score: 3" {
		t.Errorf("err %v reasoning %q", err, r.Reasoning)
	}
}

func TestReasoningKeptApart(t *testing.T) {
	const thought = "The answer looks weak. Score: 1"
	for _, f := range []fakeai.Fault{fakeai.Think, fakeai.OrphanThink, fakeai.Reasoning, fakeai.ReasoningContent} {
		t.Run(f.String(), func(t *testing.T) {
			srv := fakeai.New(t, fakeai.WithScript(f))
			c, _ := newTestClient(t, testEndpoint(srv))
			req := ask("q " + f.String())
			r, err := c.Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("Score: %d", fakeai.Score(fakeMsgs(req)))
			if r.Content != want || r.Reasoning != thought {
				t.Errorf("content %q reasoning %q; want %q / %q", r.Content, r.Reasoning, want, thought)
			}
			if (f == fakeai.Think || f == fakeai.OrphanThink) != strings.Contains(r.Raw, "</think>") {
				t.Errorf("raw %q", r.Raw)
			}
		})
	}
}

func TestStripThink(t *testing.T) {
	cases := []struct{ in, answer, thinking string }{
		{"Score: 7", "Score: 7", ""},
		{"<think>hmm 3</think>Score: 7", "Score: 7", "hmm 3"},
		{"<think>a</think>x<think>b</think> Score: 7 ", "x Score: 7", "a\nb"},
		{"reasoning 2</think>\n\nScore: 7", "Score: 7", "reasoning 2"},
		{"a</think>b</think>Score: 7", "Score: 7", "a</think>b"},
		{"<think>never closed, Score: 2", "", "never closed, Score: 2"},
		{"Score: 7 <think>afterthought", "Score: 7", "afterthought"},
		{"", "", ""},
	}
	for _, tc := range cases {
		a, th := StripThink(tc.in)
		if a != tc.answer || th != tc.thinking {
			t.Errorf("StripThink(%q) = %q, %q; want %q, %q", tc.in, a, th, tc.answer, tc.thinking)
		}
	}
}

func TestConcurrencyLimit(t *testing.T) {
	const limit, calls = 3, 24
	var mu sync.Mutex
	arrived := 0
	gate := make(chan struct{})
	srv := fakeai.New(t, fakeai.WithResponder(func(req fakeai.ChatRequest) fakeai.Response {
		// Hold the first requests until `limit` are in flight together, so
		// the high-water mark reaches the limit without relying on timing;
		// a client that let more through would push it past.
		mu.Lock()
		arrived++
		if arrived == limit {
			close(gate)
		}
		mu.Unlock()
		select {
		case <-gate:
		case <-time.After(5 * time.Second):
		}
		return fakeai.DefaultResponse(req)
	}))
	ep := testEndpoint(srv)
	ep.Concurrency = limit
	c, _ := newTestClient(t, ep)
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for i := range calls {
		wg.Go(func() {
			_, err := c.Complete(context.Background(), ask(fmt.Sprint("q", i)))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.MaxConcurrent(); got != limit {
		t.Errorf("high-water mark %d, want %d", got, limit)
	}
	if srv.Requests() != calls || srv.Repeats() != 0 {
		t.Errorf("requests %d repeats %d", srv.Requests(), srv.Repeats())
	}
}

func TestRPMSpacing(t *testing.T) {
	srv := fakeai.New(t)
	ep := testEndpoint(srv)
	ep.RPM = 120 // one start every 500 ms
	c, w := newTestClient(t, ep)
	for i := range 5 {
		if _, err := c.Complete(context.Background(), ask(fmt.Sprint("q", i))); err != nil {
			t.Fatal(err)
		}
	}
	got := w.all()
	if len(got) != 4 {
		t.Fatalf("waits %v, want four of 500ms", got)
	}
	for _, d := range got {
		if d != 500*time.Millisecond {
			t.Errorf("waits %v, want four of 500ms", got)
			break
		}
	}
	// After a quiet spell longer than the interval, the next call starts at once.
	w.mu.Lock()
	w.clock = w.clock.Add(time.Minute)
	w.mu.Unlock()
	if _, err := c.Complete(context.Background(), ask("later")); err != nil {
		t.Fatal(err)
	}
	if n := len(w.all()); n != 4 {
		t.Errorf("waited after a quiet spell: %v", w.all())
	}
}

func TestRateLimiterConcurrentSlots(t *testing.T) {
	w := &waits{clock: epoch}
	l := newRateLimiter(600, w.now, func(ctx context.Context, d time.Duration) error {
		// Record only: many goroutines reserve slots at the same instant.
		w.mu.Lock()
		w.d = append(w.d, d)
		w.mu.Unlock()
		return nil
	})
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() { l.wait(context.Background()) })
	}
	wg.Wait()
	seen := map[time.Duration]bool{}
	for _, d := range w.all() {
		seen[d] = true
	}
	// Slots at 0 (no wait), 100 ms, …, 900 ms: nine distinct waits.
	for k := 1; k <= 9; k++ {
		if !seen[time.Duration(k)*100*time.Millisecond] {
			t.Errorf("no slot at %d00ms: %v", k, w.all())
		}
	}
	if len(w.all()) != 9 {
		t.Errorf("waits %v", w.all())
	}
}

func TestKeyNeverInErrors(t *testing.T) {
	const key = "sk-test-9f8e7d6c5b4a"
	srv := fakeai.New(t, fakeai.WithAPIKey("a-different-key"))
	ep := testEndpoint(srv)
	ep.APIKeyEnv = "CUBE_TEST_LLM_KEY"
	t.Setenv(ep.APIKeyEnv, key)
	c, _ := newTestClient(t, ep)
	_, err := c.Complete(context.Background(), ask("q"))
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 401 {
		t.Fatalf("err = %v, want 401", err)
	}
	if got := srv.Chats()[0].Auth; got != "Bearer "+key {
		t.Fatalf("the key was not sent as a Bearer token: %q", got)
	}
	for _, text := range []string{err.Error(), ae.Message, fmt.Sprintf("%+v", err), Hint(err).In("en")} {
		if strings.Contains(text, key) {
			t.Errorf("key leaked: %q", text)
		}
	}
	if !strings.Contains(ae.Message, "[redacted]") {
		t.Errorf("server echo not redacted: %q", ae.Message)
	}
	_, _, err = c.Embed(context.Background(), []string{"x"})
	if err == nil || strings.Contains(err.Error(), key) {
		t.Errorf("embed err %v", err)
	}

	t.Setenv(ep.APIKeyEnv, "")
	_, err = New(ep)
	if !errors.Is(err, ErrNoKey) || !strings.Contains(err.Error(), ep.APIKeyEnv) {
		t.Errorf("empty key variable: %v", err)
	}
	// A key from the keyring goes the same way.
	srv2 := fakeai.New(t, fakeai.WithAPIKey(key))
	c2, _ := newTestClient(t, testEndpoint(srv2), WithAPIKey(key))
	if _, err := c2.Complete(context.Background(), ask("q")); err != nil {
		t.Errorf("WithAPIKey: %v", err)
	}
}

func TestBudget(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithResponder(func(fakeai.ChatRequest) fakeai.Response {
		return fakeai.Response{Content: "Score: 5"} // 8 completion tokens
	}))
	ep := testEndpoint(srv)
	ep.PriceInPerMTok, ep.PriceOutPerMTok = 1000, 2000
	c, _ := newTestClient(t, ep, WithBudget(0.05))
	one := func(s string) Request { return Request{Messages: []Message{{Role: "user", Content: s}}} }
	// Each call: 4 prompt tokens · 1000/1e6 + 8 completion · 2000/1e6 = 0.02.
	for _, q := range []string{"abcd", "efgh"} {
		if _, err := c.Complete(context.Background(), one(q)); err != nil {
			t.Fatal(err)
		}
	}
	// 0.04 spent; the next call would bring it to 0.06 > 0.05.
	_, err := c.Complete(context.Background(), one("ijkl"))
	if !errors.Is(err, ErrBudgetExceeded) {
		t.Fatalf("err = %v, want ErrBudgetExceeded", err)
	}
	if srv.Requests() != 2 {
		t.Errorf("requests %d, want 2", srv.Requests())
	}
	s := c.Meter().Stats()
	if s.Calls != 2 || s.PromptTokens != 8 || s.CompletionTokens != 16 || !s.Priced || fmt.Sprintf("%.4f", s.Cost) != "0.0400" {
		t.Errorf("meter %+v", s)
	}
}

func TestSharedMeter(t *testing.T) {
	srv := fakeai.New(t)
	m := &Meter{}
	a, _ := newTestClient(t, testEndpoint(srv), WithMeter(m))
	b, _ := newTestClient(t, testEndpoint(srv), WithMeter(m))
	a.Complete(context.Background(), ask("1"))
	b.Complete(context.Background(), ask("2"))
	if s := m.Stats(); s.Calls != 2 || s.Priced || s.Cost != 0 {
		t.Errorf("shared meter %+v", s)
	}
}

func TestCancellation(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithScript(fakeai.Slow, fakeai.Slow))
	ep := testEndpoint(srv)
	ep.Timeout, ep.Concurrency = time.Minute, 1
	c, err := New(ep) // real sleeps: cancellation must cut them short
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	go func() { _, err := c.Complete(ctx, ask("in flight")); done <- err }()
	for srv.Requests() == 0 {
		time.Sleep(time.Millisecond)
	}
	// The second call waits for the only concurrency slot.
	go func() { _, err := c.Complete(ctx, ask("queued")); done <- err }()
	cancel()
	for range 2 {
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Complete did not return after cancel")
		}
	}
	if srv.Requests() != 1 {
		t.Errorf("requests %d, want 1", srv.Requests())
	}
}

func TestThinkingSwitchFallback(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithResponder(func(req fakeai.ChatRequest) fakeai.Response {
		if req.ReasoningEffort != nil {
			return fakeai.Response{Status: 400, ErrorType: "invalid_request_error",
				ErrorMessage: `invalid reasoning value: 'none' (must be "high", "medium", or "low")`}
		}
		return fakeai.DefaultResponse(req)
	}))
	ep := testEndpoint(srv)
	ep.Provider = ProviderOllama
	c, _ := newTestClient(t, ep)
	for i := range 2 {
		if _, err := c.Complete(context.Background(), ask(fmt.Sprint("q", i))); err != nil {
			t.Fatal(err)
		}
	}
	chats := srv.Chats()
	if len(chats) != 3 || !chats[0].Has("reasoning_effort") || chats[1].Has("reasoning_effort") || chats[2].Has("reasoning_effort") {
		t.Errorf("want switch, retry without, then without: %d requests", len(chats))
	}
}

func TestEmbed(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithEmbedDim(8), fakeai.WithScript(fakeai.Unavailable))
	c, w := newTestClient(t, testEndpoint(srv))
	texts := make([]string, EmbedBatch*2+5)
	for i := range texts {
		texts[i] = fmt.Sprintf("文本 %d", i)
	}
	vecs, u, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vecs), len(texts))
	}
	for i, v := range vecs {
		want := fakeai.Vector(texts[i], 8)
		if fmt.Sprint(v) != fmt.Sprint(want) {
			t.Fatalf("vector %d = %v, want %v", i, v, want)
		}
	}
	reqs := srv.Embeddings()
	// 3 batches plus the one 503 retried.
	if len(reqs) != 4 || len(w.all()) != 1 || reqs[0].EncodingFormat != "float" {
		t.Errorf("%d embedding requests, sleeps %v", len(reqs), w.all())
	}
	wantTokens := 0
	for _, s := range texts {
		wantTokens += len([]rune(s))
	}
	if u.PromptTokens != wantTokens {
		t.Errorf("usage %d, want %d", u.PromptTokens, wantTokens)
	}
	if v, _, err := c.Embed(context.Background(), nil); err != nil || len(v) != 0 || srv.Requests() != 4 {
		t.Errorf("empty input: %v %v", v, err)
	}
}

func TestDecodeEmbeddings(t *testing.T) {
	// [1, -2.5] as little-endian float32: 0000803f 000020c0.
	b64 := `{"data":[{"index":1,"embedding":"AACAPwAAIMA="},{"index":0,"embedding":[0.5,0.25]}],"usage":{"prompt_tokens":3}}`
	v, u, err := decodeEmbeddings([]byte(b64), 2)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(v) != "[[0.5 0.25] [1 -2.5]]" || u.PromptTokens != 3 {
		t.Errorf("got %v %+v", v, u)
	}
	if _, _, err := decodeEmbeddings([]byte(`{"data":[{"index":0,"embedding":[1]}]}`), 2); !errors.Is(err, ErrEmptyReply) {
		t.Errorf("short data: %v", err)
	}
	if _, _, err := decodeEmbeddings([]byte(`{"data":[{"index":0,"embedding":"@@"}]}`), 1); !errors.Is(err, errMalformed) {
		t.Errorf("bad base64: %v", err)
	}
}

func TestTestConnection(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithResponder(func(fakeai.ChatRequest) fakeai.Response { return fakeai.Response{Content: "OK"} }))
	got, err := TestConnection(context.Background(), testEndpoint(srv))
	if err != nil || got != "OK" {
		t.Errorf("got %q, %v", got, err)
	}

	dead := fakeai.New(t, fakeai.WithDieAfter(1, fakeai.DieRefuse))
	ep := testEndpoint(dead)
	if _, err := TestConnection(context.Background(), ep); err != nil {
		t.Fatalf("first request should pass: %v", err)
	}
	_, err = TestConnection(context.Background(), ep, WithSleep(func(context.Context, time.Duration) error { return nil }))
	if err == nil || Hint(err).In("zh") != connHint.ZH {
		t.Errorf("dead endpoint: err %v hint %q", err, Hint(err).In("zh"))
	}

	srv404 := fakeai.New(t, fakeai.WithScript(fakeai.NotFound))
	_, err = TestConnection(context.Background(), testEndpoint(srv404))
	if Hint(err).In("en") != hints[kindModel].EN {
		t.Errorf("404 hint %q", Hint(err).In("en"))
	}
}

func TestModels(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithModels("qwen2.5:32b", "all-minilm"))
	c, _ := newTestClient(t, testEndpoint(srv))
	got, err := c.Models(context.Background())
	if err != nil || strings.Join(got, ",") != "qwen2.5:32b,all-minilm" {
		t.Errorf("models %v, %v", got, err)
	}
}

func TestNewValidates(t *testing.T) {
	for _, ep := range []Endpoint{
		{Model: "m"},
		{BaseURL: "http://x/v1"},
		{BaseURL: "ftp://x/v1", Model: "m"},
		{BaseURL: "localhost:11434", Model: "m"},
	} {
		if _, err := New(ep); err == nil {
			t.Errorf("New(%+v) accepted", ep)
		}
	}
	c, err := New(Endpoint{BaseURL: "https://r.openai.azure.com/openai/deployments/d/?api-version=2024-10-21", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if c.chatURL != "https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21" || c.ep.Provider != ProviderAzure {
		t.Errorf("chat URL %q provider %q", c.chatURL, c.ep.Provider)
	}
	if c.ep.Concurrency != DefaultConcurrency || c.ep.MaxRetries != DefaultMaxRetries || c.ep.Name != "m" {
		t.Errorf("defaults %+v", c.ep)
	}
}

func TestAzureKeyHeader(t *testing.T) {
	const key = "azure-key-123"
	srv := fakeai.New(t, fakeai.WithAPIKey(key))
	ep := testEndpoint(srv)
	ep.Provider = ProviderAzure
	c, _ := newTestClient(t, ep, WithAPIKey(key))
	if _, err := c.Complete(context.Background(), ask("q")); err != nil {
		t.Fatal(err)
	}
	if srv.Chats()[0].Auth != "" {
		t.Errorf("Azure got a Bearer header")
	}
}

func TestErrorBodies(t *testing.T) {
	cases := []struct {
		body          string
		code, message string
	}{
		{`{"error":{"message":"m1","type":"invalid_request_error","param":null,"code":"invalid_parameter_error"},"request_id":"x"}`, "invalid_parameter_error", "m1"},
		{`{"object":"error","message":"m2","type":"BadRequestError","param":null,"code":400}`, "400", "m2"},
		{`{"error":{"code":400,"type":"exceed_context_size_error","message":"m3","n_prompt_tokens":5000,"n_ctx":4096}}`, "400", "m3"},
		{`{"error":"m4"}`, "", "m4"},
		{`<html>bad gateway</html>`, "", "<html>bad gateway</html>"},
		{``, "", "Bad Gateway"},
	}
	for _, tc := range cases {
		e := parseAPIError(502, []byte(tc.body))
		if e.Code != tc.code || e.Message != tc.message {
			t.Errorf("parse %s: code %q message %q", tc.body, e.Code, e.Message)
		}
	}
}

func TestRetryAfterParse(t *testing.T) {
	cases := []struct {
		ms, ra string
		want   time.Duration
	}{
		{"", "", -1},
		{"", "3", 3 * time.Second},
		{"", "0.5", 500 * time.Millisecond},
		{"250", "9", 250 * time.Millisecond},
		{"", epoch.Add(4 * time.Second).Format(http.TimeFormat), 4 * time.Second},
		{"", epoch.Add(-4 * time.Second).Format(http.TimeFormat), 0},
		{"", "86400", maxRetryAfter},
		{"", "soon", -1},
	}
	for _, tc := range cases {
		h := http.Header{}
		if tc.ms != "" {
			h.Set("retry-after-ms", tc.ms)
		}
		if tc.ra != "" {
			h.Set("Retry-After", tc.ra)
		}
		if got := retryAfter(h, epoch); got != tc.want {
			t.Errorf("ms %q ra %q: %v, want %v", tc.ms, tc.ra, got, tc.want)
		}
	}
}

func TestDetectProvider(t *testing.T) {
	cases := map[string]string{
		"http://127.0.0.1:11434/v1":                         ProviderOllama,
		"http://gpu01:8000/v1":                              ProviderVLLM,
		"http://localhost:8080/v1":                          ProviderLlamaCpp,
		"http://localhost:1234/v1":                          ProviderLMStudio,
		"https://api.deepseek.com":                          ProviderDeepSeek,
		"https://dashscope.aliyuncs.com/compatible-mode/v1": ProviderDashScope,
		"https://api.openai.com/v1":                         ProviderOpenAI,
		"https://x.openai.azure.com/openai/v1":              ProviderAzure,
		"http://10.0.0.5:9000/v1":                           ProviderGeneric,
	}
	for u, want := range cases {
		if got := DetectProvider(u); got != want {
			t.Errorf("%s: %q, want %q", u, got, want)
		}
	}
}

func TestEstimate(t *testing.T) {
	ep := Endpoint{PriceInPerMTok: 2, PriceOutPerMTok: 8}
	got := Estimate(ep, 6111*4, 1500, 20)
	// 24444 calls · 1500 = 36 666 000 prompt tokens → 73.332; · 20 = 488 880 → 3.91104.
	if got.PromptTokens != 36666000 || got.CompletionTokens != 488880 || !got.Priced ||
		fmt.Sprintf("%.5f", got.Cost) != "77.24304" {
		t.Errorf("estimate %+v", got)
	}
	if free := Estimate(Endpoint{}, 10, 100, 10); free.Priced || free.Cost != 0 {
		t.Errorf("unpriced %+v", free)
	}
}

func TestReplyJSONRoundTrip(t *testing.T) {
	// The run store persists Reply as JSON: new fields must survive.
	r := Reply{Content: "Score: 5", Raw: "<think>x</think>Score: 5", Attempts: 2, Usage: Usage{3, 4}}
	b, _ := json.Marshal(r)
	var back Reply
	if err := json.Unmarshal(b, &back); err != nil || back != r {
		t.Errorf("round trip %+v → %s → %+v", r, b, back)
	}
}
