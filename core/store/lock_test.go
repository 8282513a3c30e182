package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestStaleLocks(t *testing.T) {
	cases := []struct {
		name     string
		pid      func(t *testing.T) int
		host     string
		takeOver bool
	}{
		{"dead process on this host", deadPID, hostname(), true},
		{"live process on this host", func(*testing.T) int { return os.Getppid() }, hostname(), false},
		{"process on another host", deadPID, "some-other-host", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.db")
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			pid := c.pid(t)
			if _, err := s.w.Exec(`INSERT INTO run_lock(id, pid, host, started_at, run_id, token) VALUES (1, ?, ?, ?, 7, 'old')`,
				pid, c.host, now()); err != nil {
				t.Fatal(err)
			}
			id, err := s.StartRun(ctx, "", "v")
			if c.takeOver {
				if err != nil {
					t.Fatalf("stale lock not taken over: %v", err)
				}
				h, _ := s.LockHolder(ctx)
				if h == nil || h.PID != os.Getpid() || h.RunID != id {
					t.Fatalf("holder after takeover %+v", h)
				}
				if err := s.FinishRun(ctx, id, RunDone, Counts{}); err != nil {
					t.Fatal(err)
				}
				if h, _ := s.LockHolder(ctx); h != nil {
					t.Fatalf("lock kept after FinishRun: %+v", h)
				}
				return
			}
			var le *LockedError
			if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || le.Holder.PID != pid || le.Holder.Host != c.host {
				t.Fatalf("err = %v, want *LockedError naming pid %d on %s", err, pid, c.host)
			}
			// Each language on its own, naming the store and the holder (issue 21).
			zh, en := text.Of(err).In(text.ZH), text.Of(err).In(text.EN)
			for _, s := range []string{zh, en} {
				if !strings.Contains(s, path) || !strings.Contains(s, c.host) || !strings.Contains(s, fmt.Sprint(pid)) {
					t.Errorf("%q does not name the store, host and pid", s)
				}
			}
			if !strings.Contains(zh, "运行记录库") || strings.Contains(zh, "in use") || strings.Contains(en, "使用") {
				t.Errorf("zh %q, en %q; want each language on its own", zh, en)
			}
			if runs, _ := s.Runs(ctx); len(runs) != 0 {
				t.Fatalf("a refused run was recorded: %+v", runs)
			}
			if err := s.BreakLock(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := s.StartRun(ctx, "", "v"); err != nil {
				t.Fatalf("after BreakLock: %v", err)
			}
		})
	}
}

// TestSameProcessSecondRun: two evaluations in one process (the window)
// on one store are refused too; Close gives the lock back.
func TestSameProcessSecondRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.StartRun(ctx, "", "v"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartRun(ctx, "", "v"); !errors.Is(err, ErrLocked) {
		t.Fatalf("second run in the same process: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.StartRun(ctx, "", "v"); err != nil {
		t.Fatalf("after Close: %v", err)
	}
}

// TestProfileCopySanitised: the run's profile copy keeps no URL password
// and no query-string key (it was stored verbatim before).
func TestProfileCopySanitised(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	profile := "[target]\nkind = \"http\"\nbase_url = \"http://officer:PASSWORD99@rag.local/api?key=QKEY42&v=2\"\n"
	id, err := s.StartRun(ctx, profile, "v")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := s.Runs(ctx)
	if err != nil || len(runs) != 1 || runs[0].ID != id {
		t.Fatal(runs, err)
	}
	got := runs[0].Profile
	if strings.Contains(got, "PASSWORD99") || strings.Contains(got, "QKEY42") || strings.Contains(got, "officer") {
		t.Fatalf("profile copy keeps a secret: %q", got)
	}
	if !strings.Contains(got, `base_url = "http://rag.local/api?key=[redacted]&v=2"`) {
		t.Fatalf("profile copy %q", got)
	}
}
