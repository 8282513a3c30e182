package openaiembed

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeEmbeddings is an OpenAI-compatible /v1/embeddings server returning
// 384-dimensional vectors whose first component encodes the text length.
type fakeEmbeddings struct {
	mu       sync.Mutex
	batches  [][]string
	formats  []string
	auth     []string
	failWith int
}

func (f *fakeEmbeddings) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/embeddings" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	var req struct {
		Input          []string `json:"input"`
		Model          string   `json:"model"`
		EncodingFormat string   `json:"encoding_format"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.batches = append(f.batches, req.Input)
	f.formats = append(f.formats, req.EncodingFormat)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	fail := f.failWith
	f.mu.Unlock()
	if fail != 0 {
		w.WriteHeader(fail)
		_, _ = w.Write([]byte(`{"error":{"message":"model \"nope\" not found, try pulling it first","type":"not_found_error"}}`))
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	// Reply in reverse order: clients must use the index, not the position.
	for i := len(req.Input) - 1; i >= 0; i-- {
		v := make([]float32, 384)
		v[0] = float32(len(req.Input[i]))
		v[1] = 1
		data = append(data, item{"embedding", i, v})
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

func TestBatchingAndCache(t *testing.T) {
	fake := &fakeEmbeddings{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	t.Setenv("CUBE_TEST_EMBED_KEY", "sk-test")
	e, err := New(Config{BaseURL: srv.URL, Model: "all-minilm", APIKeyEnv: "CUBE_TEST_EMBED_KEY", BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"a", "bb", "ccc", "bb", "", "dddd", "eeeee"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	// 5 distinct non-empty texts in batches of 2 → 3 requests.
	if len(fake.batches) != 3 || e.Calls() != 3 {
		t.Fatalf("requests %d (%v), want 3", len(fake.batches), fake.batches)
	}
	for _, b := range fake.batches {
		if len(b) > 2 {
			t.Errorf("batch of %d > 2", len(b))
		}
	}
	for i, f := range fake.formats {
		if f != "float" {
			t.Errorf("request %d encoding_format %q, want float", i, f)
		}
		if fake.auth[i] != "Bearer sk-test" {
			t.Errorf("request %d Authorization %q", i, fake.auth[i])
		}
	}
	if e.Dim() != 384 {
		t.Errorf("Dim %d, want 384", e.Dim())
	}
	for i, tx := range texts {
		if len(vecs[i]) != 384 {
			t.Fatalf("text %d: dim %d", i, len(vecs[i]))
		}
		if tx != "" && vecs[i][0] != float32(len(tx)) {
			t.Errorf("text %q got the vector of length %v: index order ignored", tx, vecs[i][0])
		}
	}
	if vecs[4][1] != 0 {
		t.Error("blank text did not get the zero vector")
	}
	// Second call: every text cached, no request.
	if _, err := e.Embed(context.Background(), []string{"a", "eeeee", "ccc"}); err != nil {
		t.Fatal(err)
	}
	if len(fake.batches) != 3 {
		t.Errorf("cache miss: %d requests after repeat", len(fake.batches))
	}
	// A new text costs exactly one more request.
	if _, err := e.Embed(context.Background(), []string{"a", "new"}); err != nil {
		t.Fatal(err)
	}
	if len(fake.batches) != 4 || len(fake.batches[3]) != 1 || fake.batches[3][0] != "new" {
		t.Errorf("batches %v", fake.batches)
	}
}

func TestErrors(t *testing.T) {
	fake := &fakeEmbeddings{failWith: http.StatusNotFound}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	e, err := New(Config{BaseURL: srv.URL + "/v1/", Model: "nope"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "not found") || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("error %v does not surface the server's message and model", err)
	}
	if _, err := e.Embed(context.Background(), []string{"x"}); err == nil {
		t.Error("a failed text was cached")
	}
	if _, err := New(Config{BaseURL: srv.URL, Model: "m", APIKeyEnv: "CUBE_TEST_UNSET_KEY_VAR"}); err == nil {
		t.Error("missing key variable accepted")
	}
	if _, err := New(Config{Model: "m"}); err == nil {
		t.Error("missing base URL accepted")
	}
	if _, err := New(Config{BaseURL: srv.URL}); err == nil {
		t.Error("missing model accepted")
	}
}

func TestWrongCount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1,2,3]}]}`))
	}))
	defer srv.Close()
	e, _ := New(Config{BaseURL: srv.URL, Model: "m"})
	if _, err := e.Embed(context.Background(), []string{"a", "b"}); err == nil {
		t.Error("one vector for two texts accepted")
	}
}
