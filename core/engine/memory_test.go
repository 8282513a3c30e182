package engine

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/text"
)

// liveHeap is the live heap after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The judgements the judging stage leaves in the workbook are its largest
// object at 100,000 questions (2.4 million of them; 136 bytes each as a
// []dataset.Judgement, 326 MB). Issue 27: they are held in columns, at
// most 24 bytes a judgement of the offline judges, measured as the live
// heap the workbook's scores hold (what letting go of them frees).
func TestJudgingHoldsJudgementsCompactly(t *testing.T) {
	const items = 2000
	wb := buildWorkbook(items)
	p := testProfile(profile.Endpoint{Name: "lexical", Lexical: true}, profile.Endpoint{Name: "semantic", Semantic: true})
	r := &runner{opt: Options{Profile: p, Store: openStore(t, ""), Progress: NoProgress}, wb: wb, lang: text.Lang(p.Language), meter: &llm.Meter{}}
	judges, err := r.judges()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.judgeAll(context.Background(), judges); err != nil {
		t.Fatal(err)
	}
	// Read through reflect so that the test says the same of the slice
	// the scores were before.
	scores := reflect.ValueOf(&wb.Scores).Elem()
	n := 0
	if scores.Kind() == reflect.Slice {
		n = scores.Len()
	} else {
		n = int(scores.Addr().MethodByName("Len").Call(nil)[0].Int())
	}
	if want := items * 3 * 4 * 2; n != want {
		t.Fatalf("%d judgements, want %d", n, want)
	}
	held := liveHeap()
	scores.SetZero()
	freed := float64(held-min(held, liveHeap())) / float64(n)
	t.Logf("%d judgements hold %.1f bytes each", n, freed)
	if freed > 24 {
		t.Errorf("the workbook's judgements hold %.1f bytes each; want at most 24", freed)
	}
	runtime.KeepAlive(wb)
}

// haveJudgements answers for the workbook's own judgements exactly (a
// repeat of 0 is the first), and holds each in a few dozen bytes: a
// report's scores sheet read back holds 2.4 million of them at 100,000
// questions.
func TestHaveJudgements(t *testing.T) {
	var scores dataset.Scores
	scores.Add(dataset.Judgement{ItemID: "q1", Set: "rag", Judge: "j", Dimension: "relevance", Repeat: 0})
	scores.Add(dataset.Judgement{ItemID: "q1", Set: "zero", Judge: "j", Dimension: "relevance", Repeat: 2})
	scores.Add(dataset.Judgement{ItemID: "rag", Set: "q1", Judge: "j", Dimension: "relevance", Repeat: 1})
	h := haveJudgements(&scores)
	for _, c := range []struct {
		id, set, judge, dim string
		rep                 int
		want                bool
	}{
		{"q1", "rag", "j", "relevance", 1, true},
		{"q1", "rag", "j", "relevance", 2, false},
		{"q1", "zero", "j", "relevance", 2, true},
		{"q1", "zero", "j", "relevance", 1, false},
		{"rag", "q1", "j", "relevance", 1, true},
		{"q1", "full", "j", "relevance", 1, false},
		{"q1", "rag", "k", "relevance", 1, false},
		{"q1", "rag", "j", "quality", 1, false},
		{"q2", "rag", "j", "relevance", 1, false},
	} {
		if got := h.has(c.id, c.set, c.judge, c.dim, c.rep); got != c.want {
			t.Errorf("has(%s, %s, %s, %s, %d) = %v, want %v", c.id, c.set, c.judge, c.dim, c.rep, got, c.want)
		}
	}
	if haveJudgements(&dataset.Scores{}).has("q1", "rag", "j", "relevance", 1) {
		t.Error("an empty workbook has a judgement")
	}

	const items = 20_000
	var many dataset.Scores
	for i := range items {
		for _, set := range []string{"rag", "zero", "full"} {
			for _, dim := range fourDims {
				many.Add(dataset.Judgement{ItemID: fmt.Sprintf("q%06d", i), Set: set, Judge: "qwen", Dimension: dim, Repeat: 1})
			}
		}
	}
	before := liveHeap()
	h = haveJudgements(&many)
	per := float64(liveHeap()-min(before, liveHeap())) / float64(many.Len())
	t.Logf("%d judgements had: %.1f bytes each", many.Len(), per)
	if per > 48 {
		t.Errorf("the judgements had take %.1f bytes each; want at most 48", per)
	}
	runtime.KeepAlive(h)
}
