package judge

import (
	"sync"
	"sync/atomic"
)

// memoLimit bounds a memo: past it the memo starts again empty, so a run
// over any number of guides keeps at most this many derived guides.
const memoLimit = 8192

// memo remembers what an offline judge derives from a text that many
// judgements share — a service guide is the gold document of many
// questions, a question is judged with each of its answers, and each
// answer is scored on every dimension — so that 100,000 questions over
// 2,000 guides derive each guide once, not once a judgement. Safe for
// concurrent use; a nil memo derives every time.
type memo[T any] struct {
	mu sync.RWMutex
	m  map[string]*textEntry[T]
}

func newMemo[T any]() *memo[T] { return &memo[T]{m: map[string]*textEntry[T]{}} }

// textEntry is what a judge keeps of one text: its facts, read when it is
// first met, and what it derives from it under the English and the Chinese
// rules, each on first use. Read only once made.
type textEntry[T any] struct {
	facts textFacts
	mu    sync.Mutex
	done  [2]atomic.Bool
	by    [2]T
}

// entry returns text's entry, made on first use. The key holds the string
// itself, not a copy: a guide's text is shared already.
func (m *memo[T]) entry(text string) *textEntry[T] {
	if m == nil {
		return &textEntry[T]{facts: factsOf(text)}
	}
	m.mu.RLock()
	e, ok := m.m[text]
	m.mu.RUnlock()
	if ok {
		return e
	}
	e = &textEntry[T]{facts: factsOf(text)} // two goroutines may both make it: they are equal
	m.mu.Lock()
	if len(m.m) >= memoLimit {
		clear(m.m)
	}
	m.m[text] = e
	m.mu.Unlock()
	return e
}

// get returns what derive makes of text under the rules of zh, deriving it
// on first use; the caller only reads it.
func (e *textEntry[T]) get(text string, zh bool, derive func(text string, zh bool) T) *T {
	i := 0
	if zh {
		i = 1
	}
	if !e.done[i].Load() {
		e.mu.Lock()
		if !e.done[i].Load() {
			e.by[i] = derive(text, zh)
			e.done[i].Store(true)
		}
		e.mu.Unlock()
	}
	return &e.by[i]
}
