package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cubeworkbench/core/cofe"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/internal/fakeai"
)

// fakeRAGFlow replays RAGFlow's chat API (sessions, then a non-streaming
// completion with reference chunks naming documents by an internal id and
// a file name). Questions listed in fail get HTTP 500 every time while
// failing is set.
type fakeRAGFlow struct {
	failing atomic.Bool
	fail    map[int]bool

	mu    sync.Mutex
	asked []int // item numbers of completion requests, in arrival order
}

var itemNumber = regexp.MustCompile(`第(\d+)号`)

func (f *fakeRAGFlow) handler(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(r.URL.Path, "/sessions"):
		io.WriteString(w, `{"code":0,"data":{"id":"sess-1","chat_id":"chat1","name":"cube-eval","messages":[{"role":"assistant","content":"您好！"}]}}`)
	case strings.HasSuffix(r.URL.Path, "/completions"):
		var req struct {
			Question  string `json:"question"`
			SessionID string `json:"session_id"`
		}
		json.Unmarshal(body, &req)
		m := itemNumber.FindStringSubmatch(req.Question)
		if m == nil || req.SessionID == "" {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"code":101,"message":"bad request"}`)
			return
		}
		n, _ := strconv.Atoi(m[1])
		f.mu.Lock()
		f.asked = append(f.asked, n)
		f.mu.Unlock()
		if f.failing.Load() && f.fail[n] {
			// Retry-After keeps the connector's own retries quick.
			w.Header().Set("Retry-After", "0.001")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"code":100,"message":"Internal Server Error: LLM timeout"}`)
			return
		}
		gold, other := fmt.Sprintf("G%04d", n), fmt.Sprintf("G%04d", n%ragItems+1)
		chunk := func(id, doc string, sim float64) map[string]any {
			return map[string]any{"id": id, "content": doc + " 的片段", "document_id": "hash-" + doc,
				"document_name": doc + ".txt", "dataset_id": "ds1", "similarity": sim, "positions": [][]int{{1, 2, 3, 4, 5}}}
		}
		var chunks []map[string]any
		switch (n - 1) % 4 { // the same pattern as buildWorkbook's
		case 0:
			chunks = append(chunks, chunk("c1", gold, 0.9), chunk("c2", gold, 0.8), chunk("c3", other, 0.5))
		case 1:
			chunks = append(chunks, chunk("c1", other, 0.9), chunk("c2", gold, 0.6))
		case 2:
			chunks = append(chunks, chunk("c1", other, 0.7))
		case 3:
			chunks = append(chunks, chunk("c1", gold, 0.9))
		}
		reply := map[string]any{"code": 0, "data": map[string]any{
			"answer":     fmt.Sprintf("<think>查找中</think>办理第%d号业务需要身份证 [ID:0]，%d个工作日办结##1$$。", n, (n-1)%20+1),
			"session_id": req.SessionID, "id": "a1", "prompt": "…", "created_at": 1755055623.6,
			"reference": map[string]any{"total": len(chunks), "chunks": chunks, "doc_aggs": []any{}},
		}}
		json.NewEncoder(w).Encode(reply)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeRAGFlow) askedSince(from int) []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := append([]int(nil), f.asked[from:]...)
	sort.Ints(out)
	return out
}

const ragItems = 20

// generatorResponder answers bound questions: with the gold document in
// the prompt (the full set) from the document, without it (zero) vaguely.
func generatorResponder(req fakeai.ChatRequest) fakeai.Response {
	text := ""
	for _, m := range req.Messages {
		text += m.Content
	}
	n := "?"
	if m := itemNumber.FindStringSubmatch(text); m != nil {
		n = m[1]
	}
	if strings.Contains(text, "受理条件") {
		return fakeai.Response{Content: "根据指南，第" + n + "号业务持身份证办理。"}
	}
	return fakeai.Response{Content: "第" + n + "号业务请咨询当地部门。"}
}

// judgeResponder scores zero answers low, full answers high and the
// system's in between, with noise from a hash of the model and the
// messages; the model "flat" gives every answer 7, so its bounds collapse
// and its CuBE is undefined. CoFE's generation rubrics get their own
// scales: a verdict for faithfulness and relevancy, 1–5 for correctness.
func judgeResponder(req fakeai.ChatRequest) fakeai.Response {
	h := fakeai.Score(append(req.Messages, fakeai.Message{Content: req.Model})) // 1..10
	text := ""
	for _, m := range req.Messages {
		text += m.Content
	}
	switch {
	case strings.Contains(text, "结论：YES"):
		if h%3 == 0 {
			return fakeai.Response{Content: "结论：NO"}
		}
		return fakeai.Response{Content: "结论：YES"}
	case strings.Contains(text, "<<<REFERENCE"):
		return fakeai.Response{Content: fmt.Sprintf("评分：%d", 1+h%5)}
	case req.Model == "flat":
		return fakeai.Response{Content: "评分：7"}
	}
	score := 4 + h%5 // rag: 4..8
	switch {
	case strings.Contains(text, "请咨询当地部门"):
		score = 1 + h%3
	case strings.Contains(text, "根据指南"):
		score = 8 + h%3
	}
	return fakeai.Response{Content: fmt.Sprintf("评分：%d", score)}
}

// withCoFESlots adds CoFE's generation dimensions for every rag answer with
// a reference to the slots of every judge.
func withCoFESlots(wb *dataset.Workbook, slots map[tkey]bool, judges ...string) map[tkey]bool {
	for _, it := range wb.Items {
		if it.Answer(dataset.SetRAG) == "" || it.Reference == "" {
			continue
		}
		for _, j := range judges {
			for _, d := range cofe.GenerationDimensions {
				slots[tkey{it.ID, dataset.SetRAG, j, d, 1}] = true
			}
		}
	}
	return slots
}

// TestEvaluateEndToEndWithFailingTarget: questions only → answers collected
// from a RAGFlow that fails for two questions → zero and full sets from a
// generator → three judges → CuBE, MFSS, CoFE. The failures are reported,
// not lost; a second run with the target fixed asks only those two again,
// makes no generator call and judges only their new answers. SUMMARY.json
// carries the cli.md fields, with null where a value is undefined.
func TestEvaluateEndToEndWithFailingTarget(t *testing.T) {
	base := buildWorkbook(ragItems)
	for i := range base.Items {
		it := &base.Items[i]
		it.Answers, it.Retrieved = nil, nil // to be collected and generated
		it.Reference = fmt.Sprintf("办理第%d号业务需要身份证。", i+1)
		it.Coarse = []string{fmt.Sprintf("第%d号业务", i+1)}
	}
	rf := &fakeRAGFlow{fail: map[int]bool{3: true, 7: true}}
	rf.failing.Store(true)
	target := httptest.NewServer(http.HandlerFunc(rf.handler))
	defer target.Close()
	gen := fakeai.New(t, fakeai.WithResponder(generatorResponder))
	judges := fakeai.New(t, fakeai.WithResponder(judgeResponder))

	p := testProfile(
		profile.Endpoint{Name: "judge-a", BaseURL: judges.URL(), Model: "qwen-a", Concurrency: 4},
		profile.Endpoint{Name: "judge-b", BaseURL: judges.URL(), Model: "qwen-b", Concurrency: 4},
		profile.Endpoint{Name: "flat", BaseURL: judges.URL(), Model: "flat", Concurrency: 4},
	)
	p.Generator = &profile.Endpoint{Name: "gen", BaseURL: gen.URL(), Model: "gen-model", Concurrency: 4}
	p.Target = &profile.Target{Kind: "ragflow", BaseURL: target.URL, ChatID: "chat1", Concurrency: 4}
	st := openStore(t, "")
	opt := Options{Profile: p, Store: st, NewCompleter: fastCompleter(5*time.Second, 1, nil, nil), Version: "test"}

	wb := cloneWorkbook(base)
	entry := wb.Items // the caller's array, which the session shares: Run must not write into it
	res, err := Run(context.Background(), wb, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range entry {
		if len(it.Answers) > 0 || len(it.Retrieved) > 0 {
			t.Fatalf("%s: Run wrote into the items' array it was given: answers %v, retrieved %v", it.ID, it.Answers, it.Retrieved)
		}
	}
	var failedIDs []string
	for _, pr := range res.Summary.Problems {
		if pr.Step != StepCollect {
			t.Errorf("unexpected problem %+v", pr)
			continue
		}
		failedIDs = append(failedIDs, pr.ItemID)
		if !strings.Contains(pr.Reason, "500") {
			t.Errorf("collect problem without the HTTP status: %+v", pr)
		}
	}
	sort.Strings(failedIDs)
	if fmt.Sprint(failedIDs) != "[q0003 q0007]" {
		t.Errorf("collect problems for %v, want [q0003 q0007]", failedIDs)
	}
	for _, it := range res.Workbook.Items {
		failed := it.ID == "q0003" || it.ID == "q0007"
		if got := it.Answer(dataset.SetRAG); (got == "") != failed {
			t.Errorf("%s: rag answer %q after a run where it failed=%v", it.ID, got, failed)
		}
		if it.Answer(dataset.SetZero) == "" || it.Answer(dataset.SetFull) == "" {
			t.Errorf("%s: bounds missing: %v", it.ID, it.Answers)
		}
	}
	if q1 := res.Workbook.Items[0]; q1.Answer(dataset.SetRAG) != "办理第1号业务需要身份证，1个工作日办结。" ||
		fmt.Sprint(q1.Retrieved) != "[G0001 G0002]" || len(q1.Contexts) != 3 {
		t.Errorf("q0001 collected as %q retrieved %v contexts %d; want the cleaned answer and guide ids",
			q1.Answer(dataset.SetRAG), q1.Retrieved, len(q1.Contexts))
	}
	judgeNames := []string{"judge-a", "judge-b", "flat"}
	first := withCoFESlots(res.Workbook, expectedSlots(res.Workbook, map[string]int{"judge-a": 1, "judge-b": 1, "flat": 1}), judgeNames...)
	checkExactlyOnce(t, "first run", res.Workbook.Scores, first)

	// Second run: the target is fixed; a new process reads the same
	// workbook and store.
	rf.failing.Store(false)
	askedBefore := len(rf.askedSince(0))
	genBefore, judgeBefore := gen.Requests(), judges.Requests()
	res, err = Run(context.Background(), cloneWorkbook(base), opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := rf.askedSince(askedBefore); fmt.Sprint(got) != "[3 7]" {
		t.Errorf("second run asked the target for items %v, want only [3 7]", got)
	}
	if n := gen.Requests() - genBefore; n != 0 {
		t.Errorf("second run made %d generator calls; the bounds were in the store", n)
	}
	if n, want := judges.Requests()-judgeBefore, 3*(4+3)*2; n != want {
		t.Errorf("second run made %d judge calls, want %d (3 judges × 4 CuBE and 3 CoFE dimensions × 2 new rag answers)", n, want)
	}
	if len(res.Summary.Problems) != 0 {
		t.Errorf("problems after the target was fixed: %+v", res.Summary.Problems)
	}
	all := withCoFESlots(res.Workbook, expectedSlots(res.Workbook, map[string]int{"judge-a": 1, "judge-b": 1, "flat": 1}), judgeNames...)
	if len(all) != ragItems*3*(3*4+3) {
		t.Fatalf("%d slots after the second run, want every item's three sets", len(all))
	}
	checkExactlyOnce(t, "second run", res.Workbook.Scores, all)

	raw, err := json.Marshal(res.Summary)
	if err != nil {
		t.Fatalf("SUMMARY does not encode: %v", err)
	}
	if strings.Contains(string(raw), "NaN") {
		t.Error("SUMMARY holds NaN")
	}
	var sum map[string]any
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	// buildWorkbook's pattern retrieves the gold document for 3 of 4 items.
	if sum["items"] != float64(ragItems) || sum["retrieved"] != float64(15) || sum["recall_at_k"] != 0.75 ||
		sum["top_n"] != float64(8) || sum["subset"] != "retrieved" || sum["trim"] != 0.1 {
		t.Errorf("headline fields: items %v retrieved %v recall_at_k %v top_n %v subset %v trim %v",
			sum["items"], sum["retrieved"], sum["recall_at_k"], sum["top_n"], sum["subset"], sum["trim"])
	}
	if fmt.Sprint(sum["dimensions"]) != fmt.Sprint(fourDims) {
		t.Errorf("dimensions %v", sum["dimensions"])
	}
	js, _ := sum["judges"].([]any)
	byName := map[string]map[string]any{}
	for _, j := range js {
		m := j.(map[string]any)
		byName[fmt.Sprint(m["judge"])] = m
		for _, f := range []string{"weights", "weight_source", "correlation_all", "correlation_retrieved",
			"trimmed_means", "normalized", "cube", "cube_ci95", "unscorable", "flags"} {
			if _, ok := m[f]; !ok {
				t.Errorf("judge %v: no field %q", m["judge"], f)
			}
		}
		w, _ := m["weights"].(map[string]any)
		total := 0.0
		for _, d := range fourDims {
			v, ok := w[d].(float64)
			if !ok || v < 0 {
				t.Errorf("judge %v: weight %s = %v", m["judge"], d, w[d])
			}
			total += v
		}
		if math.Abs(total-1) > 1e-9 {
			t.Errorf("judge %v: weights sum to %v", m["judge"], total)
		}
	}
	if len(byName) != 3 {
		t.Fatalf("judges in SUMMARY: %v", js)
	}
	var cubes []float64
	for _, name := range []string{"judge-a", "judge-b"} {
		c, ok := byName[name]["cube"].(float64)
		if !ok {
			t.Errorf("%s: cube %v, want a number", name, byName[name]["cube"])
		}
		cubes = append(cubes, c)
	}
	flat := byName["flat"]
	if flat["cube"] != nil || flat["cube_ci95"] != nil {
		t.Errorf("flat judge (all 7s, bounds collapse): cube %v ci %v, want null", flat["cube"], flat["cube_ci95"])
	}
	if norm, _ := flat["normalized"].(map[string]any); norm == nil || norm["weighted"] != nil || norm["relevance"] != nil {
		t.Errorf("flat judge: normalized %v, want null values", flat["normalized"])
	}
	if corr, _ := flat["correlation_all"].(map[string]any); corr == nil || corr["relevance"] != nil {
		t.Errorf("flat judge: correlation_all %v, want null (zero variance)", flat["correlation_all"])
	}
	agg, _ := sum["aggregate"].(map[string]any)
	cube, _ := agg["cube"].(map[string]any)
	mean, ok := cube["mean"].(float64)
	if !ok || math.Abs(mean-(cubes[0]+cubes[1])/2) > 1e-9 {
		t.Errorf("aggregate.cube.mean %v, want the mean of %v (the flat judge has none)", cube["mean"], cubes)
	}
	if sd, ok := cube["sd"].(float64); !ok || math.Abs(sd-math.Abs(cubes[0]-cubes[1])/math.Sqrt2) > 1e-9 {
		t.Errorf("aggregate.cube.sd %v for judges %v", cube["sd"], cubes)
	}
	if _, ok := agg["normalized"].(map[string]any)["weighted"]; !ok {
		t.Errorf("aggregate.normalized has no weighted entry: %v", agg["normalized"])
	}
	if mf, _ := sum["mfss"].(map[string]any); mf == nil || mf["systems"].(map[string]any)["rag"] == nil {
		t.Errorf("mfss.systems.rag missing: %v", sum["mfss"])
	}
	if cf, _ := sum["cofe"].(map[string]any); cf == nil || cf["k"] != float64(4) {
		t.Errorf("cofe.k missing: %v", sum["cofe"])
	}
}
