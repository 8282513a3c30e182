package rerank

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cubeworkbench/core/retrieve"
)

// fakeServer replays one canned reply and records the request bodies.
func fakeServer(t *testing.T, status int, reply string, got *[]map[string]any) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Errorf("request is not JSON: %s", b)
		}
		m["_auth"] = r.Header.Get("Authorization")
		m["_path"] = r.URL.Path
		*got = append(*got, m)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, reply)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRerankShapes(t *testing.T) {
	docs := []string{"Berlin is in Germany.", "The capital of France is Paris.", "Paris has a tower."}
	cases := []struct {
		name   string
		flavor string
		reply  string
		want   []retrieve.Ranked
	}{
		{"vLLM object", FlavorJina, `{"id":"rerank-fae5","model":"BAAI/bge-reranker-base","usage":{"total_tokens":56},
"results":[{"index":1,"document":{"text":"The capital of France is Paris."},"relevance_score":0.9985},
{"index":2,"document":{"text":"Paris has a tower."},"relevance_score":0.5},{"index":0,"document":{"text":"Berlin is in Germany."},"relevance_score":0.0006}]}`,
			[]retrieve.Ranked{{Index: 1, Score: 0.9985}, {Index: 2, Score: 0.5}, {Index: 0, Score: 0.0006}}},
		{"TEI bare array", FlavorTEI, `[{"index":1,"score":0.9985},{"index":0,"score":0.0006},{"index":2,"score":0.3,"text":"Paris has a tower."}]`,
			[]retrieve.Ranked{{Index: 1, Score: 0.9985}, {Index: 2, Score: 0.3}, {Index: 0, Score: 0.0006}}},
		{"Xinference null documents and meta", FlavorJina, `{"id":"x","results":[{"index":2,"relevance_score":0.2,"document":null},
{"index":1,"relevance_score":0.99,"document":null},{"index":0,"relevance_score":0.2,"document":null}],
"meta":{"api_version":null,"billed_units":null,"tokens":null,"warnings":null}}`,
			[]retrieve.Ranked{{Index: 1, Score: 0.99}, {Index: 0, Score: 0.2}, {Index: 2, Score: 0.2}}}, // tie: lower index first
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var reqs []map[string]any
			srv := fakeServer(t, 200, c.reply, &reqs)
			r := &Client{URL: srv.URL + "/v1/rerank", Model: "bge", APIKey: "k", Flavor: c.flavor}
			got, err := r.Rerank(context.Background(), "capital of France", docs, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %+v, want %+v", got, c.want)
				}
			}
			req := reqs[0]
			if req["_auth"] != "Bearer k" || req["query"] != "capital of France" {
				t.Errorf("request %v", req)
			}
			listKey, absent := "documents", "texts"
			if c.flavor == FlavorTEI {
				listKey, absent = "texts", "documents"
			}
			if l, _ := req[listKey].([]any); len(l) != 3 {
				t.Errorf("request lacks %s: %v", listKey, req)
			}
			if _, ok := req[absent]; ok {
				t.Errorf("request has %s: %v", absent, req)
			}
		})
	}
}

func TestRerankTEIBatches(t *testing.T) {
	var reqs []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct{ Texts []string }
		json.NewDecoder(r.Body).Decode(&m)
		reqs = append(reqs, nil)
		// score = the document's number, so the merged order is known
		var out []map[string]any
		for i, tx := range m.Texts {
			var n float64
			json.Unmarshal([]byte(strings.TrimPrefix(tx, "doc")), &n)
			out = append(out, map[string]any{"index": i, "score": n})
		}
		json.NewEncoder(w).Encode(out)
	}))
	defer srv.Close()
	docs := make([]string, 40)
	for i := range docs {
		docs[i] = "doc" + itoa(i)
	}
	r := &Client{URL: srv.URL + "/rerank", Flavor: FlavorTEI}
	got, err := r.Rerank(context.Background(), "q", docs, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(reqs) != 2 || len(got) != 5 || got[0].Index != 39 || got[4].Index != 35 {
		t.Fatalf("%d requests, got %+v", len(reqs), got)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestRerankErrors(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		body    string
		msg     string
		typ     string
		hintHas string
	}{
		{"vLLM nested", 400, `{"error":{"message":"top_n must be >= 0","type":"BadRequestError","param":null,"code":400}}`, "top_n must be >= 0", "BadRequestError", ""},
		{"vLLM old flat", 400, `{"object":"error","message":"model not found","type":"NotFoundError","code":404}`, "model not found", "NotFoundError", ""},
		{"TEI validation", 422, `{"error":"batch size 40 > maximum allowed batch size 32","error_type":"Validation"}`, "batch size 40 > maximum allowed batch size 32", "validation", "请求过大"},
		{"TEI overloaded", 429, `{"error":"Model is overloaded","error_type":"Overloaded"}`, "Model is overloaded", "overloaded", "限流"},
		{"Xinference detail", 500, `{"detail":"Model not found in the model list, uid: bge"}`, "Model not found in the model list, uid: bge", "", ""},
		{"Xinference rate limit", 429, `{"detail":"Rate limit reached"}`, "Rate limit reached", "", "retry later"},
		{"401 no body", 401, ``, "", "", "API key"},
		{"HTML proxy page", 502, `<html>Bad Gateway</html>`, "<html>Bad Gateway</html>", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var reqs []map[string]any
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				reqs = append(reqs, nil)
				w.WriteHeader(c.status)
				io.WriteString(w, c.body)
			}))
			defer srv.Close()
			_, err := (&Client{URL: srv.URL}).Rerank(context.Background(), "q", []string{"a"}, 0)
			var re *Error
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if re.Status != c.status || re.Message != c.msg || re.Type != c.typ {
				t.Errorf("got %+v, want status %d message %q type %q", re, c.status, c.msg, c.typ)
			}
			if !strings.Contains(err.Error(), "重排序失败") || !strings.Contains(err.Error(), c.hintHas) {
				t.Errorf("message %q", err)
			}
		})
	}
}

func TestRerankBadReplies(t *testing.T) {
	for _, reply := range []string{
		`{"results":[{"index":3,"relevance_score":1}]}`, // out of range
		`[{"index":0,"score":1},{"index":0,"score":2}]`, // repeated
		`{"results":[{"index":0}]}`,                     // no score
		`{"data":[]}`,                                   // no results
		`not json`,
	} {
		var reqs []map[string]any
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reqs = append(reqs, nil)
			io.WriteString(w, reply)
		}))
		_, err := (&Client{URL: srv.URL}).Rerank(context.Background(), "q", []string{"a", "b"}, 0)
		srv.Close()
		if err == nil {
			t.Errorf("reply %s accepted", reply)
		}
	}
}
