package store

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestConcurrentOpenInProcess: many handles creating one new store at the
// same instant. Two connections that both hold SHARED on a new file in
// rollback mode and both ask for the EXCLUSIVE lock that switching to WAL
// needs would deadlock, so SQLite returns SQLITE_BUSY at once to one of
// them without calling the busy handler: busy_timeout alone cannot help,
// Open has to retry.
func TestConcurrentOpenInProcess(t *testing.T) {
	const rounds, handles = 20, 12
	for r := range rounds {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("s%d.db", r))
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make(chan error, handles)
		for range handles {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				s, err := Open(path)
				if err != nil {
					errs <- err
					return
				}
				errs <- s.Close()
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", r, err)
			}
		}
	}
}

// TestOpenCloseChurn: handles opening and closing one store over and over
// beside each other (two evaluations starting while a third finishes: the
// last close checkpoints and removes the WAL, an open rebuilds it).
func TestOpenCloseChurn(t *testing.T) {
	const handles, cycles = 6, 30
	path := filepath.Join(t.TempDir(), "churn.db")
	var wg sync.WaitGroup
	errs := make(chan error, handles*cycles)
	for range handles {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range cycles {
				s, err := Open(path)
				if err != nil {
					errs <- err
					return
				}
				if err := s.Close(); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
