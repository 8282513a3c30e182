package batch

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/engine"
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
	CustomID string         `json:"custom_id"`
	Method   string         `json:"method"`
	URL      string         `json:"url"`
	Body     map[string]any `json:"body"`
}

// Export writes every pending request without a reply as one JSONL line and
// returns how many it wrote. Temperature is always in the body, 0 included.
func Export(ctx context.Context, s *store.Store, w io.Writer) (int, error) {
	pending, err := s.PendingRequests(ctx)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, p := range pending {
		body := map[string]any{"model": p.Model, "messages": p.Request.Messages, "temperature": p.Request.Temperature}
		if p.Request.Seed != nil {
			body["seed"] = *p.Request.Seed
		}
		if p.Request.MaxTokens > 0 {
			body["max_tokens"] = p.Request.MaxTokens
		}
		if p.Request.JSON {
			body["response_format"] = map[string]string{"type": "json_object"}
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

// Failure is one result line that carried no usable reply.
type Failure struct {
	Line   int
	Key    string
	Reason string
}

// Report says what an import did. Imported + AlreadyStored + Failed +
// Duplicates + Unknown + Malformed = Lines.
type Report struct {
	Lines         int
	Imported      int // replies written to the store
	AlreadyStored int // replies the store already held (a re-import)
	Failed        int // lines with an error or a non-200 status or an unusable body
	Duplicates    int // a custom_id seen earlier in the same file
	Unknown       int // a custom_id this store never deferred
	Malformed     int // lines that are not JSON of the result shape
	Failures      []Failure
	StillPending  []string // deferred requests that still have no reply
}

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

// lineError explains a result line that failed: OpenAI's error object, vLLM's
// plain string or ErrorResponse, or an HTTP status other than 200.
func lineError(out outputLine) string {
	if len(out.Error) > 0 && string(out.Error) != "null" {
		var s string
		if json.Unmarshal(out.Error, &s) == nil {
			return s
		}
		var obj struct {
			Code    any    `json:"code"`
			Message string `json:"message"`
		}
		if json.Unmarshal(out.Error, &obj) == nil && obj.Message != "" {
			return fmt.Sprintf("%v: %s", obj.Code, obj.Message)
		}
		return string(out.Error)
	}
	if out.Response == nil {
		return "no response"
	}
	if out.Response.StatusCode != 200 {
		return fmt.Sprintf("HTTP %d: %s", out.Response.StatusCode, snippet(out.Response.Body))
	}
	if len(out.Response.Body) == 0 || string(out.Response.Body) == "null" {
		return "empty body"
	}
	return ""
}

func snippet(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
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
	opt.NewCompleter = func(ep profile.Endpoint) (llm.Completer, error) {
		r := NewRecorder(opt.Store, ep.Model)
		mu.Lock()
		recorders = append(recorders, r)
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
	return Export(ctx, opt.Store, out)
}
