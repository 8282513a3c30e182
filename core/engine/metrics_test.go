package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"cubeworkbench/core/embed"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// metricsRun is what one metrics call left: the summary as JSON, its
// warnings, the metrics step's progress and the error.
type metricsRun struct {
	summary  string
	warnings []result.Warning
	done     []int // the Done of each event of the metrics step (label "")
	finished bool
	err      error
}

func runMetrics(t *testing.T, r *runner, p profile.Profile, together bool) metricsRun {
	t.Helper()
	var mu sync.Mutex
	var m metricsRun
	r.opt.Progress = ProgressFunc(func(ev Event) {
		if ev.Step != StepMetrics || ev.Label != "" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if ev.Finished {
			m.finished = true
			return
		}
		m.done = append(m.done, ev.Done)
	})
	sum := &result.Summary{}
	m.err = r.metricsWith(context.Background(), p, sum, together)
	if m.err == nil {
		b, err := json.Marshal(sum)
		if err != nil {
			t.Fatal(err)
		}
		m.summary, m.warnings = string(b), sum.Warnings
	}
	return m
}

// failingEmbedder fails every call, so that MFSS fails after CuBE ran.
type failingEmbedder struct{}

func (failingEmbedder) Name() string { return "failing" }
func (failingEmbedder) Dim() int     { return 4 }
func (failingEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("embedding endpoint down")
}

// Issue 27: CuBE runs beside MFSS, the baselines and CoFE-RAG on
// more than one core. The summary (every figure, warning and its order),
// the step's progress and the errors are those of running them one after
// another.
func TestMetricsTogetherEqualsOneByOne(t *testing.T) {
	wb := buildWorkbook(150)
	for i := range wb.Items {
		if i%5 != 4 {
			wb.Items[i].Reference = fmt.Sprintf("办理第%d号业务持身份证，%d个工作日办结。", i+1, i%20+1)
		}
		if i%3 == 0 {
			wb.Items[i].Coarse = []string{fmt.Sprintf("第%d号业务", i+1), "身份证"}
		}
		if i%7 == 0 {
			wb.Items[i].SetAnswer("系统B", "请咨询当地政务服务中心。请咨询当地政务服务中心。")
		}
		if i%11 == 0 {
			wb.Items[i].SetAnswer("zero", "") // a blank answer: MFSS scores 0, baselines skip the item
		}
	}
	p := testProfile(profile.Endpoint{Name: "lexical", Lexical: true}, profile.Endpoint{Name: "semantic", Semantic: true})
	p.Bootstrap = 200
	r := &runner{opt: Options{Profile: p, Store: openStore(t, ""), Progress: NoProgress}, wb: wb, lang: text.Lang(p.Language),
		meter: &llm.Meter{}, emb: embed.NewHashed()}
	judges, err := r.judges()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.judgeAll(context.Background(), judges); err != nil {
		t.Fatal(err)
	}
	check := func(name string, p profile.Profile) {
		t.Helper()
		want, got := runMetrics(t, r, p, false), runMetrics(t, r, p, true)
		if fmt.Sprint(want.err) != fmt.Sprint(got.err) {
			t.Fatalf("%s: error %v, want %v", name, got.err, want.err)
		}
		if want.err == nil && (want.summary == "" || got.summary != want.summary) {
			t.Errorf("%s: summaries differ (%d and %d bytes)", name, len(got.summary), len(want.summary))
		}
		if !reflect.DeepEqual(got.warnings, want.warnings) {
			t.Errorf("%s: warnings %v, want %v", name, got.warnings, want.warnings)
		}
		if want.err == nil && (!reflect.DeepEqual(got.done, want.done) || got.finished != want.finished) {
			t.Errorf("%s: progress %v (finished %v), want %v (%v)", name, got.done, got.finished, want.done, want.finished)
		}
	}
	check("offline embedder", p)
	q := p
	q.MFSS.Weights = map[string]float64{"accuracy": 1, "rouge": 2}
	check("MFSS weights", q)
	q.MFSS.Weights = map[string]float64{"beauty": 1}
	check("unknown MFSS factor", q)
	r.emb = failingEmbedder{} // MFSS fails while CuBE runs beside it
	check("embedder down", p)
	if m := runMetrics(t, r, p, true); m.err == nil {
		t.Error("a failing embedder gave no error")
	}
}
