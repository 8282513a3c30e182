package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
	"cubeworkbench/internal/fakeai"
)

// fourDims are the CuBE default dimensions every test profile judges.
var fourDims = []string{"relevance", "specificity", "completeness", "quality"}

// buildWorkbook makes n items over n guides with distinct rag, zero and
// full answers (so no two judge requests share a body) and retrieved lists
// that put the gold document at varying ranks or leave it out.
func buildWorkbook(n int) *dataset.Workbook {
	wb := &dataset.Workbook{Systems: []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull}}
	for i := range n {
		id := fmt.Sprintf("G%04d", i+1)
		wb.Guides = append(wb.Guides, dataset.Guide{ID: id, Title: fmt.Sprintf("事项%d", i+1),
			Text: fmt.Sprintf("事项名称：事项%d\n受理条件：申请人持身份证办理第%d号业务。\n办理时限：%d个工作日。", i+1, i+1, i%20+1)})
	}
	for i := range n {
		gold := wb.Guides[i].ID
		other := wb.Guides[(i+1)%n].ID
		var retrieved []string
		switch i % 4 {
		case 0:
			retrieved = []string{gold, other}
		case 1:
			retrieved = []string{other, gold}
		case 2:
			retrieved = []string{other}
		case 3:
			retrieved = []string{gold}
		}
		it := dataset.Item{ID: fmt.Sprintf("q%04d", i+1), Question: fmt.Sprintf("办理第%d号业务需要什么材料？", i+1),
			DocID: gold, Retrieved: retrieved}
		it.SetAnswer(dataset.SetRAG, fmt.Sprintf("办理第%d号业务需要身份证，%d个工作日办结。", i+1, i%20+1))
		it.SetAnswer(dataset.SetZero, fmt.Sprintf("第%d号业务一般需要身份证，请咨询当地。", i+1))
		it.SetAnswer(dataset.SetFull, fmt.Sprintf("根据指南，第%d号业务持身份证办理，时限%d个工作日。", i+1, i%20+1))
		wb.Items = append(wb.Items, it)
	}
	return wb
}

// testProfile is the default profile with a cheap bootstrap and the given
// judges.
func testProfile(judges ...profile.Endpoint) profile.Profile {
	p := profile.Default()
	p.Language = "zh"
	p.Bootstrap = 50
	p.Dimensions = append([]string(nil), fourDims...)
	p.Judges = judges
	return p
}

func openStore(t testing.TB, path string) *store.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "run.db")
	}
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// countingCompleter counts the calls that reach the endpoint client, i.e.
// the ones the run store did not answer.
type countingCompleter struct {
	inner llm.Completer
	n     *atomic.Int64
}

func (c countingCompleter) Model() string { return c.inner.Model() }
func (c countingCompleter) Complete(ctx context.Context, req llm.Request) (llm.Reply, error) {
	c.n.Add(1)
	return c.inner.Complete(ctx, req)
}

// sleepRecorder replaces the client's waits: it records every wait asked
// for (backoff, Retry-After) and returns at once, so faults cost no time.
type sleepRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleepRecorder) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleepRecorder) saw(d time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.waits {
		if w == d {
			return true
		}
	}
	return false
}

// fastCompleter builds the real llm client with a short per-attempt
// timeout, millisecond backoff and the given sleep, counting calls in n.
func fastCompleter(timeout time.Duration, retries int, sleep func(context.Context, time.Duration) error, n *atomic.Int64) func(profile.Endpoint) (llm.Completer, error) {
	return func(ep profile.Endpoint) (llm.Completer, error) {
		var opts []llm.Option
		if sleep != nil {
			opts = append(opts, llm.WithSleep(sleep))
		}
		c, err := llm.New(llm.Endpoint{Name: ep.Name, BaseURL: ep.BaseURL, Model: ep.Model, Concurrency: ep.Concurrency,
			Timeout: timeout, MaxRetries: retries, BackoffBase: time.Millisecond, BackoffMax: 10 * time.Millisecond}, opts...)
		if err != nil {
			return nil, err
		}
		if n == nil {
			return c, nil
		}
		return countingCompleter{inner: c, n: n}, nil
	}
}

// requestKey is the run store's key of a request the fake server received,
// rebuilt from its body the way the llm client built that body.
func requestKey(t testing.TB, c fakeai.ChatRequest) string {
	t.Helper()
	req := llm.Request{Seed: c.Seed, JSON: c.ResponseFormat != nil}
	if c.Temperature == nil {
		t.Fatalf("request %d has no temperature", c.N)
	}
	req.Temperature = *c.Temperature
	if c.MaxTokens != nil {
		req.MaxTokens = *c.MaxTokens
	}
	for _, m := range c.Messages {
		req.Messages = append(req.Messages, llm.Message{Role: m.Role, Content: m.Content})
	}
	return llm.RequestKey(c.Model, req)
}

// tkey names one judgement slot.
type tkey struct {
	item, set, judge, dim string
	repeat                int
}

func keyOf(j dataset.Judgement) tkey {
	return tkey{j.ItemID, j.Set, j.Judge, j.Dimension, max(j.Repeat, 1)}
}

// expectedSlots lists every (item, set, judge, dimension, repeat) a run must
// end with for the given judges (name → repeats).
func expectedSlots(wb *dataset.Workbook, judges map[string]int) map[tkey]bool {
	out := map[tkey]bool{}
	for _, it := range wb.Items {
		for _, set := range []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull} {
			if it.Answer(set) == "" {
				continue
			}
			for name, reps := range judges {
				for _, d := range fourDims {
					for r := 1; r <= reps; r++ {
						out[tkey{it.ID, set, name, d, r}] = true
					}
				}
			}
		}
	}
	return out
}

// checkExactlyOnce fails unless js holds every expected slot exactly once
// and nothing else.
func checkExactlyOnce(t *testing.T, what string, js dataset.Scores, want map[tkey]bool) {
	t.Helper()
	seen := map[tkey]int{}
	for j := range js.Values() {
		seen[keyOf(j)]++
	}
	var missing, extra, dup []string
	for k := range want {
		if seen[k] == 0 {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	for k, n := range seen {
		if !want[k] {
			extra = append(extra, fmt.Sprint(k))
		}
		if n > 1 {
			dup = append(dup, fmt.Sprintf("%v×%d", k, n))
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	sort.Strings(dup)
	if len(missing)+len(extra)+len(dup) > 0 {
		t.Errorf("%s: %d judgements for %d slots; missing %d %.300v; extra %d %.300v; duplicated %d %.300v",
			what, js.Len(), len(want), len(missing), missing, len(extra), extra, len(dup), dup)
	}
}

// cloneWorkbook deep-copies what Run changes (answers, scores), as a new
// process reading the same file would see it.
func cloneWorkbook(wb *dataset.Workbook) *dataset.Workbook {
	c := *wb
	c.Items = make([]dataset.Item, len(wb.Items))
	for i, it := range wb.Items {
		it.Answers = make(map[string]string, len(wb.Items[i].Answers))
		for k, v := range wb.Items[i].Answers {
			it.Answers[k] = v
		}
		it.Retrieved = append([]string(nil), wb.Items[i].Retrieved...)
		c.Items[i] = it
	}
	c.Scores = wb.Scores.Clone()
	c.Guides = append([]dataset.Guide(nil), wb.Guides...)
	return &c
}
