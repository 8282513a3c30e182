package ui

import (
	"os"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"cubeworkbench/core/profile"
)

// uiLoop stands in for the UI thread: the window's do queues work and the
// test goroutine runs it, one function at a time, as the real event loop
// does. (The test driver's fyne.Do would run it on the caller's goroutine,
// racing the test.)
type uiLoop struct {
	mu     sync.Mutex
	queue  []func()
	notify chan struct{}
}

func newUILoop() *uiLoop { return &uiLoop{notify: make(chan struct{}, 1)} }

func (l *uiLoop) do(f func()) {
	l.mu.Lock()
	l.queue = append(l.queue, f)
	l.mu.Unlock()
	select {
	case l.notify <- struct{}{}:
	default:
	}
}

// runUntil runs queued work until cond holds or the timeout passes.
func (l *uiLoop) runUntil(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		for {
			l.mu.Lock()
			if len(l.queue) == 0 {
				l.mu.Unlock()
				break
			}
			f := l.queue[0]
			l.queue = l.queue[1:]
			l.mu.Unlock()
			f()
		}
		if cond() {
			return
		}
		select {
		case <-l.notify:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// newTestWindow builds a window in lang on a fresh test app with the given
// profile (nil: the default one), driven by a uiLoop.
func newTestWindow(t *testing.T, lang string, p *profile.Profile) (*Window, *uiLoop) {
	t.Helper()
	t.Setenv(EnvLang, lang)
	t.Setenv("LANGUAGE", os.Getenv("LANGUAGE")) // useLanguage sets it; restore it after the test
	a := test.NewTempApp(t)
	if p != nil {
		text, err := p.Encode()
		if err != nil {
			t.Fatal(err)
		}
		a.Preferences().SetString(prefProfile, string(text))
	}
	w := New(a)
	w.dataDir = t.TempDir() // the test app's storage is the shared temp folder
	loop := newUILoop()
	w.do = loop.do
	t.Cleanup(func() {
		if w.eval.stop != nil {
			w.eval.stop()
		}
		if w.eval.done != nil {
			<-w.eval.done
		}
	})
	return w, loop
}
