package batch

import (
	"bufio"
	"context"
	"cubeworkbench/core/result"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
)

// Recorder is a Completer that sends nothing: it records each request in
// the store as pending and answers llm.ErrDeferred. Wrapped by the store's
// cache, it is asked only for requests the store has no reply to.
type Recorder struct {
	s     *store.Store
	model string

	mu       sync.Mutex
	deferred map[string]bool
}

// NewRecorder records requests for one model.
func NewRecorder(s *store.Store, model string) *Recorder {
	return &Recorder{s: s, model: model, deferred: map[string]bool{}}
}

// Model is the endpoint model the requests are for.
func (r *Recorder) Model() string { return r.model }

// Complete records the request and defers it.
func (r *Recorder) Complete(ctx context.Context, req llm.Request) (llm.Reply, error) {
	key := llm.RequestKey(r.model, req)
	if err := r.s.PutPending(ctx, key, r.model, req); err != nil {
		return llm.Reply{}, err
	}
	r.mu.Lock()
	r.deferred[key] = true
	r.mu.Unlock()
	return llm.Reply{}, llm.ErrDeferred
}

// Deferred reports whether the request with this key was deferred.
func (r *Recorder) Deferred(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.deferred[key]
}

// Count is the number of distinct requests deferred.
func (r *Recorder) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.deferred)
}

// ChatURL is the batch line's url, the one path both OpenAI's Batch API and
// vLLM's run-batch accept for chat.
const ChatURL = "/v1/chat/completions"

type inputLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// Export writes every pending request without a reply as one JSONL line and
// returns how many it wrote. Each body is built by llm.ChatBody, the builder
// live calls use, for the endpoint among eps that serves the request's
// model: a batch asks exactly what a live call would, thinking switch
// included (a Qwen3 batch on vLLM must not think while live judging does
// not). A model no endpoint names gets the generic body (no switch).
func Export(ctx context.Context, s *store.Store, w io.Writer, eps ...llm.Endpoint) (int, error) {
	pending, err := s.PendingRequests(ctx)
	if err != nil {
		return 0, err
	}
	byModel := map[string]llm.Endpoint{}
	for _, ep := range eps {
		if _, seen := byModel[ep.Model]; !seen {
			byModel[ep.Model] = ep
		}
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, p := range pending {
		ep, ok := byModel[p.Model]
		if !ok {
			ep = llm.Endpoint{Model: p.Model}
		}
		body, err := llm.ChatBody(ep, p.Request)
		if err != nil {
			return 0, fmt.Errorf("batch: export: %w", err)
		}
		if err := enc.Encode(inputLine{CustomID: p.Key, Method: "POST", URL: ChatURL, Body: body}); err != nil {
			return 0, fmt.Errorf("batch: export: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return 0, fmt.Errorf("batch: export: %w", err)
	}
	return len(pending), nil
}

// Failure is one result line that carried no usable reply (result's type:
// the front ends read it through core/session).
type Failure = result.BatchFailure

// Report says what an import did (result.BatchReport).
type Report = result.BatchReport

type outputLine struct {
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error json.RawMessage `json:"error"`
}

// Import reads an OpenAI or vLLM batch result file and stores every usable
// reply under its custom_id. Importing the same file again changes nothing.
func Import(ctx context.Context, s *store.Store, r io.Reader) (Report, error) {
	var rep Report
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	line := 0
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		rep.Lines++
		var out outputLine
		if err := json.Unmarshal([]byte(text), &out); err != nil || out.CustomID == "" {
			rep.Malformed++
			rep.Failures = append(rep.Failures, Failure{Line: line, Reason: "not a batch result line"})
			continue
		}
		if seen[out.CustomID] {
			rep.Duplicates++
			continue
		}
		seen[out.CustomID] = true
		if _, stored, err := s.GetReply(ctx, out.CustomID); err != nil {
			return rep, err
		} else if stored {
			rep.AlreadyStored++
			continue
		}
		p, ok, err := s.PendingRequest(ctx, out.CustomID)
		if err != nil {
			return rep, err
		}
		if !ok {
			rep.Unknown++
			rep.Failures = append(rep.Failures, Failure{Line: line, Key: out.CustomID, Reason: "unknown custom_id: this store never deferred it"})
			continue
		}
		if reason := lineError(out); reason != "" {
			rep.Failed++
			rep.Failures = append(rep.Failures, Failure{Line: line, Key: out.CustomID, Reason: reason})
			continue
		}
		reply, err := llm.DecodeChat(out.Response.Body)
		if err != nil {
			rep.Failed++
			rep.Failures = append(rep.Failures, Failure{Line: line, Key: out.CustomID, Reason: err.Error()})
			continue
		}
		if err := s.PutReply(ctx, out.CustomID, p.Model, p.Request, reply); err != nil {
			return rep, err
		}
		rep.Imported++
	}
	if err := sc.Err(); err != nil {
		return rep, fmt.Errorf("batch: import: %w", err)
	}
	still, err := s.PendingRequests(ctx)
	if err != nil {
		return rep, err
	}
	for _, p := range still {
		rep.StillPending = append(rep.StillPending, p.Key)
	}
	sort.Strings(rep.StillPending)
	return rep, nil
}

// lineError explains a result line that failed: OpenAI's error object
// ({code, message}), vLLM's plain string (make_error_request_output) or its
// ErrorResponse, which since the nested-error change of
// vllm/entrypoints/openai/protocol.py serialises as {"error": {message,
// type, param, code}} inside the line's "error"; or an HTTP status other
// than 200 with the server's error body. Every shape becomes one readable
// line: status, code or type, message.
func lineError(out outputLine) string {
	status := 0
	if out.Response != nil {
		status = out.Response.StatusCode
	}
	if len(out.Error) > 0 && string(out.Error) != "null" {
		var s string
		if json.Unmarshal(out.Error, &s) == nil {
			return httpsafe.Redact(s)
		}
		return readable(status, out.Error)
	}
	if out.Response == nil {
		return "no response"
	}
	if out.Response.StatusCode != 200 {
		return readable(out.Response.StatusCode, out.Response.Body)
	}
	if len(out.Response.Body) == 0 || string(out.Response.Body) == "null" {
		return "empty body"
	}
	return ""
}

// readable renders an error object of any of the shapes above.
func readable(status int, raw json.RawMessage) string {
	ae := llm.ParseAPIError(status, raw)
	var b strings.Builder
	if status != 0 {
		fmt.Fprintf(&b, "HTTP %d", status)
	}
	label := ae.Code
	if ae.Type != "" && (label == "" || label == fmt.Sprint(status)) {
		label = ae.Type
	}
	if label != "" {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "(%s)", label)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(ae.Message)
	return httpsafe.Redact(b.String())
}

// ErrNothingPending is returned by callers that expected work to export.
var ErrNothingPending = errors.New("batch: nothing is pending")

// Prepare runs an evaluation with recorders in place of every LLM endpoint
// (judges and generator) and writes what they deferred to out as batch
// JSONL. It returns the number of requests written. Bound answers come
// before their judgements, so a batch evaluation takes two rounds of
// Prepare and Import; a third Prepare writes nothing.
func Prepare(ctx context.Context, wb *dataset.Workbook, opt engine.Options, out io.Writer) (int, error) {
	var mu sync.Mutex
	var recorders []*Recorder
	var eps []llm.Endpoint
	opt.NewCompleter = func(ep profile.Endpoint) (llm.Completer, error) {
		r := NewRecorder(opt.Store, ep.Model)
		mu.Lock()
		recorders = append(recorders, r)
		eps = append(eps, liveEndpoint(ep))
		mu.Unlock()
		return r, nil
	}
	opt.Deferred = func(key string) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, r := range recorders {
			if r.Deferred(key) {
				return true
			}
		}
		return false
	}
	if _, err := engine.Run(ctx, wb, opt); err != nil {
		return 0, err
	}
	return Export(ctx, opt.Store, out, eps...)
}

// liveEndpoint is the llm.Endpoint the engine's live client gets for ep
// (engine.LLMEndpoint, the one conversion), so the provider and its
// thinking switch are resolved as for a live call.
func liveEndpoint(ep profile.Endpoint) llm.Endpoint {
	base := ep.BaseURL
	if base == "" && len(ep.BaseURLs) > 0 {
		base = ep.BaseURLs[0] // replicas serve one model behind one provider
	}
	return engine.LLMEndpoint(ep, ep.Name, base)
}
