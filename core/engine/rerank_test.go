package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"cubeworkbench/core/profile"
)

// TestCoFEUsesProfileReranker: a [reranker] section reaches CoFE's
// reranking stage. The fake answers like vLLM's POST /rerank
// (vllm/entrypoints/pooling/score/protocol.py: RerankResponse) and 404s
// GET /info the way FastAPI does, so kind auto picks the Jina shape.
func TestCoFEUsesProfileReranker(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodPost || r.URL.Path != "/v1/rerank" {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"detail":"Not Found"}`))
			return
		}
		calls.Add(1)
		var req struct {
			Documents []string `json:"documents"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		results := []map[string]any{}
		for i, d := range req.Documents {
			results = append(results, map[string]any{"index": i, "document": map[string]any{"text": d}, "relevance_score": 1 / float64(i+1)})
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "rerank-1", "model": "bge", "usage": map[string]any{"total_tokens": 1}, "results": results})
	}))
	defer srv.Close()

	wb := buildWorkbook(8)
	for i := range wb.Items {
		wb.Items[i].Coarse = []string{fmt.Sprintf("第%d号业务", i+1)}
	}
	p := testProfile(profile.Endpoint{Name: "lexical", Lexical: true})
	p.Bootstrap = 0
	p.CoFE.Generation = false
	p.Reranker = &profile.Reranker{BaseURL: srv.URL, Model: "bge"}
	res, err := Run(context.Background(), wb, Options{Profile: p, Store: openStore(t, "")})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Summary.CoFE
	if c == nil {
		t.Fatal("no CoFE result")
	}
	if !c.Reranked || calls.Load() == 0 {
		t.Errorf("reranked %v after %d rerank calls; the profile's reranker was not used", c.Reranked, calls.Load())
	}
}
