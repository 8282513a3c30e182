package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"cubeworkbench/core/httpsafe"
	"cubeworkbench/internal/fakeai"
)

// TestReplyCap: a body past MaxReplyBytes is ErrReplyTooLarge after one
// attempt (not a "malformed" reply retried three times, as the old silent
// 64 MiB cut made it); a larger configured cap lets it through.
func TestReplyCap(t *testing.T) {
	huge := strings.Repeat("评", (DefaultMaxReplyBytes+1024)/3)
	srv := fakeai.New(t, fakeai.WithResponder(func(req fakeai.ChatRequest) fakeai.Response {
		return fakeai.Response{Content: huge}
	}))
	cases := []struct {
		name  string
		limit int64
		ok    bool
	}{
		{"default cap refuses", 0, false},
		{"configured larger cap accepts", 16 << 20, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ep := testEndpoint(srv)
			ep.MaxReplyBytes = c.limit
			cl, _ := newTestClient(t, ep)
			before := srv.Requests()
			rep, err := cl.Complete(context.Background(), ask("q"))
			if c.ok {
				if err != nil || len(rep.Content) != len(huge) {
					t.Fatalf("err %v, %d bytes", err, len(rep.Content))
				}
				return
			}
			if !errors.Is(err, ErrReplyTooLarge) || !strings.Contains(err.Error(), "max_reply_bytes") {
				t.Fatalf("err = %v, want ErrReplyTooLarge naming max_reply_bytes", err)
			}
			if n := srv.Requests() - before; n != 1 {
				t.Fatalf("%d attempts, want 1: the same request gets the same body", n)
			}
			if Hint(err).In("zh") == "" {
				t.Fatal("no hint for the cut")
			}
		})
	}
}

// TestBackoffReleasesSlot: with two slots, a request sleeping its backoff
// after a 500 must not hold a slot: two other requests are on the wire at
// once meanwhile. The old client slept inside its slot, so the second one
// could never arrive and the barrier below was never reached.
func TestBackoffReleasesSlot(t *testing.T) {
	var mu sync.Mutex
	arrived := 0
	both := make(chan struct{})
	failedOnce := false
	srv := fakeai.New(t, fakeai.WithResponder(func(req fakeai.ChatRequest) fakeai.Response {
		q := req.Messages[len(req.Messages)-1].Content
		mu.Lock()
		if q == "A" && !failedOnce {
			failedOnce = true
			mu.Unlock()
			return fakeai.Response{Status: 500, ErrorType: "api_error", ErrorMessage: "internal error"}
		}
		if q != "A" {
			arrived++
			if arrived == 2 {
				close(both)
			}
		}
		mu.Unlock()
		if q != "A" {
			select {
			case <-both:
			case <-time.After(30 * time.Second): // only reached when the slot is held: the failure
				return fakeai.Response{Status: 599, ErrorMessage: "only one request got a slot"}
			}
		}
		return fakeai.DefaultResponse(req)
	}))
	ep := testEndpoint(srv)
	ep.Concurrency = 2
	sleeping := make(chan struct{})
	wake := make(chan struct{})
	c, err := New(ep, WithSleep(func(ctx context.Context, d time.Duration) error {
		close(sleeping)
		<-wake
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 3)
	go func() { _, err := c.Complete(context.Background(), ask("A")); errs <- err }()
	<-sleeping // A has had its 500 and is backing off
	for _, q := range []string{"B", "C"} {
		go func() { _, err := c.Complete(context.Background(), ask(q)); errs <- err }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(wake)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if st := c.Meter().Stats(); st.Attempts != 4 || st.Replies != 4 || st.Calls != 3 || st.Retries != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// TestAttemptsAndReplies: the meter counts the HTTP requests the server saw
// apart from the calls and from the replies that came back.
func TestAttemptsAndReplies(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithScript(fakeai.ServerError, fakeai.RateLimited, fakeai.Hangup, fakeai.None))
	c, w := newTestClient(t, testEndpoint(srv))
	rep, err := c.Complete(context.Background(), ask("q"))
	if err != nil {
		t.Fatal(err)
	}
	st := c.Meter().Stats()
	want := Stats{Calls: 1, Retries: 3, Attempts: 4, Replies: 3, Throttled: 1}
	got := Stats{Calls: st.Calls, Retries: st.Retries, Attempts: st.Attempts, Replies: st.Replies, Throttled: st.Throttled}
	if got != want || rep.Attempts != 4 || int64(srv.Requests()) != st.Attempts {
		t.Fatalf("got %+v (reply attempts %d, server saw %d), want %+v", got, rep.Attempts, srv.Requests(), want)
	}
	if ws := w.all(); len(ws) != 3 || ws[1] != time.Second {
		t.Fatalf("waits %v: want backoff, Retry-After 1s, backoff", ws)
	}
}

// TestGateAIMD: 429s lower the limit by a quarter at most once per
// Retry-After; successes raise it by one per window, up to the configured
// concurrency.
func TestGateAIMD(t *testing.T) {
	now := epoch
	g := newGate(32, func() time.Time { return now })
	g.throttled(time.Second)
	g.throttled(time.Second) // the same burst
	if got := g.current(); got != 24 {
		t.Fatalf("after a burst of 429s: %d, want 24", got)
	}
	now = now.Add(1500 * time.Millisecond)
	g.throttled(0)
	if got := g.current(); got != 18 {
		t.Fatalf("after the second signal: %d, want 18", got)
	}
	for range 18 {
		g.succeeded()
	}
	if got := g.current(); got != 18 {
		t.Fatalf("after one window: %d, want 18 (one slot grows back over a whole window)", got)
	}
	for range 2000 {
		g.succeeded()
	}
	if got := g.current(); got != 32 {
		t.Fatalf("recovered to %d, want the configured 32", got)
	}
	for range 40 {
		now = now.Add(2 * time.Second)
		g.throttled(time.Second)
	}
	if got := g.current(); got != 1 {
		t.Fatalf("floor %d, want 1", got)
	}
}

// TestGateBlocksAtLimit: the lowered limit is enforced, waiters are served
// in order, and a cancelled waiter leaves no slot behind.
func TestGateBlocksAtLimit(t *testing.T) {
	g := newGate(2, time.Now)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if err := g.acquire(ctx); err != nil {
			t.Fatalf("slot %d: %v", i+1, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	got := make(chan error, 1)
	go func() { got <- g.acquire(cctx) }()
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
	g.release()
	if err := g.acquire(ctx); err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	inflight := g.inflight
	g.mu.Unlock()
	if inflight != 2 {
		t.Fatalf("inflight %d, want 2", inflight)
	}
}

// TestThrottleLowersConcurrency: a 429 from the endpoint lowers the
// client's concurrency; the waiting request then succeeds.
func TestThrottleLowersConcurrency(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithScript(fakeai.RateLimited))
	ep := testEndpoint(srv)
	ep.Concurrency = 8
	c, _ := newTestClient(t, ep)
	if _, err := c.Complete(context.Background(), ask("q")); err != nil {
		t.Fatal(err)
	}
	if got := c.CurrentConcurrency(); got != 6 {
		t.Fatalf("concurrency after a 429: %d, want 6", got)
	}
}

// ollamaInvalidThink is the 400 Ollama v0.11.5 … v0.12.3 send for
// reasoning_effort "none": openai/openai.go ChatMiddleware passes the
// effort on as api.ThinkValue, whose UnmarshalJSON (api/types.go, v0.12.3
// line 933) refuses every string but high/medium/low with exactly this
// text; ChatHandler answers 400 {"error": …} and the middleware's
// writeError re-wraps it with openai.NewError(500, …), hence type
// "api_error" under status 400, param and code null.
const ollamaInvalidThink = `invalid think value: "none" (must be "high", "medium", "low", true, or false)`

func TestOllamaInvalidThinkValue(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithResponder(func(req fakeai.ChatRequest) fakeai.Response {
		if req.ReasoningEffort != nil && *req.ReasoningEffort == "none" {
			return fakeai.Response{Status: 400, ErrorType: "api_error", ErrorMessage: ollamaInvalidThink}
		}
		return fakeai.DefaultResponse(req)
	}))
	ep := testEndpoint(srv)
	ep.Provider = ProviderOllama
	c, _ := newTestClient(t, ep)
	for i := range 3 {
		if _, err := c.Complete(context.Background(), ask(fmt.Sprint("q", i))); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	chats := srv.Chats()
	if len(chats) != 4 || !chats[0].Has("reasoning_effort") || chats[1].Has("reasoning_effort") || chats[3].Has("reasoning_effort") {
		t.Fatalf("%d requests: want the switch once, then never again", len(chats))
	}
	ad := c.Adaptations()
	if len(ad) != 1 || ad[0].Param != "thinking switch" || ad[0].Server != ollamaInvalidThink || ad[0].ZH == "" {
		t.Fatalf("adaptations %+v", ad)
	}
	if st := c.Meter().Stats(); st.Retries != 0 || st.Attempts != 4 || st.Adapted != 1 {
		t.Fatalf("a re-send after a refusal is not a retry: %+v", st)
	}
}

// openAIError writes the 400 the OpenAI API sends for a parameter a model
// refuses: {"error":{"message","type","param","code"}} as in the Error
// schema of openai/openai-openapi (openapi.yaml, components.schemas.Error),
// with the messages gpt-5 and o-series models return (quoted verbatim in
// openai-python and SDK bug reports, 2024–2026).
func openAIError(w http.ResponseWriter, param, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(400)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": param, "code": code}})
}

// gpt5 mimics a reasoning model on the chat completions route: it refuses
// max_tokens and any temperature but 1, one complaint at a time.
func gpt5(t *testing.T) (*httptest.Server, *[]map[string]any) {
	var mu sync.Mutex
	var seen []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &body)
		mu.Lock()
		seen = append(seen, body)
		mu.Unlock()
		if _, ok := body["max_tokens"]; ok {
			openAIError(w, "max_tokens", "unsupported_parameter",
				"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
			return
		}
		if temp, ok := body["temperature"]; ok && temp != 1.0 {
			openAIError(w, "temperature", "unsupported_value",
				fmt.Sprintf("Unsupported value: 'temperature' does not support %v with this model. Only the default (1) value is supported.", temp))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-5-mini","choices":[{"index":0,"message":{"role":"assistant","content":"Score: 4"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

func TestOpenAIParameterAdaptations(t *testing.T) {
	srv, seen := gpt5(t)
	c, _ := newTestClient(t, Endpoint{Name: "gpt5", BaseURL: srv.URL + "/v1", Model: "gpt-5-mini", Provider: ProviderOpenAI})
	req := ask("q")
	req.MaxTokens = 256
	for i := range 2 {
		rep, err := c.Complete(context.Background(), req)
		if err != nil || rep.Content != "Score: 4" {
			t.Fatalf("call %d: %v %q", i, err, rep.Content)
		}
	}
	if len(*seen) != 4 {
		t.Fatalf("%d requests, want 3 for the first call and 1 for the second", len(*seen))
	}
	last := (*seen)[3]
	if _, has := last["max_tokens"]; has || last["max_completion_tokens"] != 256.0 {
		t.Fatalf("remembered body %v", last)
	}
	if _, has := last["temperature"]; has {
		t.Fatalf("temperature still sent: %v", last)
	}
	ad := c.Adaptations()
	if len(ad) != 2 || ad[0].Param != "max_tokens" || ad[1].Param != "temperature" || ad[1].Endpoint != "gpt5" {
		t.Fatalf("adaptations %+v", ad)
	}
	body, _ := c.ChatBody(req)
	if !bytes.Equal(body, mustJSON(t, last)) {
		t.Fatalf("ChatBody %s is not what was sent %s", body, mustJSON(t, last))
	}
}

func mustJSON(t *testing.T, v map[string]any) []byte {
	t.Helper()
	// Re-encode the body the client sent through a wireRequest so field
	// order matches; numbers come back as float64.
	var w wireRequest
	b, _ := json.Marshal(v)
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(w)
	return out
}

// TestOpenAIRealErrorNotAdapted: a 400 that names no refused parameter is
// an ordinary error, sent once.
func TestOpenAIRealErrorNotAdapted(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		openAIError(w, "messages", "invalid_value", "Invalid value for 'messages'.")
	}))
	defer srv.Close()
	c, _ := newTestClient(t, Endpoint{BaseURL: srv.URL + "/v1", Model: "gpt-5", Provider: ProviderOpenAI})
	if _, err := c.Complete(context.Background(), ask("q")); err == nil || n != 1 || len(c.Adaptations()) != 0 {
		t.Fatalf("err %v, %d requests, %d adaptations", err, n, len(c.Adaptations()))
	}
}

// TestCrossHostRedirectRefused: a 307 from the judge's host to another one
// is not followed (the old client followed it and scored that host's
// reply), is not retried, and says what to do; allow_redirects follows it.
func TestCrossHostRedirectRefused(t *testing.T) {
	other := fakeai.New(t)
	otherURL := strings.Replace(other.URL(), "127.0.0.1", "localhost", 1)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+"/chat/completions", http.StatusTemporaryRedirect)
	}))
	defer origin.Close()
	ep := Endpoint{BaseURL: origin.URL + "/v1", Model: "fake-model"}
	c, _ := newTestClient(t, ep)
	_, err := c.Complete(context.Background(), ask("q"))
	if !errors.Is(err, httpsafe.ErrCrossHostRedirect) || other.Requests() != 0 {
		t.Fatalf("err = %v, other host saw %d requests", err, other.Requests())
	}
	if st := c.Meter().Stats(); st.Attempts != 1 {
		t.Fatalf("%d attempts, want 1", st.Attempts)
	}
	if !strings.Contains(Hint(err).In("en"), "allow_redirects") {
		t.Fatalf("hint %q", Hint(err).In("en"))
	}
	ep.AllowRedirects = true
	c2, _ := newTestClient(t, ep)
	if _, err := c2.Complete(context.Background(), ask("q")); err != nil || other.Requests() != 1 {
		t.Fatalf("allowed redirect: %v, %d", err, other.Requests())
	}
}

// TestURLSecretsNeverInErrors: a base_url with a password and a ?key= is
// used, but neither shows in a connection error (Go's url.Error prints the
// query string).
func TestURLSecretsNeverInErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens: connection refused
	ep := Endpoint{BaseURL: "http://user:PASSWORD123@" + addr + "/v1?key=QUERYKEY123", Model: "m", MaxRetries: -1}
	c, _ := newTestClient(t, ep)
	_, err = c.Complete(context.Background(), ask("q"))
	if err == nil {
		t.Fatal("no error")
	}
	for _, s := range []string{"PASSWORD123", "QUERYKEY123"} {
		if strings.Contains(err.Error(), s) {
			t.Fatalf("secret %s in %q", s, err)
		}
	}
	_, err = New(Endpoint{BaseURL: "ftp://user:PASSWORD123@h/v1", Model: "m"})
	if err == nil || strings.Contains(err.Error(), "PASSWORD123") {
		t.Fatalf("validation error %v", err)
	}
}

// TestOtherKeysRedacted: a judge whose server echoes another endpoint's key
// (registered when that endpoint's client was made) shows it redacted.
func TestOtherKeysRedacted(t *testing.T) {
	const targetKey = "ragflow-abcdef0123456789"
	httpsafe.Register(targetKey)
	srv := fakeai.New(t, fakeai.WithResponder(func(req fakeai.ChatRequest) fakeai.Response {
		return fakeai.Response{Status: 400, ErrorType: "invalid_request_error", ErrorMessage: "header Authorization: Bearer " + targetKey + " is not valid here"}
	}))
	c, _ := newTestClient(t, testEndpoint(srv))
	_, err := c.Complete(context.Background(), ask("q"))
	if err == nil || strings.Contains(err.Error(), targetKey) {
		t.Fatalf("err %v", err)
	}
}

// TestChatBodyIsTheWireBody: the exported body builder (batch export) gives
// byte for byte what the client sends, thinking switches included.
func TestChatBodyIsTheWireBody(t *testing.T) {
	for _, p := range []string{ProviderGeneric, ProviderOllama, ProviderVLLM, ProviderDashScope, ProviderDeepSeek, ProviderLlamaCpp, ProviderOpenAI} {
		t.Run(p, func(t *testing.T) {
			srv := fakeai.New(t)
			ep := testEndpoint(srv)
			ep.Provider = p
			seed := 7
			req := ask("q")
			req.Seed, req.MaxTokens, req.JSON = &seed, 64, true
			c, _ := newTestClient(t, ep)
			if _, err := c.Complete(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			body, err := ChatBody(ep, req)
			if err != nil {
				t.Fatal(err)
			}
			if sent := srv.Chats()[0].Body; !bytes.Equal(body, sent) {
				t.Fatalf("ChatBody %s\nsent     %s", body, sent)
			}
		})
	}
}
