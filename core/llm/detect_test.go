package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// server answers chat on /v1/chat/completions and, at the root, the
// version route of the server it plays: Ollama's GET /api/version
// (server/routes.go v0.12.3: {"version": version.Version}), vLLM's
// GET /version (vllm/entrypoints/openai/api_server.py show_version:
// {"version": VLLM_VERSION}), or neither. It records the chat bodies and
// the probes.
type probeServer struct {
	mu     sync.Mutex
	probes map[string]int
	bodies []map[string]any
}

func newProbeServer(t *testing.T, plays string) (*probeServer, string) {
	ps := &probeServer{probes: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		switch {
		case r.Method == "POST" && r.URL.Path == "/v1/chat/completions":
			var body map[string]any
			b, _ := io.ReadAll(r.Body)
			json.Unmarshal(b, &body)
			ps.bodies = append(ps.bodies, body)
			io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"评分：7"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
		case r.URL.Path == "/api/version" && plays == "ollama":
			ps.probes[r.URL.Path]++
			io.WriteString(w, `{"version":"0.12.3"}`)
		case r.URL.Path == "/version" && plays == "vllm":
			ps.probes[r.URL.Path]++
			io.WriteString(w, `{"version":"0.11.0"}`)
		default:
			ps.probes[r.URL.Path]++
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return ps, srv.URL + "/v1" // a random port: no port hint
}

func TestServerRecognisedByAsking(t *testing.T) {
	cases := []struct {
		plays, setting, wantField string
		wantProbes                bool
	}{
		{plays: "ollama", setting: ProviderAuto, wantField: "reasoning_effort", wantProbes: true},
		{plays: "vllm", setting: ProviderAuto, wantField: "chat_template_kwargs", wantProbes: true},
		{plays: "other", setting: ProviderAuto, wantProbes: true},
		{plays: "other", setting: ProviderOllama, wantField: "reasoning_effort"}, // said in the profile: not asked
	}
	for _, c := range cases {
		t.Run(c.plays+"/"+c.setting, func(t *testing.T) {
			ps, url := newProbeServer(t, c.plays)
			cl, _ := newTestClient(t, Endpoint{Name: "j", BaseURL: url, Model: "m", Provider: c.setting})
			for range 3 {
				if _, err := cl.Complete(context.Background(), ask("q")); err != nil {
					t.Fatal(err)
				}
			}
			ps.mu.Lock()
			defer ps.mu.Unlock()
			for _, b := range ps.bodies {
				for _, f := range []string{"reasoning_effort", "chat_template_kwargs"} {
					if _, has := b[f]; has != (f == c.wantField) {
						t.Errorf("body %v: %s present %v", b, f, has)
					}
				}
			}
			total := 0
			for path, n := range ps.probes {
				total += n
				if n > 1 {
					t.Errorf("%s asked %d times, want once per endpoint", path, n)
				}
			}
			if (total > 0) != c.wantProbes {
				t.Errorf("probes %v", ps.probes)
			}
		})
	}
}
