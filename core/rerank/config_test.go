package rerank

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"cubeworkbench/core/profile"
)

// fakeTEI answers like text-embeddings-inference 1.x: GET /info with the
// Info struct of router/src/lib.rs (model_type serialised lower-case,
// {"reranker": {...}} for a cross-encoder), POST /rerank with a bare array
// of Rank (router/src/http/types.rs), and nothing at /v1/rerank (routes in
// router/src/http/server.rs).
func fakeTEI(t *testing.T, batch int, paths *[]string) *httptest.Server {
	var mu sync.Mutex
	mux := http.NewServeMux()
	record := func(r *http.Request) { mu.Lock(); *paths = append(*paths, r.Method+" "+r.URL.Path); mu.Unlock() }
	mux.HandleFunc("GET /info", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"model_id": "BAAI/bge-reranker-large", "model_sha": nil,
			"model_dtype": "float16", "model_type": map[string]any{"reranker": map[string]any{
				"id2label": map[string]string{"0": "LABEL_0"}, "label2id": map[string]int{"LABEL_0": 0}}},
			"max_concurrent_requests": 512, "max_input_length": 512, "max_batch_tokens": 16384,
			"max_batch_requests": nil, "max_client_batch_size": batch, "auto_truncate": false,
			"tokenization_workers": 4, "version": "1.5.0", "sha": nil, "docker_label": nil})
	})
	mux.HandleFunc("POST /rerank", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		var req struct {
			Query string   `json:"query"`
			Texts []string `json:"texts"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Texts == nil {
			w.WriteHeader(http.StatusUnprocessableEntity) // axum's Json rejection
			return
		}
		if len(req.Texts) > batch {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			json.NewEncoder(w).Encode(map[string]any{"error": "batch size > maximum allowed batch size", "error_type": "Validation"})
			return
		}
		out := []map[string]any{}
		for i, tx := range req.Texts {
			out = append(out, map[string]any{"index": i, "score": float64(len(tx)) / 100})
		}
		json.NewEncoder(w).Encode(out)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// fakeVLLM answers like vLLM's pooling score router
// (vllm/entrypoints/pooling/score/api_router.py, protocol.py): POST /rerank,
// /v1/rerank and /v2/rerank with {id, model, usage, results[{index,
// document{text}, relevance_score}]}; GET /info is FastAPI's 404.
func fakeVLLM(t *testing.T, paths *[]string) *httptest.Server {
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		*paths = append(*paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodPost || !slices.Contains([]string{"/rerank", "/v1/rerank", "/v2/rerank"}, r.URL.Path) {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"detail":"Not Found"}`))
			return
		}
		var req struct {
			Model     string   `json:"model"`
			Query     string   `json:"query"`
			Documents []string `json:"documents"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Documents == nil {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":{"message":"documents: Field required","type":"BadRequestError","param":null,"code":400}}`))
			return
		}
		var results []map[string]any
		for i, d := range req.Documents {
			results = append(results, map[string]any{"index": i, "document": map[string]any{"text": d},
				"relevance_score": float64(len(d)) / 100})
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "rerank-1", "model": req.Model,
			"usage": map[string]any{"total_tokens": 10}, "results": results})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestKindsMatchProfile(t *testing.T) {
	if !slices.Equal(Kinds, profile.RerankerKinds()) {
		t.Errorf("rerank.Kinds %v, profile accepts %v", Kinds, profile.RerankerKinds())
	}
}

func TestAutoDetects(t *testing.T) {
	docs := []string{"a", "bbb", "cc"}
	for _, c := range []struct {
		name      string
		server    func(t *testing.T, paths *[]string) *httptest.Server
		suffix    string // appended to the server URL in base_url
		flavor    string
		wantPaths []string
		batch     int
	}{
		{"TEI", func(t *testing.T, p *[]string) *httptest.Server { return fakeTEI(t, 2, p) }, "",
			FlavorTEI, []string{"GET /info", "POST /rerank", "POST /rerank"}, 2},
		{"TEI given /v1", func(t *testing.T, p *[]string) *httptest.Server { return fakeTEI(t, 8, p) }, "/v1/",
			FlavorTEI, []string{"GET /info", "POST /rerank"}, 8},
		{"vLLM", fakeVLLM, "", FlavorJina, []string{"GET /info", "POST /v1/rerank"}, 0},
		{"vLLM given /v1", fakeVLLM, "/v1", FlavorJina, []string{"GET /info", "POST /v1/rerank"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var paths []string
			srv := c.server(t, &paths)
			r, err := New(Config{BaseURL: srv.URL + c.suffix, Model: "bge"})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second call must not ask /info again
				got, err := r.Rerank(context.Background(), "q", docs, 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 3 || got[0].Index != 1 || got[1].Index != 2 || got[2].Index != 0 {
					t.Fatalf("ranked %+v", got)
				}
				paths = paths[:min(len(paths), len(c.wantPaths))]
			}
			if !slices.Equal(paths, c.wantPaths) || r.Flavor != c.flavor || r.Batch != c.batch {
				t.Errorf("paths %v flavor %s batch %d, want %v %s %d", paths, r.Flavor, r.Batch, c.wantPaths, c.flavor, c.batch)
			}
		})
	}
}

func TestAutoUnreachableIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	r, err := New(Config{BaseURL: url})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Rerank(context.Background(), "q", []string{"a"}, 0); err == nil || !strings.Contains(err.Error(), "无法连接") {
		t.Errorf("err = %v, want a loud unreachable error", err)
	}
}

func TestExplicitKinds(t *testing.T) {
	t.Setenv("CUBE_TEST_RERANK_KEY", "rk")
	for _, c := range []struct {
		cfg    Config
		url    string
		flavor string
		err    string
	}{
		{Config{BaseURL: "http://h:8080/", Kind: KindTEI}, "http://h:8080/rerank", FlavorTEI, ""},
		{Config{BaseURL: "http://h:8080/v1", Kind: KindTEI}, "http://h:8080/rerank", FlavorTEI, ""},
		{Config{BaseURL: "http://h:8000/v1", Kind: KindVLLM}, "http://h:8000/rerank", FlavorJina, ""},
		{Config{BaseURL: "http://h:9997", Kind: KindXinference, Model: "bge"}, "http://h:9997/v1/rerank", FlavorJina, ""},
		{Config{BaseURL: "http://h:9997", Kind: KindXinference}, "", "", "model UID"},
		{Config{BaseURL: "http://h", Kind: "cohere"}, "", "", "未知"},
		{Config{Kind: KindTEI}, "", "", "base_url"},
		{Config{BaseURL: "http://h", APIKeyEnv: "CUBE_TEST_RERANK_UNSET"}, "", "", "CUBE_TEST_RERANK_UNSET"},
	} {
		r, err := New(c.cfg)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: err %v, want %q", c.cfg, err, c.err)
			}
			continue
		}
		if err != nil || r.URL != c.url || r.Flavor != c.flavor {
			t.Errorf("%+v: %+v %v, want %s %s", c.cfg, r, err, c.url, c.flavor)
		}
	}
	r, err := New(Config{BaseURL: "http://h", Kind: KindVLLM, APIKeyEnv: "CUBE_TEST_RERANK_KEY"})
	if err != nil || r.APIKey != "rk" {
		t.Errorf("key from the environment: %+v %v", r, err)
	}
}

func TestFromProfile(t *testing.T) {
	rr, err := FromProfile(nil)
	if err != nil || rr != nil {
		t.Fatalf("no section: %v %v, want nil", rr, err)
	}
	var paths []string
	srv := fakeTEI(t, 32, &paths)
	p, err := profile.Parse([]byte("[reranker]\nbase_url = \"" + srv.URL + "\"\nkind = \"tei\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	rr, err = FromProfile(p.Reranker)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rr.Rerank(context.Background(), "q", []string{"x", "yy"}, 1)
	if err != nil || len(got) != 1 || got[0].Index != 1 || !slices.Equal(paths, []string{"POST /rerank"}) {
		t.Errorf("%+v %v %v", got, err, paths)
	}
}
