package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"testing"

	"cubeworkbench/core/chunk"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/text"
	"cubeworkbench/core/textmetric"
)

func chunks(texts ...string) []chunk.Chunk {
	out := make([]chunk.Chunk, len(texts))
	for i, t := range texts {
		out[i] = chunk.Chunk{DocID: fmt.Sprintf("d%d", i), Text: t}
	}
	return out
}

// near allows for float32 vectors in the dense index.
func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func checkHits(t *testing.T, got []Hit, idx []int, scores []float64) {
	t.Helper()
	if len(got) != len(idx) {
		t.Fatalf("hits = %+v, want chunks %v", got, idx)
	}
	for i := range got {
		if got[i].ChunkIndex != idx[i] || got[i].DocID != fmt.Sprintf("d%d", idx[i]) || (scores != nil && !near(got[i].Score, scores[i])) {
			t.Fatalf("hit %d = %+v, want chunk %d score %v", i, got[i], idx[i], scores)
		}
	}
}

func TestBM25(t *testing.T) {
	// N = 3, lengths 2, 3, 1, avgdl = 2.
	ix := NewBM25(chunks("a b", "A c, c", "d"))
	idfA, idfC := math.Log(1+1.5/2.5), math.Log(1+2.5/1.5) // df 2 and 1
	norm0, norm1 := 1.2*(0.25+0.75*2/2), 1.2*(0.25+0.75*3/2)
	cases := []struct {
		q      string
		k      int
		idx    []int
		scores []float64
	}{
		{"c", 10, []int{1}, []float64{idfC * 2 * 2.2 / (2 + norm1)}},
		{"a", 10, []int{0, 1}, []float64{idfA * 2.2 / (1 + norm0), idfA * 2.2 / (1 + norm1)}},
		{"a a", 10, []int{0, 1}, []float64{2 * idfA * 2.2 / (1 + norm0), 2 * idfA * 2.2 / (1 + norm1)}},
		{"a c", 1, []int{1}, []float64{idfA*2.2/(1+norm1) + idfC*2*2.2/(2+norm1)}},
		{"zzz", 5, nil, nil},
		{"a", 0, nil, nil},
	}
	for _, c := range cases {
		got, err := ix.Search(context.Background(), c.q, c.k)
		if err != nil {
			t.Fatal(err)
		}
		checkHits(t, got, c.idx, c.scores)
	}
	if _, err := ix.Search(context.Background(), "a", -1); err == nil {
		t.Error("negative k accepted")
	}
}

func TestBM25ChineseAndTies(t *testing.T) {
	ix := NewBM25(chunks("办理居住证", "居住证续签", "护照", "居住证办理"))
	got, err := ix.Search(context.Background(), "如何办理居住证", 3)
	if err != nil {
		t.Fatal(err)
	}
	// chunks 0 and 3 hold the same characters: equal scores, lower index first.
	if len(got) != 3 || got[0].ChunkIndex != 0 || got[1].ChunkIndex != 3 || got[2].ChunkIndex != 1 || got[0].Score != got[1].Score {
		t.Fatalf("hits = %+v", got)
	}
}

// fixedEmbedder maps known texts to vectors (dense only).
type fixedEmbedder map[string][]float32

func (fixedEmbedder) Name() string { return "fixed" }
func (fixedEmbedder) Dim() int     { return 2 }
func (f fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := f[t]
		if !ok {
			return nil, fmt.Errorf("unknown text %q", t)
		}
		out[i] = v
	}
	return out, nil
}

func TestDense(t *testing.T) {
	emb := fixedEmbedder{"x": {2, 0}, "y": {0.6, 0.8}, "z": {0, 3}, "q": {1, 1}}
	d, err := NewDense(context.Background(), emb, chunks("x", "y", "z"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.Search(context.Background(), "q", 3)
	if err != nil {
		t.Fatal(err)
	}
	r := 1 / math.Sqrt2
	checkHits(t, got, []int{1, 0, 2}, []float64{1.4 * r, r, r})
	if _, err := NewDense(context.Background(), emb, chunks("x", "unknown")); err == nil {
		t.Error("embedder error swallowed")
	}
}

func TestDenseSparseHashed(t *testing.T) {
	d, err := NewDense(context.Background(), embed.NewHashed(), chunks("社保卡挂失补办", "护照办理流程", "社保卡激活"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.Search(context.Background(), "社保卡挂失补办", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ChunkIndex != 0 || !(math.Abs(got[0].Score-1) < 1e-5) || got[1].ChunkIndex != 2 {
		t.Fatalf("hits = %+v", got)
	}
	// The sparse path must agree with the cosine of the dense vectors.
	h := embed.NewHashed()
	want := embed.SparseCosine(h.Sparse("社保卡挂失补办"), h.Sparse("社保卡激活"))
	if math.Abs(got[1].Score-want) > 1e-5 {
		t.Errorf("sparse score %v, cosine %v", got[1].Score, want)
	}
}

type listRetriever []int

func (l listRetriever) Search(_ context.Context, _ string, k int) ([]Hit, error) {
	var out []Hit
	for i, c := range l {
		if i == k {
			break
		}
		out = append(out, Hit{ChunkIndex: c, DocID: fmt.Sprintf("d%d", c), Score: float64(100 - i)})
	}
	return out, nil
}

func TestHybridRRF(t *testing.T) {
	h := NewHybrid(listRetriever{0, 1, 2}, listRetriever{2, 0})
	got, err := h.Search(context.Background(), "q", 3)
	if err != nil {
		t.Fatal(err)
	}
	checkHits(t, got, []int{0, 2, 1}, []float64{1.0/61 + 1.0/62, 1.0/63 + 1.0/61, 1.0 / 62})
	got, _ = h.Search(context.Background(), "q", 1)
	checkHits(t, got, []int{0}, nil)
}

func TestNewAndDocs(t *testing.T) {
	cs := []chunk.Chunk{{DocID: "a", Text: "社保卡挂失"}, {DocID: "a", Text: "社保卡补办"}, {DocID: "b", Text: "社保卡激活"}}
	for _, name := range []string{NameBM25, NameDense, NameHybrid} {
		r, label, err := New(context.Background(), name, cs, embed.NewHashed())
		if err != nil || label == "" {
			t.Fatalf("New(%s): %v", name, err)
		}
		hits, err := r.Search(context.Background(), "社保卡补办", 3)
		if err != nil || len(hits) != 3 || hits[0].ChunkIndex != 1 {
			t.Fatalf("%s: hits %+v, %v", name, hits, err)
		}
		if d := Docs(hits); len(d) != 2 || d[0] != "a" || d[1] != "b" {
			t.Errorf("%s: Docs = %v", name, d)
		}
	}
	// Refused, each language on its own in a text.Error (issue 21).
	han := regexp.MustCompile(`\p{Han}`)
	for _, name := range []string{"dense", "tfidf"} {
		_, _, err := New(context.Background(), name, cs, nil)
		var te *text.Error
		if !errors.As(err, &te) || !han.MatchString(te.In(text.ZH)) || han.MatchString(te.In(text.EN)) {
			t.Errorf("New(%s) without embedder: %v; want a text.Error, each language on its own", name, err)
		}
	}
}

func TestTermsAgreeWithTextmetric(t *testing.T) {
	texts := []string{"办理居住证需要身份证原件。", "Apply at Window 3, by 2024-05-01!", "混合text与123数字，E-mail：A_b@x.cn",
		"Ünïcödé ÅB ÄÖ 二〇二四 ①②", "ＡＢＣ全角 ﬁ ǅ", "tab\tnew\nline"}
	for _, s := range texts {
		ix := NewBM25(nil)
		var ids []int32
		ix.terms(s, true, nil, func(id int32) { ids = append(ids, id) })
		toks := textmetric.TokenizeChinese(s)
		if len(ids) != len(toks) {
			t.Fatalf("%q: %d term ids, textmetric has %d tokens %q", s, len(ids), len(toks), toks)
		}
		byID := map[int32]string{}
		for i, tok := range toks {
			if prev, ok := byID[ids[i]]; ok && prev != tok {
				t.Errorf("%q: term %d is both %q and %q", s, ids[i], prev, tok)
			}
			byID[ids[i]] = tok
		}
		if len(byID) != len(distinct(toks)) {
			t.Errorf("%q: %d terms for %d distinct tokens", s, len(byID), len(distinct(toks)))
		}
	}
}

func distinct(ss []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range ss {
		m[s] = true
	}
	return m
}
