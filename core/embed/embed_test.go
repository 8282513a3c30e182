package embed

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestCosine(t *testing.T) {
	cases := []struct {
		a, b []float32
		want float64
	}{
		{[]float32{1, 0}, []float32{1, 0}, 1},
		{[]float32{1, 0}, []float32{0, 2}, 0},
		{[]float32{1, 1}, []float32{-1, -1}, -1},
		{[]float32{3, 4}, []float32{4, 3}, 24.0 / 25},
		{[]float32{0, 0}, []float32{1, 0}, 0},
		{[]float32{1}, []float32{1, 0}, 0},
	}
	for _, c := range cases {
		if got := Cosine(c.a, c.b); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("Cosine(%v,%v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestHashedNGrams(t *testing.T) {
	h := NewHashed()
	// "ab": grams a, ab, b → three ±1 entries (distinct buckets for this
	// input), each 1/√3 in magnitude after normalisation.
	s := h.Sparse("AB")
	if len(s.Index) != 3 {
		t.Fatalf("ab: %d buckets, want 3", len(s.Index))
	}
	for _, v := range s.Value {
		if math.Abs(math.Abs(float64(v))-1/math.Sqrt(3)) > 1e-6 {
			t.Errorf("value %v, want ±1/√3", v)
		}
	}
	// "aaa": grams a×3, aa×2, aaa×1 → counts 3,2,1 → norm √14.
	s = h.Sparse("aaa")
	var got []float64
	for _, v := range s.Value {
		got = append(got, math.Abs(float64(v))*math.Sqrt(14))
	}
	if len(got) != 3 {
		t.Fatalf("aaa: %d buckets, want 3", len(got))
	}
	sum := got[0] + got[1] + got[2]
	if math.Abs(sum-6) > 1e-5 {
		t.Errorf("aaa counts %v, want {3,2,1}", got)
	}
	// Case and white-space runs do not matter.
	if SparseCosine(h.Sparse("Hello   World"), h.Sparse("hello world")) < 1-1e-6 {
		t.Error("normalisation differs")
	}
	if c := SparseCosine(h.Sparse(""), h.Sparse("x")); c != 0 {
		t.Errorf("empty cosine %v", c)
	}
	// Indices strictly increasing.
	s = h.Sparse("办理护照需要什么材料 and what documents")
	for i := 1; i < len(s.Index); i++ {
		if s.Index[i] <= s.Index[i-1] {
			t.Fatal("indices not strictly increasing")
		}
	}
}

func TestHashedDenseMatchesSparse(t *testing.T) {
	h := NewHashed()
	texts := []string{"the passport office", "the passport agency", "完全无关的中文"}
	dense, err := h.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(dense[0]) != HashedDim || h.Dim() != HashedDim {
		t.Fatalf("dim %d", len(dense[0]))
	}
	sp, _ := h.EmbedSparse(context.Background(), texts)
	for i := range texts {
		for j := range texts {
			d, s := Cosine(dense[i], dense[j]), SparseCosine(sp[i], sp[j])
			if math.Abs(d-s) > 1e-6 {
				t.Errorf("(%d,%d) dense %v sparse %v", i, j, d, s)
			}
		}
	}
	if !(SparseCosine(sp[0], sp[1]) > SparseCosine(sp[0], sp[2])) {
		t.Error("similar texts not closer than unrelated ones")
	}
}

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

func TestOpenAIBatchingAndCache(t *testing.T) {
	fake := &fakeEmbeddings{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	t.Setenv("CUBE_TEST_EMBED_KEY", "sk-test")
	e, err := NewOpenAI(OpenAIConfig{BaseURL: srv.URL, Model: "all-minilm", APIKeyEnv: "CUBE_TEST_EMBED_KEY", BatchSize: 2})
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

func TestOpenAIErrors(t *testing.T) {
	fake := &fakeEmbeddings{failWith: http.StatusNotFound}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	e, err := NewOpenAI(OpenAIConfig{BaseURL: srv.URL + "/v1/", Model: "nope"})
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
	if _, err := NewOpenAI(OpenAIConfig{BaseURL: srv.URL, Model: "m", APIKeyEnv: "CUBE_TEST_UNSET_KEY_VAR"}); err == nil {
		t.Error("missing key variable accepted")
	}
	if _, err := NewOpenAI(OpenAIConfig{Model: "m"}); err == nil {
		t.Error("missing base URL accepted")
	}
	if _, err := NewOpenAI(OpenAIConfig{BaseURL: srv.URL}); err == nil {
		t.Error("missing model accepted")
	}
}

func TestOpenAIWrongCount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1,2,3]}]}`))
	}))
	defer srv.Close()
	e, _ := NewOpenAI(OpenAIConfig{BaseURL: srv.URL, Model: "m"})
	if _, err := e.Embed(context.Background(), []string{"a", "b"}); err == nil {
		t.Error("one vector for two texts accepted")
	}
}
