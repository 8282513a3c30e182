package engine

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
	"cubeworkbench/internal/fakeai"
)

// Markers put into some rag answers make the fake judge misbehave on every
// request about that answer, so those judgements can only end unscorable.
const (
	markGarbage   = "【乱码】"
	markEleven    = "【十一分】"
	markEmpty     = "【无选项】"
	markMalformed = "【坏JSON】"
)

func markedResponder(req fakeai.ChatRequest) fakeai.Response {
	text := ""
	for _, m := range req.Messages {
		text += m.Content
	}
	switch {
	case strings.Contains(text, markGarbage):
		return fakeai.Response{Content: "这个回答我无法评价。I cannot rate this."}
	case strings.Contains(text, markEleven):
		return fakeai.Response{Content: "评分：11"}
	case strings.Contains(text, markEmpty):
		return fakeai.Response{NoChoices: true}
	case strings.Contains(text, markMalformed):
		return fakeai.Response{RawBody: `{"choices":[{"message":{"content":"Score: 5"`}
	}
	return fakeai.DefaultResponse(req)
}

// TestFaultsEveryJudgementEndsScoredOrUnscorable runs a whole evaluation
// against a judge endpoint that answers 429 with Retry-After, 500s, replies
// slower than the timeout, malformed JSON, empty choices, garbage text and a
// score of 11, at random and for whole items. Every judgement slot must end
// exactly once, as a score the reply really holds or as unscorable with a
// reason, and every count must agree.
func TestFaultsEveryJudgementEndsScoredOrUnscorable(t *testing.T) {
	const n = 20
	wb := buildWorkbook(n)
	marks := map[string]string{} // item → marker in its rag answer
	for i, m := range []string{markGarbage, markEleven, markEmpty, markMalformed} {
		it := &wb.Items[2*i+1]
		it.SetAnswer(dataset.SetRAG, it.Answer(dataset.SetRAG)+m)
		marks[it.ID] = m
	}
	srv := fakeai.New(t, fakeai.WithResponder(markedResponder), fakeai.WithSlowDelay(5*time.Second),
		fakeai.WithRetryAfter("1"),
		fakeai.WithScript(fakeai.RateLimited, fakeai.ServerError, fakeai.Slow, fakeai.Malformed,
			fakeai.EmptyChoices, fakeai.Garbage, fakeai.OutOfRange),
		fakeai.WithFaultRates(7, map[fakeai.Fault]float64{
			fakeai.RateLimited: 0.08, fakeai.ServerError: 0.08, fakeai.Slow: 0.03, fakeai.Malformed: 0.04,
			fakeai.EmptyChoices: 0.03, fakeai.Garbage: 0.06, fakeai.OutOfRange: 0.06,
		}))
	var calls atomic.Int64
	sleeps := &sleepRecorder{}
	st := openStore(t, "")
	p := testProfile(profile.Endpoint{Name: "qwen", BaseURL: srv.URL(), Model: "qwen-fake", Concurrency: 8, Repeats: 2})
	res, err := Run(context.Background(), wb, Options{Profile: p, Store: st,
		NewCompleter: fastCompleter(200*time.Millisecond, 2, sleeps.sleep, &calls)})
	if err != nil {
		t.Fatal(err)
	}
	want := expectedSlots(wb, map[string]int{"qwen": 2})
	checkExactlyOnce(t, "workbook", res.Workbook.Scores, want)
	stored, err := st.Judgements(context.Background(), store.JudgementFilter{})
	if err != nil {
		t.Fatal(err)
	}
	checkExactlyOnce(t, "store", dataset.ScoresOf(stored...), want)

	ok, unscorable := 0, 0
	codes := map[string]int{}
	for j := range res.Workbook.Scores.Values() {
		d, _ := judge.Builtin(j.Dimension)
		switch j.Status {
		case dataset.StatusOK:
			ok++
			// The fake judge scores 1..10; a 0, a fraction or a score the
			// raw reply does not hold would be a failure read as a score.
			if j.Score < 1 || j.Score > 10 || j.Score != math.Trunc(j.Score) || j.Reason != "" {
				t.Errorf("%v: ok with score %v reason %q", keyOf(j), j.Score, j.Reason)
			}
			if s, good, _ := judge.Reparse(j.Raw, d); !good || s != j.Score {
				t.Errorf("%v: score %v but raw %q parses to %v, %v", keyOf(j), j.Score, j.Raw, s, good)
			}
			if m := marks[j.ItemID]; m != "" && j.Set == dataset.SetRAG {
				t.Errorf("%v: answer marked %s was scored %v from %q", keyOf(j), m, j.Score, j.Raw)
			}
		case dataset.StatusUnscorable:
			unscorable++
			code := judge.ReasonCode(j.Reason)
			codes[code]++
			if j.Reason == "" || j.Score != 0 {
				t.Errorf("%v: unscorable with score %v reason %q", keyOf(j), j.Score, j.Reason)
			}
			switch code {
			case judge.ReasonEndpoint, judge.ReasonNoScore, judge.ReasonOutOfRange:
			default:
				t.Errorf("%v: unexpected reason %q", keyOf(j), j.Reason)
			}
		default:
			t.Errorf("%v: status %q", keyOf(j), j.Status)
		}
	}
	t.Logf("%d slots: %d ok, %d unscorable %v; %d client calls, %d server requests", len(want), ok, unscorable, codes, calls.Load(), srv.Requests())
	if ok+unscorable != len(want) {
		t.Errorf("ok %d + unscorable %d != %d slots", ok, unscorable, len(want))
	}
	// Each marked item's rag answer yields 4 dimensions × 2 repeats
	// unscorable judgements at least; random faults add more.
	if unscorable < 8*len(marks) {
		t.Errorf("unscorable %d < %d forced by the markers", unscorable, 8*len(marks))
	}
	for _, c := range []string{judge.ReasonEndpoint, judge.ReasonNoScore, judge.ReasonOutOfRange} {
		if codes[c] == 0 {
			t.Errorf("no judgement unscorable for %q; reasons %v", c, codes)
		}
	}
	if ok < len(want)/2 {
		t.Errorf("only %d of %d scored: the faults should not sink most judgements", ok, len(want))
	}

	sum := res.Summary
	if sum.Run.Unscorable != unscorable {
		t.Errorf("Summary.Run.Unscorable %d, judgements unscorable %d", sum.Run.Unscorable, unscorable)
	}
	judgeProblems := 0
	for _, pr := range sum.Problems {
		if pr.Step == StepJudge {
			judgeProblems++
			if pr.Reason == "" || pr.ItemID == "" || pr.Dim == "" {
				t.Errorf("problem without its slot or reason: %+v", pr)
			}
		}
	}
	if judgeProblems != unscorable {
		t.Errorf("%d judge problems reported for %d unscorable judgements", judgeProblems, unscorable)
	}
	if got := int(calls.Load()); sum.Run.Calls != got {
		t.Errorf("Summary.Run.Calls %d, calls that reached the client %d", sum.Run.Calls, got)
	}
	if sum.Run.Calls < len(want) {
		t.Errorf("%d calls for %d slots in a fresh store", sum.Run.Calls, len(want))
	}
	if srv.Requests() <= sum.Run.Calls {
		t.Errorf("server saw %d requests for %d client calls: no fault was retried", srv.Requests(), sum.Run.Calls)
	}
	if !sleeps.saw(time.Second) {
		t.Errorf("no wait of the server's Retry-After: 1 among the client's waits")
	}
	if sum.Result == nil || len(sum.Judges) != 1 {
		t.Fatalf("no CuBE result for the judge: %+v", sum.Result)
	}
	jr := sum.Judges[0]
	if jr.Unscorable != unscorable || jr.Judgements != len(want) {
		t.Errorf("CuBE counts %d unscorable of %d, want %d of %d", jr.Unscorable, jr.Judgements, unscorable, len(want))
	}
	if _, err := json.Marshal(sum); err != nil {
		t.Errorf("SUMMARY does not encode (NaN?): %v", err)
	}
	runs, err := st.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Status != store.RunDone || runs[0].Counts.Unscorable != unscorable || runs[0].Counts.Calls != sum.Run.Calls {
		t.Errorf("run record %+v, want done with %d unscorable and %d calls", runs, unscorable, sum.Run.Calls)
	}
}
