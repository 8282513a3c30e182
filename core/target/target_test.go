package target

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fake records requests and replays scripted responses per path.
type fake struct {
	mu       sync.Mutex
	requests []recorded
	handler  func(w http.ResponseWriter, r *http.Request, body map[string]any)
}

type recorded struct {
	Path, Auth string
	Body       map[string]any
}

func (f *fake) start(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(data, &body)
		f.mu.Lock()
		f.requests = append(f.requests, recorded{r.URL.Path, r.Header.Get("Authorization"), body})
		f.mu.Unlock()
		f.handler(w, r, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func noSleep(context.Context, time.Duration) error { return nil }

// A RAGFlow completion as v0.20–v0.25 return it (apis.md §1a).
const ragflowCompletion = `{"code":0,"data":{"answer":"<think>let me see</think>办理需要身份证 [ID:0]，20个工作日##1$$。","session_id":"s1","id":"a1","prompt":"…","created_at":1755055623.6,
 "reference":{"total":3,"chunks":[
  {"id":"c1","content":"材料：身份证","document_id":"dd58","document_name":"YC-0001.txt","dataset_id":"ds","image_id":"","positions":[[1,2,3,4,5]],"url":null,"similarity":0.70,"vector_similarity":0.0,"term_similarity":1.0,"doc_type":""},
  {"id":"c2","content":"时限：20个工作日","document_id":"dd58","document_name":"YC-0001.txt","similarity":0.65},
  {"id":"c3","content":"另一事项","document_id":"ee11","document_name":"YC-0002.txt","similarity":0.4}],
 "doc_aggs":[{"doc_name":"YC-0001.txt","doc_id":"dd58","count":2}]}}}`

func TestRAGFlowCreatesSessionThenAsks(t *testing.T) {
	t.Setenv("RF_KEY", "ragflow-secret")
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/sessions"):
			io.WriteString(w, `{"code":0,"data":{"id":"s1","chat_id":"c","name":"cube-eval"}}`)
		case strings.HasSuffix(r.URL.Path, "/completions"):
			io.WriteString(w, ragflowCompletion)
		}
	}}
	srv := f.start(t)
	tg, err := New(Config{Kind: "ragflow", BaseURL: srv.URL, ChatID: "chat9", APIKeyEnv: "RF_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := tg.Ask(context.Background(), "怎么办？")
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text != "办理需要身份证，20个工作日。" {
		t.Errorf("answer = %q", ans.Text)
	}
	if len(ans.Retrieved) != 2 || ans.Retrieved[0].ID != "dd58" || ans.Retrieved[1].Name != "YC-0002.txt" {
		t.Errorf("retrieved = %+v", ans.Retrieved)
	}
	if len(ans.Contexts) != 3 {
		t.Errorf("contexts = %d", len(ans.Contexts))
	}
	if len(f.requests) != 2 || f.requests[0].Path != "/api/v1/chats/chat9/sessions" {
		t.Fatalf("requests = %+v", f.requests)
	}
	ask := f.requests[1]
	if ask.Body["session_id"] != "s1" || ask.Body["stream"] != false || ask.Body["question"] != "怎么办？" {
		t.Errorf("completion body = %v", ask.Body)
	}
	if ask.Auth != "Bearer ragflow-secret" {
		t.Errorf("auth = %q", ask.Auth)
	}
}

func TestRAGFlowErrors(t *testing.T) {
	cases := []struct {
		name     string
		status   int
		body     string
		wantCode string
		calls    int // endpoint calls before giving up
	}{
		{"code 102 in a 200 envelope", 200, `{"code":102,"message":"Please input your question."}`, "102", 1},
		{"auth code 109 in a 200 envelope (≤v0.24)", 200, `{"code":109,"message":"Authentication error: API key is invalid!"}`, "109", 1},
		{"HTTP 401 (v0.25+)", 401, `{"code":109,"message":"Authentication error"}`, "109", 1},
		{"HTTP 500 retried", 500, `{"code":100,"message":"boom"}`, "100", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
				w.WriteHeader(c.status)
				io.WriteString(w, c.body)
			}}
			srv := f.start(t)
			tg := &RAGFlow{client: client{http: srv.Client(), sleep: noSleep, attempts: 3}, Base: srv.URL, ChatID: "c"}
			_, err := tg.Ask(context.Background(), "q")
			var te *Error
			if !errors.As(err, &te) || te.Code != c.wantCode {
				t.Fatalf("err = %v, want code %s", err, c.wantCode)
			}
			if len(f.requests) != c.calls {
				t.Errorf("calls = %d, want %d", len(f.requests), c.calls)
			}
		})
	}
}

// A blocking-mode JSON body (a chat app answering through a buffering
// proxy) is still read, although the connector asks for a stream.
func TestDifyBlockingBody(t *testing.T) {
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		io.WriteString(w, `{"event":"message","task_id":"t","id":"m","message_id":"m","conversation_id":"c","mode":"chat",
 "answer":"需要营业执照。","created_at":1705407629,
 "metadata":{"usage":{"prompt_tokens":1033,"completion_tokens":128,"total_tokens":1161,"latency":0.77,"currency":"USD","total_price":"0.0012890"},
  "retriever_resources":[{"position":1,"dataset_id":"d","dataset_name":"指南","document_id":"YC-0003","document_name":"食品经营许可","segment_id":"s","score":0.98,"content":"材料：营业执照","hit_count":null,"word_count":null},
   {"position":2,"dataset_id":"d","dataset_name":"指南","document_id":"YC-0004","document_name":"公共场所卫生许可","segment_id":"s2","score":0.5,"content":"x"}]}}`)
	}}
	srv := f.start(t)
	tg, _ := New(Config{Kind: "dify", BaseURL: srv.URL + "/v1"})
	ans, err := tg.Ask(context.Background(), "开餐馆要什么")
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text != "需要营业执照。" || len(ans.Retrieved) != 2 || ans.Retrieved[0].ID != "YC-0003" {
		t.Fatalf("answer = %+v", ans)
	}
	req := f.requests[0]
	if req.Path != "/v1/chat-messages" || req.Body["response_mode"] != "streaming" || req.Body["query"] != "开餐馆要什么" {
		t.Fatalf("request = %+v", req)
	}
}

func TestDifyRateLimitHonoursRetryAfter(t *testing.T) {
	var waits []time.Duration
	n := 0
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		n++
		if n == 1 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(429)
			io.WriteString(w, `{"code":"too_many_requests","message":"slow down","status":429}`)
			return
		}
		io.WriteString(w, `{"answer":"好的","metadata":{}}`)
	}}
	srv := f.start(t)
	tg := &Dify{client: client{http: srv.Client(), attempts: 3, sleep: func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}}, Base: srv.URL + "/v1", User: "u"}
	ans, err := tg.Ask(context.Background(), "q")
	if err != nil || ans.Text != "好的" || len(ans.Retrieved) != 0 {
		t.Fatalf("ans = %+v err = %v", ans, err)
	}
	if len(waits) != 1 || waits[0] != 7*time.Second {
		t.Fatalf("waits = %v, want [7s]", waits)
	}
}

func TestDifyBadParamNotRetried(t *testing.T) {
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		w.WriteHeader(400)
		io.WriteString(w, `{"code":"app_unavailable","message":"App unavailable","status":400}`)
	}}
	srv := f.start(t)
	tg := &Dify{client: client{http: srv.Client(), attempts: 3, sleep: noSleep}, Base: srv.URL}
	_, err := tg.Ask(context.Background(), "q")
	var te *Error
	if !errors.As(err, &te) || te.Code != "app_unavailable" || te.Retryable || len(f.requests) != 1 {
		t.Fatalf("err = %v, calls %d", err, len(f.requests))
	}
}

func TestOpenAITarget(t *testing.T) {
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"</think>只需身份证。"},"finish_reason":"stop"}]}`)
	}}
	srv := f.start(t)
	tg, _ := New(Config{Kind: "openai", BaseURL: srv.URL + "/v1", Model: "m"})
	ans, err := tg.Ask(context.Background(), "q")
	if err != nil || ans.Text != "只需身份证。" || ans.Retrieved != nil {
		t.Fatalf("ans = %+v err = %v", ans, err)
	}
	if f.requests[0].Path != "/v1/chat/completions" || f.requests[0].Body["model"] != "m" {
		t.Fatalf("request = %+v", f.requests[0])
	}
}

func TestHTTPTemplateAndPaths(t *testing.T) {
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		io.WriteString(w, `{"result":{"text":"答复","docs":[{"doc_id":"A","title":"甲"},{"doc_id":"B"},{"doc_id":"A"}]}}`)
	}}
	srv := f.start(t)
	tg, err := New(Config{Kind: "http", BaseURL: srv.URL + "/ask",
		RequestTemplate: `{"q":"{{question}}","k":8}`, AnswerPath: "result.text", DocsPath: "result.docs[*]"})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := tg.Ask(context.Background(), `他说"你好"`)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text != "答复" || len(ans.Retrieved) != 2 || ans.Retrieved[0].Name != "甲" {
		t.Fatalf("ans = %+v", ans)
	}
	if f.requests[0].Body["q"] != `他说"你好"` {
		t.Fatalf("question not escaped into the template: %v", f.requests[0].Body)
	}
}

func TestLookup(t *testing.T) {
	var root any
	_ = json.Unmarshal([]byte(`{"a":{"b":[{"c":1},{"c":2}],"s":["x","y"]}}`), &root)
	cases := []struct {
		path string
		want int
	}{
		{"a.b[*].c", 2}, {"a.b[1].c", 1}, {"a.s[*]", 2}, {"a.missing", 0}, {"a.b[9]", 0},
	}
	for _, c := range cases {
		got, err := Lookup(root, c.path)
		if err != nil || len(got) != c.want {
			t.Errorf("Lookup(%q) = %v, %v; want %d matches", c.path, got, err, c.want)
		}
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	bad := []Config{
		{Kind: "ragflow", BaseURL: "http://x"},
		{Kind: "http", BaseURL: "http://x"},
		{Kind: "nope", BaseURL: "http://x"},
		{Kind: "dify"},
	}
	for _, b := range bad {
		if _, err := New(b); !errors.Is(err, ErrConfig) {
			t.Errorf("New(%+v) err = %v", b, err)
		}
	}
}

func TestKeyNeverInErrors(t *testing.T) {
	t.Setenv("K", "sk-very-secret")
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		w.WriteHeader(401)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
	}}
	srv := f.start(t)
	tg, _ := New(Config{Kind: "openai", BaseURL: srv.URL, APIKeyEnv: "K"})
	_, err := tg.Ask(context.Background(), "q")
	if err == nil || strings.Contains(err.Error(), "sk-very-secret") {
		t.Fatalf("err = %v", err)
	}
}
