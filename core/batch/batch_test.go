package batch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/batch"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func request(i int) llm.Request {
	seed := 7
	return llm.Request{Messages: []llm.Message{{Role: "user", Content: fmt.Sprintf("评分第 %d 条", i)}}, Temperature: 0, Seed: &seed}
}

// chatBody is a chat.completion as vLLM writes it into a result line.
func chatBody(content string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "model": "qwen",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]int{"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13},
	})
	return b
}

func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	rec := batch.NewRecorder(s, "qwen")
	cached := s.Cache(rec)
	const n = 6
	for i := 0; i < n; i++ {
		if _, err := cached.Complete(ctx, request(i)); err != llm.ErrDeferred {
			t.Fatalf("request %d: err = %v, want ErrDeferred", i, err)
		}
	}
	if rec.Count() != n {
		t.Fatalf("deferred %d", rec.Count())
	}
	var exported bytes.Buffer
	if got, err := batch.Export(ctx, s, &exported); err != nil || got != n {
		t.Fatalf("export = %d, %v", got, err)
	}
	// Every line is a batch input line with temperature on the wire.
	var keys []string
	for _, line := range strings.Split(strings.TrimSpace(exported.String()), "\n") {
		var in struct {
			CustomID string         `json:"custom_id"`
			Method   string         `json:"method"`
			URL      string         `json:"url"`
			Body     map[string]any `json:"body"`
		}
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatal(err)
		}
		if in.Method != "POST" || in.URL != "/v1/chat/completions" || in.Body["model"] != "qwen" {
			t.Fatalf("line = %s", line)
		}
		if _, ok := in.Body["temperature"]; !ok {
			t.Fatalf("temperature missing: %s", line)
		}
		keys = append(keys, in.CustomID)
	}

	// A result file in mixed OpenAI and vLLM shapes: 0, 1 and 5 succeed (5 twice,
	// the second copy a duplicate), 2 failed with HTTP 500, 3 with vLLM's plain
	// string error, 4 is missing, and one line names a key we never deferred.
	lines := []map[string]any{
		{"id": "batch_req_1", "custom_id": keys[0], "response": map[string]any{"status_code": 200, "request_id": "r", "body": chatBody("评分：8")}, "error": nil},
		{"id": "vllm-1", "custom_id": keys[1], "response": map[string]any{"status_code": 200, "request_id": "vllm-batch-1", "body": chatBody("<think>嗯</think>Score: 6")}, "error": nil},
		{"id": "batch_req_3", "custom_id": keys[2], "response": map[string]any{"status_code": 500, "body": map[string]any{"error": map[string]string{"message": "boom"}}}, "error": nil},
		{"id": "vllm-3", "custom_id": keys[3], "response": map[string]any{"status_code": 400, "request_id": "x", "body": nil}, "error": "Request must not be sent in stream mode"},
		{"id": "batch_req_5", "custom_id": keys[5], "response": map[string]any{"status_code": 200, "body": chatBody("7")}, "error": nil},
		{"id": "batch_req_5b", "custom_id": keys[5], "response": map[string]any{"status_code": 200, "body": chatBody("2")}, "error": nil},
		{"id": "batch_req_x", "custom_id": "not-ours", "response": map[string]any{"status_code": 200, "body": chatBody("1")}, "error": nil},
	}
	var result bytes.Buffer
	for _, l := range lines {
		b, _ := json.Marshal(l)
		result.Write(b)
		result.WriteByte('\n')
	}
	result.WriteString("{not json\n")

	rep, err := batch.Import(ctx, s, bytes.NewReader(result.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	want := batch.Report{Lines: 8, Imported: 3, Failed: 2, Duplicates: 1, Unknown: 1, Malformed: 1}
	if rep.Lines != want.Lines || rep.Imported != want.Imported || rep.Failed != want.Failed ||
		rep.Duplicates != want.Duplicates || rep.Unknown != want.Unknown || rep.Malformed != want.Malformed || rep.AlreadyStored != 0 {
		t.Fatalf("report = %+v", rep)
	}
	if strings.Join(rep.StillPending, ",") != strings.Join(sorted(keys[2], keys[3], keys[4]), ",") {
		t.Fatalf("still pending = %v", rep.StillPending)
	}
	// The store holds exactly the three replies, the first copy of the duplicate.
	for i, wantContent := range map[int]string{0: "评分：8", 1: "Score: 6", 5: "7"} {
		got, ok, err := s.GetReply(ctx, keys[i])
		if err != nil || !ok || got.Content != wantContent {
			t.Errorf("reply %d = %+v, %v, %v; want %q", i, got, ok, err, wantContent)
		}
	}
	if n, _ := s.CountReplies(ctx); n != 3 {
		t.Fatalf("store holds %d replies, want 3", n)
	}
	// The cache now answers the imported requests without the recorder.
	if rep, err := cached.Complete(ctx, request(0)); err != nil || !rep.Cached {
		t.Fatalf("imported reply not served from the store: %+v %v", rep, err)
	}

	// Importing the same file again changes nothing.
	again, err := batch.Import(ctx, s, bytes.NewReader(result.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if again.Imported != 0 || again.AlreadyStored != 3 || again.Failed != 2 || len(again.StillPending) != 3 {
		t.Fatalf("re-import = %+v", again)
	}
	if n, _ := s.CountReplies(ctx); n != 3 {
		t.Fatalf("re-import changed the store: %d replies", n)
	}
	// A second export carries only what is still pending.
	var second bytes.Buffer
	if got, _ := batch.Export(ctx, s, &second); got != 3 {
		t.Fatalf("second export = %d lines, want 3", got)
	}
}

func sorted(xs ...string) []string {
	out := append([]string(nil), xs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// An evaluation in batch mode defers every judge call; after the results are
// imported, the same evaluation completes without calling anything.
func TestEngineBatchCycle(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	wb := &dataset.Workbook{
		Guides: []dataset.Guide{{ID: "G1", Title: "社保卡申领", Text: "事项名称：社保卡申领\n申请材料：身份证\n办结时限：5个工作日"}},
	}
	for i := 1; i <= 3; i++ {
		it := dataset.Item{ID: fmt.Sprint("q", i), Question: "社保卡怎么办？", DocID: "G1", Retrieved: []string{"G1"}}
		it.SetAnswer(dataset.SetRAG, fmt.Sprintf("带身份证去办，%d个工作日。", i+3))
		it.SetAnswer(dataset.SetZero, "去有关部门咨询。")
		it.SetAnswer(dataset.SetFull, "需要身份证，5个工作日办结。")
		wb.Items = append(wb.Items, it)
	}
	p := profile.Default()
	p.Dimensions = []string{"relevance", "quality"}
	p.Bootstrap = 0
	p.Judges = []profile.Endpoint{{Name: "qwen", BaseURL: "http://127.0.0.1:1/v1", Model: "qwen"}}

	var rec *batch.Recorder
	deferOpts := engine.Options{Profile: p, Store: s,
		NewCompleter: func(ep profile.Endpoint) (llm.Completer, error) {
			rec = batch.NewRecorder(s, ep.Model)
			return rec, nil
		},
		Deferred: func(key string) bool { return rec.Deferred(key) },
	}
	res, err := engine.Run(ctx, cloneWB(wb), deferOpts)
	if err != nil {
		t.Fatal(err)
	}
	const tasks = 3 * 3 * 2 // items × sets × dimensions
	if res.Summary.Run.Deferred != tasks || res.Workbook.Scores.Len() != 0 || res.Summary.Run.Unscorable != 0 {
		t.Fatalf("deferred run: deferred %d, scores %d, unscorable %d", res.Summary.Run.Deferred, res.Workbook.Scores.Len(), res.Summary.Run.Unscorable)
	}
	// Identical requests (the same zero answer for every item) are one line.
	const distinct = 3*2 + 2 + 2 // rag answers differ; zero and full repeat
	var exported bytes.Buffer
	n, err := batch.Export(ctx, s, &exported)
	if err != nil || n != distinct || rec.Count() != distinct {
		t.Fatalf("export = %d (recorder %d), %v; want %d", n, rec.Count(), err, distinct)
	}
	// The "cluster" answers every line with a score.
	var result bytes.Buffer
	for i, line := range strings.Split(strings.TrimSpace(exported.String()), "\n") {
		var in struct {
			CustomID string `json:"custom_id"`
		}
		_ = json.Unmarshal([]byte(line), &in)
		b, _ := json.Marshal(map[string]any{"custom_id": in.CustomID, "response": map[string]any{"status_code": 200, "body": chatBody(fmt.Sprintf("评分：%d", 3+i%6))}, "error": nil})
		result.Write(append(b, '\n'))
	}
	if rep, err := batch.Import(ctx, s, &result); err != nil || rep.Imported != distinct || len(rep.StillPending) != 0 {
		t.Fatalf("import = %+v, %v", rep, err)
	}
	// Offline: the store answers every request, so no endpoint is needed.
	final, err := engine.Run(ctx, cloneWB(wb), engine.Options{Profile: p, Store: s, Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if final.Summary.Run.Calls != 0 || final.Workbook.Scores.Len() != tasks || final.Summary.Run.Cached != tasks {
		t.Fatalf("final run: calls %d, scores %d, cached %d", final.Summary.Run.Calls, final.Workbook.Scores.Len(), final.Summary.Run.Cached)
	}
	// An offline run that would need a call stops with ErrOffline.
	extra := cloneWB(wb)
	extra.Items[0].SetAnswer(dataset.SetRAG, "一个新的回答")
	if _, err := engine.Run(ctx, extra, engine.Options{Profile: p, Store: s, Offline: true}); !errors.Is(err, engine.ErrOffline) {
		t.Fatalf("offline run needing a call: err = %v", err)
	}
	for j := range final.Workbook.Scores.Values() {
		if !j.OK() {
			t.Fatalf("judgement not ok: %+v", j)
		}
	}
}

func cloneWB(wb *dataset.Workbook) *dataset.Workbook {
	c := *wb
	c.Items = make([]dataset.Item, len(wb.Items))
	for i, it := range wb.Items {
		it.Answers = map[string]string{}
		for k, v := range wb.Items[i].Answers {
			it.Answers[k] = v
		}
		c.Items[i] = it
	}
	c.Scores = dataset.Scores{}
	return &c
}

// A batch Prepare defers the bound answers it needs; a deferred request is
// no endpoint call and no failure. The run's counts, in the store and in the
// events, say so (the bounds step once counted each as a failed call).
func TestPrepareCountsDeferredBoundsAsNoCalls(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	wb := &dataset.Workbook{Guides: []dataset.Guide{{ID: "G1", Title: "社保卡申领", Text: "申请材料：身份证"}}}
	for i := 1; i <= 2; i++ {
		it := dataset.Item{ID: fmt.Sprint("q", i), Question: fmt.Sprintf("社保卡第%d问？", i), DocID: "G1", Retrieved: []string{"G1"}}
		it.SetAnswer(dataset.SetRAG, "带身份证去办。")
		wb.Items = append(wb.Items, it)
	}
	p := profile.Default()
	p.Dimensions = []string{"relevance"}
	p.Bootstrap = 0
	p.Generator = &profile.Endpoint{Name: "gen", BaseURL: "http://127.0.0.1:1/v1", Model: "gen"}
	p.Judges = []profile.Endpoint{{Name: "qwen", BaseURL: "http://127.0.0.1:1/v1", Model: "qwen"}}
	var boundsEvent engine.Event
	var out bytes.Buffer
	n, err := batch.Prepare(ctx, wb, engine.Options{Profile: p, Store: s,
		Progress: engine.ProgressFunc(func(e engine.Event) {
			if e.Step == engine.StepBounds && e.Finished {
				boundsEvent = e
			}
		})}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 { // two zero and two full answers, two judgements of the rag answers
		t.Fatalf("Prepare wrote %d requests, want 6", n)
	}
	runs, err := s.Runs(ctx)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs = %v, %v", runs, err)
	}
	if c := runs[0].Counts; c.Calls != 0 || c.Failed != 0 {
		t.Errorf("store counts calls=%d failed=%d, want 0 and 0 (nothing was called)", c.Calls, c.Failed)
	}
	if boundsEvent.Calls != 0 || boundsEvent.Failed != 0 || boundsEvent.Done != 4 {
		t.Errorf("bounds event %+v, want 4 done, 0 calls, 0 failed", boundsEvent)
	}
}
