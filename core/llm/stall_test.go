package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// stallingServer answers 200, sends half a chat body, flushes, then sends
// nothing until the client gives up.
func stallingServer(t *testing.T, hits *atomic.Int64) *httptest.Server {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"评分`)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv
}

// No bytes for StallTimeout aborts the attempt with ErrStalled naming the
// endpoint; a stall is tried once more, then the request ends with it.
func TestStallAbortsTheAttempt(t *testing.T) {
	var hits atomic.Int64
	srv := stallingServer(t, &hits)
	ep := Endpoint{Name: "judge-slow", BaseURL: srv.URL + "/v1", Model: "m", MaxRetries: 2,
		Timeout: 10 * time.Minute, StallTimeout: 50 * time.Millisecond, TotalTimeout: 10 * time.Minute}
	c, _ := newTestClient(t, ep)
	_, err := c.Complete(context.Background(), ask("q"))
	if !errors.Is(err, ErrStalled) || !strings.Contains(err.Error(), "judge-slow") {
		t.Fatalf("err = %v, want ErrStalled naming the endpoint", err)
	}
	if hits.Load() != 2 {
		t.Errorf("%d attempts, want 2: a stall is tried once more, not max_retries times", hits.Load())
	}
	if h := Hint(err).In("zh"); !strings.Contains(h, "没有") {
		t.Errorf("hint %q", h)
	}
}

// However the attempts go, the request as a whole gives up after
// TotalTimeout with ErrGaveUp, never a context error a caller would take
// for its own cancellation.
func TestTotalTimeoutBoundsTheRequest(t *testing.T) {
	var hits atomic.Int64
	srv := stallingServer(t, &hits)
	ep := Endpoint{Name: "judge-slow", BaseURL: srv.URL + "/v1", Model: "m", MaxRetries: 1000,
		Timeout: 10 * time.Minute, StallTimeout: 10 * time.Minute, TotalTimeout: 100 * time.Millisecond}
	c, _ := newTestClient(t, ep)
	_, err := c.Complete(context.Background(), ask("q"))
	if !errors.Is(err, ErrGaveUp) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrGaveUp", err)
	}
	if !strings.Contains(err.Error(), "judge-slow") {
		t.Errorf("err %v does not name the endpoint", err)
	}
}

func TestStallDefaults(t *testing.T) {
	ep := Endpoint{BaseURL: "http://x/v1", Model: "m"}.withDefaults()
	if ep.StallTimeout != DefaultStallTimeout || DefaultStallTimeout != 60*time.Second || ep.TotalTimeout <= ep.Timeout {
		t.Errorf("defaults: stall %v total %v timeout %v", ep.StallTimeout, ep.TotalTimeout, ep.Timeout)
	}
}

// A judge that echoes its request headers in a successful reply: the key
// is gone from Content, Raw and Reasoning before anyone stores or shows it.
func TestSuccessfulReplyRedacted(t *testing.T) {
	t.Setenv("ECHO_KEY", "sk-echo-5e4d3c2b1a09f8e7")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"评分：7（收到的头：`+auth+`）","reasoning":"key `+strings.TrimPrefix(auth, "Bearer ")+`"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	defer srv.Close()
	c, _ := newTestClient(t, Endpoint{Name: "echo", BaseURL: srv.URL + "/v1", Model: "m", APIKeyEnv: "ECHO_KEY"})
	rep, err := c.Complete(context.Background(), ask("q"))
	if err != nil {
		t.Fatal(err)
	}
	all := rep.Content + rep.Raw + rep.Reasoning
	if strings.Contains(all, "5e4d3c2b1a09f8e7") || !strings.Contains(rep.Content, "评分：7") {
		t.Fatalf("reply %+v", rep)
	}
}
