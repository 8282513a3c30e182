package mfss

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/ingest"
	"cubeworkbench/internal/benchbook"
)

// Issue 27: MFSS scores its chunks on every core and embeds an answer with
// its sentences from one hashing (embed.SparseParts). The oracle is the
// path as it was: one chunk after another, every distinct text embedded on
// its own through EmbedSparse. The results must be the same to the bit.

// sparseOnly hides *embed.Hashed, so that MFSS takes the EmbedSparse path
// one chunk at a time, as before issue 27.
type sparseOnly struct{ h *embed.Hashed }

func (s sparseOnly) Name() string { return s.h.Name() }
func (s sparseOnly) Dim() int     { return s.h.Dim() }
func (s sparseOnly) Embed(ctx context.Context, t []string) ([][]float32, error) {
	return s.h.Embed(ctx, t)
}
func (s sparseOnly) EmbedSparse(ctx context.Context, t []string) ([]embed.Sparse, error) {
	return s.h.EmbedSparse(ctx, t)
}

// zeroing is the offline embedder with a zero vector for every text that
// holds one of its words, as a word-vector model has for words it does
// not know: it exercises the zero-vector counts, which the merge keeps.
type zeroing struct {
	sparseOnly
	words []string
}

func (z zeroing) EmbedSparse(ctx context.Context, t []string) ([]embed.Sparse, error) {
	vs, err := z.sparseOnly.EmbedSparse(ctx, t)
	for i, s := range t {
		for _, w := range z.words {
			if strings.Contains(s, w) {
				vs[i] = embed.Sparse{}
			}
		}
	}
	return vs, err
}

// mixedItems are generated questions in both languages with the answers
// MFSS treats apart: blank, absent, repeated across items, one long list,
// sentences that repeat, white space inside, invalid UTF-8, no reference.
func mixedItems(seed uint64) []dataset.Item {
	rng := rand.New(rand.NewPCG(seed, 27))
	items := append(benchbook.Workbook(600, 13, false).Items, benchbook.Workbook(400, 9, true).Items...)
	extra := []string{
		"", "  ", "见上。", "请咨询相关部门。请咨询相关部门。请咨询相关部门。",
		"材料：\n1、身份证；\n2、户口簿；\n3、照片。\n如需进一步咨询，请拨打12345。",
		"Bring two photos.  Pay the fee!\n\nAsk the office?", "The U.S. office. Dr. Smith said no. 3.5 days.",
		"无效\xff字节。第二句。", "工本费20元。  不收费。\t免费。", "Alpha beta. Alpha beta. Gamma.",
	}
	for i := range items {
		it := &items[i]
		it.Answers = map[string]string{dataset.SetRAG: it.Answers[dataset.SetRAG],
			dataset.SetZero: it.Answers[dataset.SetZero], dataset.SetFull: it.Answers[dataset.SetFull]}
		switch rng.IntN(8) {
		case 0:
			it.Answers[dataset.SetZero] = extra[rng.IntN(len(extra))]
		case 1:
			delete(it.Answers, dataset.SetFull)
		case 2:
			it.Answers[dataset.SetRAG] = it.Answers[dataset.SetRAG] + "\n" + extra[rng.IntN(len(extra))] + it.Answers[dataset.SetFull]
		case 3:
			it.Answers[dataset.SetFull] = it.Reference
		case 4:
			if rng.IntN(4) == 0 {
				it.Reference = ""
			}
		}
	}
	return items
}

func sampleItems(t *testing.T) []dataset.Item {
	t.Helper()
	path := filepath.Join(t.TempDir(), sample.FileName)
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	wb, _, err := ingest.Open(context.Background(), path, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return wb.Items
}

type run struct {
	res      *Result
	progress [][2]int
}

func evaluateWith(t *testing.T, emb embed.Embedder, items []dataset.Item, systems []string, workers int) run {
	t.Helper()
	var r run
	res, err := evaluate(context.Background(), emb, items, systems, DefaultConfig(),
		func(d, n int) { r.progress = append(r.progress, [2]int{d, n}) }, workers)
	if err != nil {
		t.Fatal(err)
	}
	r.res = res
	return r
}

// sameRun fails unless a and b are equal to the bit: every per-pair
// factor, every mean, count, flag and progress call.
func sameRun(t *testing.T, name string, a, b run) {
	t.Helper()
	if len(a.res.Items) != len(b.res.Items) {
		t.Fatalf("%s: %d and %d pairs", name, len(a.res.Items), len(b.res.Items))
	}
	for k := range a.res.Items {
		x, y := a.res.Items[k], b.res.Items[k]
		if x.ItemID != y.ItemID || x.System != y.System || !sameFactors(x.Factors, y.Factors) {
			t.Fatalf("%s: pair %d differs:\n%+v\n%+v", name, k, x, y)
		}
	}
	ja, _ := json.Marshal(a.res)
	jb, _ := json.Marshal(b.res)
	if string(ja) != string(jb) {
		t.Errorf("%s: results differ:\n%s\n%s", name, ja, jb)
	}
	if !reflect.DeepEqual(a.progress, b.progress) {
		t.Errorf("%s: progress %v, want %v", name, b.progress, a.progress)
	}
}

func sameFactors(a, b Factors) bool {
	av, bv := a.vector(), b.vector()
	for i := range av {
		if math.Float64bits(av[i]) != math.Float64bits(bv[i]) {
			return false
		}
	}
	return math.Float64bits(a.Total) == math.Float64bits(b.Total) && a.ZeroVectors == b.ZeroVectors &&
		reflect.DeepEqual(a.Missing, b.Missing)
}

func TestParallelEqualsSequential(t *testing.T) {
	h := embed.NewHashed()
	sets := []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull}
	cases := []struct {
		name    string
		items   []dataset.Item
		systems []string
	}{
		{"sample", sampleItems(t), []string{"full", "rag", "zero", "系统B"}},
		{"benchbook-zh", benchbook.Workbook(900, 19, false).Items, sets},
		{"benchbook-en", benchbook.Workbook(700, 15, true).Items, sets},
		{"mixed-1", mixedItems(1), sets},
		{"mixed-2", mixedItems(2), sets},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := evaluateWith(t, sparseOnly{h}, c.items, c.systems, 1)
			if len(want.progress) < 2 && c.name != "sample" {
				t.Fatalf("%d chunks: too few to test the merge", len(want.progress))
			}
			for _, w := range []int{1, 2, 5} {
				sameRun(t, fmt.Sprintf("hashed on %d workers", w), want, evaluateWith(t, h, c.items, c.systems, w))
			}
			got, err := Evaluate(context.Background(), h, c.items, c.systems, DefaultConfig(), nil)
			if err != nil {
				t.Fatal(err)
			}
			sameRun(t, "Evaluate", run{want.res, nil}, run{got, nil})
			// Zero vectors are counted once per text across chunks, with
			// the first examples in order: the merge's work.
			z := zeroing{sparseOnly{h}, []string{"照片", "photo", "不收费", "fee", "规定"}}
			zw := evaluateWith(t, z, c.items, c.systems, 1)
			if zw.res.ZeroVectors.Texts == 0 && c.name != "sample" {
				t.Fatal("no zero vector: the case tests nothing")
			}
			sameRun(t, "zero vectors on 3 workers", zw, evaluateWith(t, z, c.items, c.systems, 3))
		})
	}
}

// A cancelled context stops the workers and says so.
func TestParallelCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	items := benchbook.Workbook(600, 13, false).Items
	_, err := evaluate(ctx, embed.NewHashed(), items, []string{dataset.SetRAG, dataset.SetFull}, DefaultConfig(), nil, 2)
	if err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("err %v, want the cancellation", err)
	}
}
