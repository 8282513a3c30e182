package engine

import (
	"context"
	"reflect"
	"runtime"
	"testing"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
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
	r := &runner{opt: Options{Profile: p, Store: openStore(t, ""), Progress: NoProgress}, wb: wb, lang: p.Language, meter: &llm.Meter{}}
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
