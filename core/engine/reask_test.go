package engine

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
)

// garbleFirst answers every judge prompt about item 1 with text that holds
// no score for the first `bad` attempts of a repeat, and with a score after
// them; every other prompt gets a score at once.
type garbleFirst struct {
	base  int64 // the profile's seed
	bad   int
	calls *atomic.Int64
}

func (g garbleFirst) Model() string { return "judge-model" }

func (g garbleFirst) Complete(_ context.Context, req llm.Request) (llm.Reply, error) {
	g.calls.Add(1)
	attempt := int64(*req.Seed) - g.base
	if strings.Contains(req.Messages[len(req.Messages)-1].Content, "第1号业务") && attempt%seedStride < int64(g.bad) {
		return llm.Reply{Content: "这个回答还可以吧。"}, nil
	}
	return llm.Reply{Content: `{"score": 6, "reason": "ok"}`}, nil
}

// A judgement whose every attempt was unreadable stays unscorable on a
// plain rerun (the store replays the replies) and is asked again, with new
// seeds, under ReaskUnscorable, which never repeats a call for the
// judgements that were fine.
func TestReaskUnscorable(t *testing.T) {
	wb := buildWorkbook(4)
	p := testProfile(profile.Endpoint{Name: "j", BaseURL: "http://judge.invalid/v1", Model: "judge-model"})
	st := openStore(t, "")
	var calls atomic.Int64
	newC := func(profile.Endpoint) (llm.Completer, error) {
		return garbleFirst{base: p.Seed, bad: 3, calls: &calls}, nil
	}
	perItem := 3 * len(fourDims) // rag, zero, full × dimensions
	steps := []struct {
		name       string
		reask      bool
		calls      int // endpoint calls this run
		unscorable int
	}{
		{"first run", false, 3*perItem + 3*perItem /* item 1: three unreadable attempts each */, perItem},
		{"plain rerun replays the stored replies", false, 0, perItem},
		{"re-ask", true, perItem, 0},
		{"re-ask again: nothing left to ask", true, 0, 0},
	}
	for _, s := range steps {
		calls.Store(0)
		res, err := Run(context.Background(), cloneWorkbook(wb), Options{Profile: p, Store: st, NewCompleter: newC, ReaskUnscorable: s.reask})
		if err != nil {
			t.Fatal(err)
		}
		unscorable := 0
		for j := range res.Workbook.Scores.Values() {
			if j.Status == dataset.StatusUnscorable {
				unscorable++
			}
		}
		if int(calls.Load()) != s.calls || unscorable != s.unscorable || res.Summary.Run.Unscorable != s.unscorable {
			t.Errorf("%s: %d calls, %d unscorable (run says %d); want %d calls, %d unscorable",
				s.name, calls.Load(), unscorable, res.Summary.Run.Unscorable, s.calls, s.unscorable)
		}
	}
}

// Unscorable rows read back from a workbook (an earlier report's scores)
// for a judge that scores in this run are asked again under
// ReaskUnscorable; an imported judge's rows are kept.
func TestReaskDropsWorkbookUnscorable(t *testing.T) {
	judges := []activeJudge{{ep: profile.Endpoint{Name: "j"}, kind: "llm"}}
	got := dataset.ScoresOf(
		dataset.Judgement{ItemID: "q1", Judge: "j", Status: dataset.StatusUnscorable},
		dataset.Judgement{ItemID: "q2", Judge: "j", Status: dataset.StatusOK, Score: 5},
		dataset.Judgement{ItemID: "q1", Judge: "imported", Status: dataset.StatusUnscorable},
	)
	dropUnscorable(&got, judges)
	if got.Len() != 2 || got.At(0).ItemID != "q2" || got.At(1).Judge != "imported" {
		t.Errorf("dropUnscorable = %+v", slices.Collect(got.Values()))
	}
}
