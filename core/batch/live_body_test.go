package batch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"cubeworkbench/core/batch"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
)

// TestExportSendsTheLiveBody: Prepare on a vLLM judge (port 8000, as the
// engine's live client detects it) writes bodies identical to the ones a
// live call sends, thinking switch (chat_template_kwargs.enable_thinking =
// false) included; the old export built its own body without it, so a
// Qwen3 batch thought while live judging did not.
func TestExportSendsTheLiveBody(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	wb := &dataset.Workbook{Systems: []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull},
		Guides: []dataset.Guide{{ID: "G1", Title: "社保卡", Text: "持身份证办理，5个工作日。"}}}
	it := dataset.Item{ID: "q1", Question: "社保卡怎么办？", DocID: "G1", Retrieved: []string{"G1"}}
	it.SetAnswer(dataset.SetRAG, "带身份证去办。")
	it.SetAnswer(dataset.SetZero, "去有关部门咨询。")
	it.SetAnswer(dataset.SetFull, "需要身份证，5个工作日办结。")
	wb.Items = append(wb.Items, it)
	p := profile.Default()
	p.Dimensions = []string{"relevance"}
	p.Bootstrap = 0
	judge := profile.Endpoint{Name: "qwen3", BaseURL: "http://127.0.0.1:8000/v1", Model: "Qwen/Qwen3-8B"}
	p.Judges = []profile.Endpoint{judge}
	var out bytes.Buffer
	n, err := batch.Prepare(ctx, wb, engine.Options{Profile: p, Store: s}, &out)
	if err != nil || n != 3 {
		t.Fatalf("prepare = %d, %v", n, err)
	}
	pending, err := s.PendingRequests(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reqs := map[string]llm.Request{}
	for _, pr := range pending {
		reqs[pr.Key] = pr.Request
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var in struct {
			CustomID string          `json:"custom_id"`
			Body     json.RawMessage `json:"body"`
		}
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatal(err)
		}
		live, err := llm.ChatBody(llm.Endpoint{Name: judge.Name, BaseURL: judge.BaseURL, Model: judge.Model}, reqs[in.CustomID])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(in.Body, live) {
			t.Fatalf("batch body %s\nlive body  %s", in.Body, live)
		}
		if !bytes.Contains(in.Body, []byte(`"chat_template_kwargs":{"enable_thinking":false}`)) {
			t.Fatalf("thinking switch missing: %s", in.Body)
		}
	}
}

// TestVLLMNestedErrorReadable: vLLM's run_batch (vllm/entrypoints/openai/
// run_batch.py, run_request) puts an ErrorResponse in the line's "error"
// with response.status_code = error.code and no body; ErrorResponse is
// {"error": {"message", "type", "param", "code"}} (protocol.py ErrorInfo).
// The reason must read as status, type and message, not as raw JSON.
func TestVLLMNestedErrorReadable(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	rec := batch.NewRecorder(s, "qwen")
	cached := s.Cache(rec)
	for i := range 3 {
		cached.Complete(ctx, request(i))
	}
	var keys []string
	pending, _ := s.PendingRequests(ctx)
	for _, p := range pending {
		keys = append(keys, p.Key)
	}
	msg := "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (5000 in the messages, 120 in the completion). Please reduce the length of the messages or completion."
	lines := []map[string]any{
		{"id": "vllm-a", "custom_id": keys[0], "response": map[string]any{"status_code": 400, "request_id": "vllm-batch-a", "body": nil},
			"error": map[string]any{"error": map[string]any{"message": msg, "type": "BadRequestError", "param": nil, "code": 400}}},
		// Old vLLM's flat ErrorResponse {object, message, type, param, code}.
		{"id": "vllm-b", "custom_id": keys[1], "response": map[string]any{"status_code": 400, "request_id": "vllm-batch-b", "body": nil},
			"error": map[string]any{"object": "error", "message": msg, "type": "BadRequestError", "param": nil, "code": 400}},
		// OpenAI: the error sits in the response body.
		{"id": "batch_req_c", "custom_id": keys[2], "response": map[string]any{"status_code": 400, "request_id": "req_c",
			"body": map[string]any{"error": map[string]any{"message": "Invalid 'messages'.", "type": "invalid_request_error", "param": "messages", "code": "invalid_value"}}}, "error": nil},
	}
	var in bytes.Buffer
	for _, l := range lines {
		b, _ := json.Marshal(l)
		in.Write(append(b, '\n'))
	}
	rep, err := batch.Import(ctx, s, &in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		keys[0]: "HTTP 400 (BadRequestError): " + msg,
		keys[1]: "HTTP 400 (BadRequestError): " + msg,
		keys[2]: "HTTP 400 (invalid_value): Invalid 'messages'.",
	}
	if rep.Failed != 3 || len(rep.Failures) != 3 {
		t.Fatalf("report %+v", rep)
	}
	for _, f := range rep.Failures {
		if f.Reason != want[f.Key] {
			t.Errorf("line %d reason\n got %q\nwant %q", f.Line, f.Reason, want[f.Key])
		}
	}
}
