package fakeai

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"
)

// Message is one chat message as the client sent it.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatRequest is a decoded /v1/chat/completions body. Pointer fields are nil
// when the field was absent from the JSON, so tests can tell "temperature 0"
// from "no temperature".
type ChatRequest struct {
	Model              string         `json:"model"`
	Messages           []Message      `json:"messages"`
	Temperature        *float64       `json:"temperature"`
	Seed               *int           `json:"seed"`
	MaxTokens          *int           `json:"max_tokens"`
	Stream             bool           `json:"stream"`
	ResponseFormat     map[string]any `json:"response_format"`
	EnableThinking     *bool          `json:"enable_thinking"`
	ChatTemplateKwargs map[string]any `json:"chat_template_kwargs"`
	Thinking           map[string]any `json:"thinking"`
	ReasoningEffort    *string        `json:"reasoning_effort"`

	// Fields holds every top-level field exactly as sent.
	Fields map[string]json.RawMessage `json:"-"`
	// Body is the raw request body.
	Body []byte `json:"-"`
	// Auth is the Authorization header ("" when absent).
	Auth string `json:"-"`
	// N is the 1-based arrival number among all recorded requests.
	N int `json:"-"`
}

// Has reports whether the top-level field was present in the body.
func (r ChatRequest) Has(field string) bool { _, ok := r.Fields[field]; return ok }

// EmbeddingRequest is a decoded /v1/embeddings body.
type EmbeddingRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"-"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions"`
	Body           []byte   `json:"-"`
	N              int      `json:"-"`
}

// Response is what the responder wants sent back for one chat request.
type Response struct {
	Content          string
	NullContent      bool   // send "content": null
	Reasoning        string // message.reasoning (Ollama, new vLLM)
	ReasoningContent string // message.reasoning_content (DeepSeek, DashScope, old vLLM)
	FinishReason     string // "" → "stop"
	NoChoices        bool   // "choices": []
	PromptTokens     int    // 0 → counted from the messages
	CompletionTokens int    // 0 → counted from the content
	NoUsage          bool   // omit "usage"

	Status       int // 0 → 200; any other status sends an OpenAI-shaped error body
	ErrorCode    string
	ErrorType    string
	ErrorMessage string
	Header       map[string]string
	RawBody      string        // sent verbatim instead of a JSON reply when non-empty
	Delay        time.Duration // wait before answering, or until the client hangs up
	Hangup       bool          // close the connection without any response
}

// Fault is one kind of misbehaviour a real endpoint shows.
type Fault int

// Faults. Transport faults (RateLimited … Hangup) apply to chat and
// embeddings; reply faults (EmptyChoices …) only to chat.
const (
	None             Fault = iota
	RateLimited            // 429 with Retry-After (WithRetryAfter)
	RateLimitedMs          // 429 with retry-after-ms (WithRetryAfterMs)
	ServerError            // 500
	Unavailable            // 503 "server busy"
	BadRequest             // 400 invalid_request_error
	Unauthorized           // 401 invalid_api_key
	NotFound               // 404 model not found
	Slow                   // waits SlowDelay (or until the client gives up)
	Malformed              // 200 with a truncated JSON body
	Hangup                 // connection closed with no response
	EmptyChoices           // 200 with "choices": []
	NullContent            // content null
	Garbage                // text with no score in it
	OutOfRange             // "Score: 11"
	Think                  // "<think>Score: 1</think>" before the normal content
	OrphanThink            // "thinking…</think>" before the normal content (opening tag eaten by the template)
	Reasoning              // message.reasoning set besides the normal content
	ReasoningContent       // message.reasoning_content set besides the normal content
	Truncated              // finish_reason "length"
)

var faultNames = [...]string{"none", "429", "429-ms", "500", "503", "400", "401", "404", "slow",
	"malformed", "hangup", "empty-choices", "null-content", "garbage", "score-11", "think",
	"orphan-think", "reasoning", "reasoning_content", "length"}

func (f Fault) String() string {
	if int(f) < len(faultNames) {
		return faultNames[f]
	}
	return fmt.Sprintf("fault(%d)", int(f))
}

// DieMode is how the server behaves once it has died.
type DieMode int

const (
	// DieRefuse closes the listener: new connections are refused and
	// requests on kept-alive connections get the connection closed.
	DieRefuse DieMode = iota
	// Die503 answers 503 to everything.
	Die503
)

// Server is the fake endpoint. All methods are safe for concurrent use.
type Server struct {
	ts *httptest.Server

	mu           sync.Mutex
	respond      func(ChatRequest) Response
	script       []Fault
	rates        []faultRate
	rng          *rand.Rand
	latency      time.Duration
	slow         time.Duration
	retryAfter   string
	retryAfterMs string
	dieAfter     int // 0 = never
	dieMode      DieMode
	died         bool
	apiKey       string
	embedDim     int
	models       []string

	chats    []ChatRequest
	embeds   []EmbeddingRequest
	counts   map[[32]byte]int
	total    int
	inflight int
	high     int
}

type faultRate struct {
	f Fault
	p float64
}

// Option configures a Server.
type Option func(*Server)

// WithResponder replaces the default deterministic responder.
func WithResponder(f func(ChatRequest) Response) Option { return func(s *Server) { s.respond = f } }

// WithScript makes the first requests (in arrival order) misbehave as listed;
// None passes a request through unchanged.
func WithScript(faults ...Fault) Option {
	return func(s *Server) { s.script = append(s.script, faults...) }
}

// WithFaultRates injects faults at random with the given probabilities,
// drawn from an RNG seeded with seed (after the script is used up).
func WithFaultRates(seed uint64, rates map[Fault]float64) Option {
	return func(s *Server) { s.setRates(seed, rates) }
}

// WithLatency delays every chat and embeddings reply by d.
func WithLatency(d time.Duration) Option { return func(s *Server) { s.latency = d } }

// WithSlowDelay sets how long a Slow fault waits (default 30 s).
func WithSlowDelay(d time.Duration) Option { return func(s *Server) { s.slow = d } }

// WithRetryAfter sets the Retry-After header of RateLimited (default "1").
func WithRetryAfter(v string) Option { return func(s *Server) { s.retryAfter = v } }

// WithRetryAfterMs sets the retry-after-ms header of RateLimitedMs (default "1500").
func WithRetryAfterMs(v string) Option { return func(s *Server) { s.retryAfterMs = v } }

// WithAPIKey makes the server demand this key (Bearer or api-key header).
// A wrong key gets a 401 whose message echoes the key it received, the way
// some servers do, so tests can check the client redacts it.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// WithEmbedDim sets the embedding dimension (default 16) when the request
// does not ask for one.
func WithEmbedDim(d int) Option { return func(s *Server) { s.embedDim = d } }

// WithModels sets what /v1/models lists (default "fake-model").
func WithModels(names ...string) Option { return func(s *Server) { s.models = names } }

// WithDieAfter makes the server die after n requests (see DieMode).
func WithDieAfter(n int, mode DieMode) Option {
	return func(s *Server) { s.dieAfter, s.dieMode = n, mode }
}

// New starts a server that is closed when the test ends.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := NewServer(opts...)
	t.Cleanup(s.Close)
	return s
}

// NewServer starts a server; the caller must Close it.
func NewServer(opts ...Option) *Server {
	s := &Server{
		respond:      DefaultResponse,
		slow:         30 * time.Second,
		retryAfter:   "1",
		retryAfterMs: "1500",
		embedDim:     16,
		models:       []string{"fake-model"},
		counts:       map[[32]byte]int{},
	}
	for _, o := range opts {
		o(s)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	mux.HandleFunc("POST /v1/embeddings", s.handleEmbeddings)
	mux.HandleFunc("GET /v1/models", s.handleModels)
	s.ts = httptest.NewServer(mux)
	return s
}

// URL is the base URL including /v1, as a profile's base_url would be.
func (s *Server) URL() string { return s.ts.URL + "/v1" }

// Close shuts the server down.
func (s *Server) Close() { s.ts.Close() }

// SetResponder replaces the responder.
func (s *Server) SetResponder(f func(ChatRequest) Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = f
}

// Script appends faults for the next requests.
func (s *Server) Script(faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, faults...)
}

// SetFaultRates replaces the random fault rates.
func (s *Server) SetFaultRates(seed uint64, rates map[Fault]float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setRates(seed, rates)
}

func (s *Server) setRates(seed uint64, rates map[Fault]float64) {
	s.rates = s.rates[:0]
	for f, p := range rates {
		s.rates = append(s.rates, faultRate{f, p})
	}
	// Map order is random; sort so one seed gives one sequence.
	sort.Slice(s.rates, func(i, j int) bool { return s.rates[i].f < s.rates[j].f })
	s.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// SetLatency changes the per-request latency.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// DieAfter makes the server die once it has seen n requests in total.
func (s *Server) DieAfter(n int, mode DieMode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dieAfter, s.dieMode = n, mode
}

// Requests counts chat and embeddings requests received, failed ones included.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// Chats returns every chat request decoded so far, in arrival order.
func (s *Server) Chats() []ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ChatRequest(nil), s.chats...)
}

// Embeddings returns every embeddings request decoded so far.
func (s *Server) Embeddings() []EmbeddingRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]EmbeddingRequest(nil), s.embeds...)
}

// Repeats counts requests whose exact body had been seen before: 0 means no
// request was ever sent twice.
func (s *Server) Repeats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.counts {
		n += c - 1
	}
	return n
}

// Distinct counts distinct request bodies.
func (s *Server) Distinct() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.counts)
}

// MaxConcurrent is the highest number of requests in flight at once.
func (s *Server) MaxConcurrent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.high
}

// admit records a request and decides its fault. It returns dead=true when
// the server has died.
func (s *Server) admit(body []byte) (n int, f Fault, latency time.Duration, dead bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total++
	n = s.total
	s.counts[sha256.Sum256(body)]++
	if s.dieAfter > 0 && n > s.dieAfter {
		if s.dieMode == DieRefuse && !s.died {
			s.died = true
			// Closing the listener refuses new connections; requests that
			// arrive on kept-alive ones are hung up on by the caller. The
			// close is synchronous: this request's client sees its hang-up
			// only after the listener is gone, so its next dial is refused
			// rather than accepted by a listener a goroutine has yet to close.
			s.ts.Listener.Close()
		}
		return n, None, 0, true
	}
	switch {
	case len(s.script) > 0:
		f, s.script = s.script[0], s.script[1:]
	case len(s.rates) > 0:
		x := s.rng.Float64()
		for _, r := range s.rates {
			if x < r.p {
				f = r.f
				break
			}
			x -= r.p
		}
	}
	s.inflight++
	s.high = max(s.high, s.inflight)
	return n, f, s.latency, false
}

func (s *Server) done() {
	s.mu.Lock()
	s.inflight--
	s.mu.Unlock()
}

func (s *Server) dead(w http.ResponseWriter) {
	s.mu.Lock()
	mode := s.dieMode
	s.mu.Unlock()
	if mode == Die503 {
		writeError(w, http.StatusServiceUnavailable, "server_error", "", "server is down")
		return
	}
	hangup(w)
}

func (s *Server) authorized(r *http.Request) (bool, string) {
	s.mu.Lock()
	key := s.apiKey
	s.mu.Unlock()
	if key == "" {
		return true, ""
	}
	got := r.Header.Get("api-key")
	if a := r.Header.Get("Authorization"); len(a) > 7 && a[:7] == "Bearer " {
		got = a[7:]
	}
	return got == key, got
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	n, fault, latency, dead := s.admit(body)
	if dead {
		s.dead(w)
		return
	}
	defer s.done()

	var req ChatRequest
	decodeErr := json.Unmarshal(body, &req)
	if decodeErr == nil {
		decodeErr = json.Unmarshal(body, &req.Fields)
	}
	req.Body, req.Auth, req.N = body, r.Header.Get("Authorization"), n
	s.mu.Lock()
	s.chats = append(s.chats, req)
	respond := s.respond
	s.mu.Unlock()

	if !s.admitted(w, r, latency) {
		return
	}
	if decodeErr != nil {
		writeError(w, http.StatusBadRequest, "", "invalid_request_error", "invalid JSON body: "+decodeErr.Error())
		return
	}
	resp := s.applyFault(fault, respond(req))
	s.write(w, r, req, resp)
}

func (s *Server) applyFault(f Fault, resp Response) Response {
	s.mu.Lock()
	ra, ram, slow := s.retryAfter, s.retryAfterMs, s.slow
	s.mu.Unlock()
	switch f {
	case RateLimited:
		return Response{Status: 429, ErrorCode: "rate_limit_exceeded", ErrorType: "requests",
			ErrorMessage: "Rate limit reached", Header: map[string]string{"Retry-After": ra}}
	case RateLimitedMs:
		return Response{Status: 429, ErrorCode: "rate_limit_exceeded", ErrorType: "requests",
			ErrorMessage: "Rate limit reached", Header: map[string]string{"retry-after-ms": ram}}
	case ServerError:
		return Response{Status: 500, ErrorType: "api_error", ErrorMessage: "internal error"}
	case Unavailable:
		return Response{Status: 503, ErrorType: "api_error", ErrorMessage: "server busy, please try again"}
	case BadRequest:
		return Response{Status: 400, ErrorType: "invalid_request_error", ErrorMessage: "invalid parameter"}
	case Unauthorized:
		return Response{Status: 401, ErrorCode: "invalid_api_key", ErrorType: "invalid_request_error",
			ErrorMessage: "Incorrect API key provided"}
	case NotFound:
		return Response{Status: 404, ErrorCode: "model_not_found", ErrorType: "not_found_error",
			ErrorMessage: "model \"fake-model\" not found, try pulling it first"}
	case Slow:
		resp.Delay = slow
	case Malformed:
		resp.RawBody = `{"id":"chatcmpl-fake","object":"chat.completion","choices":[{"index":0,"message":{"role":"assist`
	case Hangup:
		resp.Hangup = true
	case EmptyChoices:
		resp.NoChoices = true
	case NullContent:
		resp.NullContent = true
	case Garbage:
		resp.Content = "I am not able to rate this answer."
	case OutOfRange:
		resp.Content = "Score: 11"
	case Think:
		resp.Content = "<think>The answer looks weak. Score: 1</think>\n" + resp.Content
	case OrphanThink:
		resp.Content = "The answer looks weak. Score: 1</think>\n\n" + resp.Content
	case Reasoning:
		resp.Reasoning = "The answer looks weak. Score: 1"
	case ReasoningContent:
		resp.ReasoningContent = "The answer looks weak. Score: 1"
	case Truncated:
		resp.FinishReason = "length"
		if r := []rune(resp.Content); len(r) > 3 {
			resp.Content = string(r[:3])
		}
	}
	return resp
}

type wireMessage struct {
	Role             string  `json:"role"`
	Content          *string `json:"content"`
	Reasoning        string  `json:"reasoning,omitempty"`
	ReasoningContent string  `json:"reasoning_content,omitempty"`
}

type wireChoice struct {
	Index        int         `json:"index"`
	Message      wireMessage `json:"message"`
	FinishReason string      `json:"finish_reason"`
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type wireReply struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage,omitempty"`
}

// admitted waits the configured latency and checks the key, as every route
// does before reading its request; false means the reply is already written.
func (s *Server) admitted(w http.ResponseWriter, r *http.Request, latency time.Duration) bool {
	if !sleep(r.Context(), latency) {
		return false
	}
	if ok, got := s.authorized(r); !ok {
		writeError(w, http.StatusUnauthorized, "invalid_api_key", "invalid_request_error",
			"Incorrect API key provided: "+got)
		return false
	}
	return true
}

// prelude applies what chat and embeddings replies share — the delay, a
// hang-up, extra headers, an error status — and reports whether a JSON
// body should follow.
func prelude(w http.ResponseWriter, r *http.Request, resp Response) bool {
	if !sleep(r.Context(), resp.Delay) {
		return false
	}
	if resp.Hangup {
		hangup(w)
		return false
	}
	for k, v := range resp.Header {
		w.Header().Set(k, v)
	}
	if resp.Status != 0 && resp.Status != http.StatusOK {
		writeError(w, resp.Status, resp.ErrorCode, resp.ErrorType, resp.ErrorMessage)
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	return true
}

func (s *Server) write(w http.ResponseWriter, r *http.Request, req ChatRequest, resp Response) {
	if !prelude(w, r, resp) {
		return
	}
	if resp.RawBody != "" {
		io.WriteString(w, resp.RawBody)
		return
	}
	reply := wireReply{ID: fmt.Sprintf("chatcmpl-fake-%d", req.N), Object: "chat.completion",
		Created: 1700000000, Model: req.Model, Choices: []wireChoice{}}
	if !resp.NoChoices {
		msg := wireMessage{Role: "assistant", Reasoning: resp.Reasoning, ReasoningContent: resp.ReasoningContent}
		if !resp.NullContent {
			c := resp.Content
			msg.Content = &c
		}
		fr := resp.FinishReason
		if fr == "" {
			fr = "stop"
		}
		reply.Choices = append(reply.Choices, wireChoice{Message: msg, FinishReason: fr})
	}
	if !resp.NoUsage {
		u := wireUsage{PromptTokens: resp.PromptTokens, CompletionTokens: resp.CompletionTokens}
		if u.PromptTokens == 0 {
			u.PromptTokens = PromptTokens(req.Messages)
		}
		if u.CompletionTokens == 0 {
			u.CompletionTokens = len([]rune(resp.Content)) + len([]rune(resp.Reasoning+resp.ReasoningContent))
		}
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
		reply.Usage = &u
	}
	json.NewEncoder(w).Encode(reply)
}

// PromptTokens is the fake's token count for a prompt: one per rune of
// content, which is close to real tokenizers for Chinese text.
func PromptTokens(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += len([]rune(m.Content))
	}
	return n
}

func writeError(w http.ResponseWriter, status int, code, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var c any
	if code != "" {
		c = code
	}
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": typ, "param": nil, "code": c}})
}

func hangup(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("fakeai: response writer cannot hijack")
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		conn.Close()
	}
}

// sleep waits d or until ctx ends; false means the client went away.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	names := append([]string(nil), s.models...)
	s.mu.Unlock()
	data := make([]map[string]any, len(names))
	for i, n := range names {
		data[i] = map[string]any{"id": n, "object": "model", "created": 1700000000, "owned_by": "fakeai"}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
}
