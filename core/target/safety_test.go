package target

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/secret"
)

// TestErrorsRedactEveryKnownSecret: a target that echoes the request's
// Authorization header — and, worse, another endpoint's key it was sent by
// mistake — in its error body must not put either key into a message that
// reaches the report, SUMMARY.json or stderr (issue 12).
func TestErrorsRedactEveryKnownSecret(t *testing.T) {
	t.Setenv("TARGET_KEY", "rf-target-secret-123")
	httpsafe.Register("sk-judge-secret-456") // a judge's key, registered at start
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(400)
		io.WriteString(w, `{"error":{"message":"bad header `+r.Header.Get("Authorization")+` (also saw sk-judge-secret-456)"}}`)
	}))
	defer srv.Close()
	tg, err := New(Config{Kind: "openai", BaseURL: srv.URL, APIKeyEnv: "TARGET_KEY", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tg.Ask(context.Background(), "q")
	if err == nil {
		t.Fatal("no error")
	}
	for _, k := range []string{"rf-target-secret-123", "sk-judge-secret-456"} {
		if strings.Contains(err.Error(), k) {
			t.Errorf("error holds %s: %v", k, err)
		}
	}
}

// TestKeyTypedInWindowIsUsed: a key set for this session in the secret
// store (what the window's key field does) is sent, with no variable set.
func TestKeyTypedInWindowIsUsed(t *testing.T) {
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"答"}}]}`)
	}))
	defer srv.Close()
	if err := secret.Default().Set(secret.Target("openai"), "typed-in-window-789", secret.InMemory); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = secret.Default().Delete(secret.Target("openai")) })
	tg, err := New(Config{Kind: "openai", BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tg.Ask(context.Background(), "q"); err != nil {
		t.Fatal(err)
	}
	if auth != "Bearer typed-in-window-789" {
		t.Fatalf("Authorization = %q", auth)
	}
}

// TestCrossHostRedirectRefused: a 307 from the target to another host is
// refused (the question is not sent there) unless allow_redirects is set.
// 127.0.0.1 and localhost are two hosts to net/http.
func TestCrossHostRedirectRefused(t *testing.T) {
	var elsewhere int
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere++
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"别处的答案"}}]}`)
	}))
	defer other.Close()
	away := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, away+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer origin.Close()
	for _, allow := range []bool{false, true} {
		before := elsewhere
		tg, err := NewOnce(Config{Kind: "openai", BaseURL: origin.URL, Model: "m", AllowRedirects: allow})
		if err != nil {
			t.Fatal(err)
		}
		_, err = tg.Ask(context.Background(), "q")
		if !allow {
			if err == nil || !errors.Is(err, httpsafe.ErrCrossHostRedirect) && !strings.Contains(err.Error(), "重定向") {
				t.Fatalf("redirect not refused: %v", err)
			}
			if elsewhere != before {
				t.Fatal("the other host was asked")
			}
			continue
		}
		if err != nil || elsewhere != before+1 {
			t.Fatalf("allowed redirect: err %v, other host asked %d times", err, elsewhere-before)
		}
	}
}

// A system that echoes its request headers in a successful answer: the
// connector's key is gone from the text, the contexts and the documents.
func TestSuccessfulAnswerRedacted(t *testing.T) {
	t.Setenv("ECHO_TARGET_KEY", "ragflow-EchoedKey0123456789")
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/sessions") {
			io.WriteString(w, `{"code":0,"data":{"id":"s1"}}`)
			return
		}
		auth := r.Header.Get("Authorization")
		io.WriteString(w, `{"code":0,"data":{"answer":"收到 `+auth+`","reference":{"total":1,"chunks":[{"id":"c1","content":"头：`+auth+`","document_id":"d1","document_name":"指南.pdf","similarity":0.9}]},"session_id":"s1"}}`)
	}}
	srv := f.start(t)
	tg, err := New(Config{Kind: "ragflow", BaseURL: srv.URL, ChatID: "c", APIKeyEnv: "ECHO_TARGET_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := tg.Ask(context.Background(), "q")
	if err != nil {
		t.Fatal(err)
	}
	all := ans.Text + strings.Join(ans.Contexts, "") + ans.Retrieved[0].Content
	if strings.Contains(all, "EchoedKey0123456789") || !strings.Contains(ans.Text, "收到") {
		t.Fatalf("answer %+v", ans)
	}
}

// A system that answers 200, sends half its reply and then nothing: the
// attempt ends after the stall time (not the 180 s timeout), is retried,
// and the failure says the reply stopped coming.
func TestTargetStallMidReply(t *testing.T) {
	done := make(chan struct{})
	var hits int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		io.WriteString(w, `{"responseData":[],"choices":[{"message":{"role":"assistant","content":"需要`)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	defer func() { close(done); srv.Close() }()
	tg := &FastGPT{client: client{http: srv.Client(), sleep: noSleep, attempts: 2, stall: 50 * time.Millisecond}, Base: srv.URL + "/api"}
	_, err := tg.Ask(context.Background(), "q")
	var te *Error
	if !errors.As(err, &te) || !te.Retryable || !strings.Contains(te.Message, "stopped coming") {
		t.Fatalf("err = %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits != 2 {
		t.Errorf("%d attempts, want 2", hits)
	}
}
