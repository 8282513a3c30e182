package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ollama0123InvalidThink is the exact reply of Ollama v0.12.3 to
// reasoning_effort "none" on /v1/chat/completions: ChatMiddleware
// (openai/openai.go) hands the effort on as api.ThinkValue, ChatHandler's
// ShouldBindJSON fails in ThinkValue.UnmarshalJSON (api/types.go line 933)
// and aborts with 400 {"error": …}; ChatWriter.writeError re-wraps it with
// NewError(http.StatusInternalServerError, …), so the status stays 400, the
// type is "api_error", and param and code are null.
const ollama0123InvalidThink = `{"error":{"message":"invalid think value: \"none\" (must be \"high\", \"medium\", \"low\", true, or false)","type":"api_error","param":null,"code":null}}`

// 32 requests in flight at once, all built with the think switch before the
// first refusal came back: one adaptation for the endpoint, every request
// re-sent without the switch and answered, none counted as failed or
// retried (the engine's "failed N times in a row" cut-off never sees them).
func TestOllamaRefusalAtConcurrency32(t *testing.T) {
	const n = 32
	var withSwitch atomic.Int64
	arrived := make(chan struct{}, n)
	release := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &body)
		w.Header().Set("Content-Type", "application/json")
		if _, ok := body["reasoning_effort"]; ok {
			withSwitch.Add(1)
			arrived <- struct{}{}
			<-release // hold every switched request until all are on the wire
			w.WriteHeader(400)
			io.WriteString(w, ollama0123InvalidThink)
			return
		}
		io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"qwen3:8b","system_fingerprint":"fp_ollama","choices":[{"index":0,"message":{"role":"assistant","content":"评分：7"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}`)
	}))
	defer srv.Close()
	go func() {
		// Release when all n switched requests are in, or after a generous
		// bound on a loaded machine (the assertions hold either way).
		deadline := time.After(20 * time.Second)
		for i := 0; i < n; i++ {
			select {
			case <-arrived:
			case <-deadline:
				i = n
			}
		}
		once.Do(func() { close(release) })
	}()
	defer once.Do(func() { close(release) })

	ep := Endpoint{Name: "ollama", BaseURL: srv.URL + "/v1", Model: "qwen3:8b", Provider: ProviderOllama,
		Concurrency: n, Timeout: time.Minute, MaxRetries: 2}
	c, _ := newTestClient(t, ep)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Complete(context.Background(), ask(fmt.Sprint("q", i))); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	failed := 0
	for err := range errs {
		failed++
		if failed == 1 {
			t.Errorf("a request built before the refusal failed: %v", err)
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d requests failed", failed, n)
	}
	if ad := c.Adaptations(); len(ad) != 1 || ad[0].Param != "thinking switch" {
		t.Errorf("adaptations %+v, want the switch dropped once", ad)
	}
	st := c.Meter().Stats()
	if st.Failures != 0 || st.Retries != 0 {
		t.Errorf("re-sends counted as failures or retries: %+v", st)
	}
	if got := withSwitch.Load(); got > n {
		t.Errorf("%d requests carried the switch, want at most the %d in flight", got, n)
	}
	// After the adaptation new requests are built without the switch.
	before := withSwitch.Load()
	if _, err := c.Complete(context.Background(), ask("later")); err != nil || withSwitch.Load() != before {
		t.Errorf("a later request: %v, switch sent again: %v", err, withSwitch.Load() != before)
	}
}
