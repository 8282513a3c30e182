package engine

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
)

// stall_seconds and total_timeout_seconds reach the client; unset, the
// client's defaults (60 s without a byte, ten minutes a request) apply.
func TestStallSettingsReachTheClient(t *testing.T) {
	p, err := profile.Parse([]byte("[[judge]]\nname = \"j\"\nbase_url = \"http://127.0.0.1:11434/v1\"\nmodel = \"m\"\nstall_seconds = 5\ntotal_timeout_seconds = 90\n\n[[judge]]\nname = \"k\"\nbase_url = \"http://127.0.0.1:11434/v1\"\nmodel = \"m\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	ep := LLMEndpoint(p.Judges[0], "j", p.Judges[0].BaseURL)
	if ep.StallTimeout != 5*time.Second || ep.TotalTimeout != 90*time.Second {
		t.Errorf("endpoint %+v", ep)
	}
	c, err := llm.New(LLMEndpoint(p.Judges[1], "k", p.Judges[1].BaseURL))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Endpoint(); got.StallTimeout != llm.DefaultStallTimeout || got.TotalTimeout != llm.DefaultTotalTimeout {
		t.Errorf("defaults %v %v", got.StallTimeout, got.TotalTimeout)
	}
}

// server = "auto" (the default) makes the client ask the server once; a
// named server is taken as said; an unknown one is refused by name.
func TestServerSetting(t *testing.T) {
	base := "[[judge]]\nname = \"j\"\nbase_url = \"http://10.0.0.9:9999/v1\"\nmodel = \"m\"\n"
	for setting, want := range map[string]string{"": llm.ProviderAuto, "server = \"ollama\"\n": llm.ProviderOllama, "server = \"vLLM\"\n": llm.ProviderVLLM} {
		p, err := profile.Parse([]byte(base + setting))
		if err != nil {
			t.Fatal(err)
		}
		if got := LLMEndpoint(p.Judges[0], "j", p.Judges[0].BaseURL).Provider; got != want {
			t.Errorf("%q: provider %q, want %q", setting, got, want)
		}
	}
	if _, err := profile.Parse([]byte(base + "server = \"olama\"\n")); err == nil || !strings.Contains(err.Error(), "olama") {
		t.Errorf("a misspelt server: %v", err)
	}
}

// A judge that stalls mid-reply is named in the progress as soon as its
// first request gives up, not only in the problems at the end.
func TestStallingJudgeNamedInProgress(t *testing.T) {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"评`)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	defer func() { close(done); srv.Close() }()
	wb := buildWorkbook(3)
	p := testProfile(profile.Endpoint{Name: "slow-judge", BaseURL: srv.URL + "/v1", Model: "m", StallSec: 1, MaxRetries: -1, Concurrency: 2})
	var mu sync.Mutex
	var msgs []string
	progress := ProgressFunc(func(e Event) {
		if e.Message != "" {
			mu.Lock()
			msgs = append(msgs, e.Message)
			mu.Unlock()
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Stop the run once the stall was said (the assertion is on the
		// message, not on how long it took).
		for ctx.Err() == nil {
			mu.Lock()
			said := len(msgs) > 0
			mu.Unlock()
			if said {
				cancel()
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	Run(ctx, wb, Options{Profile: p, Store: openStore(t, ""), Progress: progress})
	mu.Lock()
	defer mu.Unlock()
	named := 0
	for _, m := range msgs {
		if strings.Contains(m, "slow-judge") && (strings.Contains(m, "stalls") || strings.Contains(m, "卡住")) {
			named++
		}
	}
	if named != 1 {
		t.Fatalf("progress messages %q: want the stalling judge named once", msgs)
	}
}
