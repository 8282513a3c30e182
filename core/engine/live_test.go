package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"cubeworkbench/core/profile"
	"cubeworkbench/core/secret"
	"cubeworkbench/internal/fakeai"
)

// The run's summary counts what the servers saw — attempts, replies and
// 429s beside the calls — read from the live clients' meter.
func TestRunCountsAttemptsAndThrottles(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithRetryAfterMs("1"), fakeai.WithScript(fakeai.RateLimitedMs, fakeai.RateLimitedMs))
	wb := buildWorkbook(2)
	p := testProfile(profile.Endpoint{Name: "j", BaseURL: srv.URL(), Model: "m", Concurrency: 1})
	res, err := Run(context.Background(), wb, Options{Profile: p, Store: openStore(t, "")})
	if err != nil {
		t.Fatal(err)
	}
	run := res.Summary.Run
	if run.Calls == 0 || run.Attempts != srv.Requests() || run.Attempts != run.Calls+2 || run.Replies != run.Attempts || run.Throttled != 2 {
		t.Errorf("calls %d attempts %d replies %d throttled %d; the server saw %d requests, 2 of them answered 429",
			run.Calls, run.Attempts, run.Replies, run.Throttled, srv.Requests())
	}
}

// gpt5Judge refuses any temperature but 1, as OpenAI's reasoning models do
// (400 unsupported_value, param temperature; the message quoted verbatim
// in openai-python issues, 2025), then scores.
func gpt5Judge(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &body)
		w.Header().Set("Content-Type", "application/json")
		if temp, ok := body["temperature"]; ok && temp != 1.0 {
			w.WriteHeader(400)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
				"message": fmt.Sprintf("Unsupported value: 'temperature' does not support %v with this model. Only the default (1) value is supported.", temp),
				"type":    "invalid_request_error", "param": "temperature", "code": "unsupported_value"}})
			return
		}
		io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-5-mini","choices":[{"index":0,"message":{"role":"assistant","content":"Score: 7"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A parameter the endpoint refused and the client changed reaches the
// summary's run info, for the report's method notes.
func TestRunListsAdaptations(t *testing.T) {
	srv := gpt5Judge(t)
	p := testProfile(profile.Endpoint{Name: "gpt5", BaseURL: srv.URL + "/v1", Model: "gpt-5-mini", Concurrency: 1})
	res, err := Run(context.Background(), buildWorkbook(1), Options{Profile: p, Store: openStore(t, "")})
	if err != nil {
		t.Fatal(err)
	}
	ad := res.Summary.Run.Adaptations
	if len(ad) != 1 || ad[0].Endpoint != "gpt5" || ad[0].Param != "temperature" || ad[0].ZH == "" || ad[0].EN == "" {
		t.Errorf("adaptations %+v", ad)
	}
}

// A key typed in the window (core/secret, this session) is what the judge
// sends, ahead of the environment variable the profile names; it is in no
// file the run wrote.
func TestJudgeKeyFromSecretStore(t *testing.T) {
	const typed, env = "sk-typed-in-window-7c1e9a", "sk-from-environment-0b2f"
	t.Setenv("CUBE_TEST_JUDGE_KEY", env)
	cases := []struct {
		name, envVar string
		session      bool
		want         string
	}{
		{"typed key wins over the variable", "CUBE_TEST_JUDGE_KEY", true, typed},
		{"typed key without a variable", "", true, typed},
		{"the variable alone", "CUBE_TEST_JUDGE_KEY", false, env},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := secret.Judge("keyed")
			if c.session {
				if err := secret.Default().Set(ref, typed, secret.InMemory); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { secret.Default().Delete(ref) })
			}
			srv := fakeai.New(t, fakeai.WithAPIKey(c.want))
			p := testProfile(profile.Endpoint{Name: "keyed", BaseURL: srv.URL(), Model: "m", APIKeyEnv: c.envVar})
			st := openStore(t, "")
			res, err := Run(context.Background(), buildWorkbook(1), Options{Profile: p, Store: st})
			if err != nil {
				t.Fatal(err)
			}
			var once sync.Once
			for _, ch := range srv.Chats() {
				if ch.Auth != "Bearer "+c.want {
					once.Do(func() { t.Errorf("Authorization %q, want the %s key", ch.Auth, c.name) })
				}
			}
			if res.Summary.Run.Unscorable != 0 || len(srv.Chats()) == 0 {
				t.Errorf("%d unscorable of %d calls", res.Summary.Run.Unscorable, len(srv.Chats()))
			}
			summary, _ := json.Marshal(res.Summary)
			st.Close()
			db, err := os.ReadFile(st.Path())
			if err != nil {
				t.Fatal(err)
			}
			for what, data := range map[string]string{"store": string(db), "summary": string(summary)} {
				if strings.Contains(data, typed) || strings.Contains(data, env) {
					t.Errorf("the key is in the %s", what)
				}
			}
		})
	}
}

// The reranker and the embedder are built before the first call: a missing
// key or an unusable [reranker] stops the run with nothing paid for (it
// used to stop after every judgement was made).
func TestRerankerAndEmbedderBuiltFirst(t *testing.T) {
	cases := []struct {
		name string
		set  func(p *profile.Profile)
		want string
	}{
		{"reranker key missing", func(p *profile.Profile) {
			p.Reranker = &profile.Reranker{BaseURL: "http://rerank.invalid", APIKeyEnv: "CUBE_TEST_UNSET_RERANK_KEY"}
		}, "CUBE_TEST_UNSET_RERANK_KEY"},
		{"xinference without a model UID", func(p *profile.Profile) {
			p.Reranker = &profile.Reranker{BaseURL: "http://rerank.invalid", Kind: "xinference"}
		}, "model UID"},
		{"embedder key missing", func(p *profile.Profile) {
			p.Embedder = &profile.Endpoint{Name: "emb", BaseURL: "http://embed.invalid/v1", Model: "bge", APIKeyEnv: "CUBE_TEST_UNSET_EMBED_KEY"}
		}, "CUBE_TEST_UNSET_EMBED_KEY"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := fakeai.New(t)
			wb := buildWorkbook(4)
			for i := range wb.Items {
				wb.Items[i].Coarse = []string{fmt.Sprintf("第%d号业务", i+1)}
			}
			p := testProfile(profile.Endpoint{Name: "j", BaseURL: srv.URL(), Model: "m"})
			c.set(&p)
			_, err := Run(context.Background(), wb, Options{Profile: p, Store: openStore(t, "")})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one naming %q", err, c.want)
			}
			if n := srv.Requests(); n != 0 {
				t.Errorf("%d judge calls were made before the failure", n)
			}
		})
	}
}
