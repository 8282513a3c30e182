package judge

import "sync"

// memoLimit bounds a memo: past it the memo starts again empty, so a run
// over any number of guides keeps at most this many derived guides.
const memoLimit = 8192

// memoKey is a text and the language rules it was read under.
type memoKey struct {
	text string
	zh   bool
}

// memo remembers what an offline judge derives from a text that many
// judgements share — a service guide is the gold document of many
// questions, and each answer is scored on every dimension — so that
// 100,000 questions over 2,000 guides derive each guide once, not once a
// judgement. The derived value is read only once made. Safe for
// concurrent use; a nil memo derives every time.
type memo[T any] struct {
	mu sync.Mutex
	m  map[memoKey]T
}

func newMemo[T any]() *memo[T] { return &memo[T]{m: map[memoKey]T{}} }

// get returns what derive made of text, deriving it on first use. The key
// holds the string itself, not a copy: a guide's text is shared already.
func (m *memo[T]) get(text string, zh bool, derive func() T) T {
	if m == nil {
		return derive()
	}
	k := memoKey{text, zh}
	m.mu.Lock()
	v, ok := m.m[k]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = derive() // two goroutines may both derive: the values are equal
	m.mu.Lock()
	if len(m.m) >= memoLimit {
		clear(m.m)
	}
	m.m[k] = v
	m.mu.Unlock()
	return v
}
