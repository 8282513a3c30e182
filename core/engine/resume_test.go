package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
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

// heldReplies returns the request keys of chats whose reply the store holds.
func heldReplies(t *testing.T, st *store.Store, chats []fakeai.ChatRequest) map[string]bool {
	t.Helper()
	held := map[string]bool{}
	for _, c := range chats {
		k := requestKey(t, c)
		if _, ok, err := st.GetReply(context.Background(), k); err != nil {
			t.Fatal(err)
		} else if ok {
			held[k] = true
		}
	}
	return held
}

// TestCancelThenResume cancels a run part-way: Run returns an error that
// wraps context.Canceled, the run is recorded as interrupted, nothing is
// recorded as unscorable because of the cancel, and a second run finishes
// with a call for exactly the requests whose reply the store lacked.
func TestCancelThenResume(t *testing.T) {
	const n = 20
	base := buildWorkbook(n)
	srv := fakeai.New(t, fakeai.WithLatency(5*time.Millisecond))
	path := t.TempDir() + "/run.db"
	st := openStore(t, path)
	p := testProfile(profile.Endpoint{Name: "qwen", BaseURL: srv.URL(), Model: "qwen-fake", Concurrency: 4})
	want := expectedSlots(base, map[string]int{"qwen": 1})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	progress := ProgressFunc(func(e Event) {
		if e.Step == StepJudge && e.Done >= len(want)/4 {
			once.Do(cancel)
		}
	})
	_, err := Run(ctx, cloneWorkbook(base), Options{Profile: p, Store: st, Progress: progress,
		NewCompleter: fastCompleter(10*time.Second, 1, nil, nil)})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run returned %v, want an error wrapping context.Canceled", err)
	}
	runs, err := st.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Status != store.RunInterrupted || runs[0].FinishedAt == nil {
		t.Fatalf("run record after cancel: %+v, want one interrupted run", runs)
	}
	before, err := st.Judgements(context.Background(), store.JudgementFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(before) == 0 || len(before) >= len(want) {
		t.Fatalf("%d of %d judgements stored at the cancel: not part-way", len(before), len(want))
	}
	finishedKeys := map[string]bool{}
	for _, j := range before {
		if strings.Contains(j.Reason, "cancel") || j.Status != "ok" {
			t.Errorf("judgement %v stored as %s %q: a cancel is not a judgement", keyOf(j), j.Status, j.Reason)
		}
		_, key, _, err := st.Judgement(context.Background(), j.ItemID, j.Set, j.Judge, j.Dimension, j.Repeat)
		if err != nil {
			t.Fatal(err)
		}
		finishedKeys[key] = true
	}
	// Requests cancelled on the wire may still reach the server.
	settle(srv)
	firstPhase := srv.Requests()
	held := heldReplies(t, st, srv.Chats())
	for k := range finishedKeys {
		if !held[k] {
			t.Errorf("a finished judgement's reply %s is not in the store", k[:12])
		}
	}

	// A new process: the workbook as read from disk, the same store.
	var calls atomic.Int64
	res, err := Run(context.Background(), cloneWorkbook(base), Options{Profile: p, Store: st,
		NewCompleter: fastCompleter(10*time.Second, 1, nil, &calls)})
	if err != nil {
		t.Fatal(err)
	}
	checkExactlyOnce(t, "resumed workbook", res.Workbook.Scores, want)
	after := srv.Chats()[firstPhase:]
	for _, c := range after {
		if k := requestKey(t, c); held[k] {
			t.Errorf("resume asked again for a reply the store held (request %d)", c.N)
		}
	}
	if len(after) != len(want)-len(held) {
		t.Errorf("resume made %d requests; %d slots, %d replies held: want %d", len(after), len(want), len(held), len(want)-len(held))
	}
	if res.Summary.Run.Calls != len(after) || res.Summary.Run.Cached != len(held) {
		t.Errorf("resume counted %d calls, %d cached; server saw %d, store held %d",
			res.Summary.Run.Calls, res.Summary.Run.Cached, len(after), len(held))
	}
	runs, _ = st.Runs(context.Background())
	if len(runs) != 2 || runs[1].Status != store.RunDone {
		t.Errorf("run records after resume: %+v", runs)
	}
}

// Kill test: the child process runs an evaluation against the parent's fake
// server and is SIGKILLed part-way; the parent then finishes it.
const (
	killEnvURL   = "CUBE_ENGINE_KILL_URL"
	killEnvStore = "CUBE_ENGINE_KILL_STORE"
	killItems    = 25
)

func killProfile(url string) profile.Profile {
	return testProfile(profile.Endpoint{Name: "qwen", BaseURL: url, Model: "qwen-fake", Concurrency: 4, Repeats: 2})
}

// TestKillChild is the child's half of TestKillMidRunThenResume; it does
// nothing unless that test started it.
func TestKillChild(t *testing.T) {
	url, path := os.Getenv(killEnvURL), os.Getenv(killEnvStore)
	if url == "" || path == "" {
		t.Skip("run by TestKillMidRunThenResume in a child process")
	}
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), buildWorkbook(killItems), Options{Profile: killProfile(url), Store: st,
		NewCompleter: fastCompleter(30*time.Second, 1, nil, nil)})
	t.Fatalf("child run was not killed: it ended with %v", err)
}

// TestKillMidRunThenResume: SIGKILL a run in a child process part-way, rerun
// to completion with the same store; every slot exists exactly once and the
// fake server saw no request again whose reply the store already held.
func TestKillMidRunThenResume(t *testing.T) {
	if testing.Short() {
		t.Skip("kill test: slow, skipped under -short")
	}
	// 25 items × 3 sets × 4 dimensions × 2 repeats = 600 requests at
	// concurrency 4 and 20 ms: about 3 s; the child is killed at 200.
	srv := fakeai.New(t, fakeai.WithLatency(20*time.Millisecond))
	path := t.TempDir() + "/run.db"
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), killEnvURL+"="+srv.URL(), killEnvStore+"="+path)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	const killAt = 200
	deadline := time.Now().Add(30 * time.Second)
	for srv.Requests() < killAt {
		select {
		case err := <-waited:
			t.Fatalf("child ended before the kill (%v): %s", err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("child made %d requests in 30 s: %s", srv.Requests(), out.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL on Unix
		t.Fatal(err)
	}
	err := <-waited
	if ee, ok := err.(*exec.ExitError); !ok || ee.Success() || !strings.Contains(ee.String(), "killed") {
		t.Fatalf("child did not die by the kill: %v: %s", err, out.String())
	}
	// Requests the child had on the wire may still be arriving.
	settle(srv)
	childChats := srv.Chats()
	base := buildWorkbook(killItems)
	want := expectedSlots(base, map[string]int{"qwen": 2})
	if len(childChats) >= len(want) {
		t.Fatalf("the child made all %d requests before the kill", len(childChats))
	}

	st := openStore(t, path)
	held := heldReplies(t, st, childChats)
	// A killed child loses at most the requests it had in flight or whose
	// reply had not been committed yet: one per caller, and the judge runs
	// llm.Workers(4) callers over 4 slots (the slot is freed when the reply
	// arrives, before the store commits it).
	inFlight := llm.Workers(4)
	if len(held) < len(childChats)-inFlight {
		t.Errorf("store holds %d replies for %d child requests: more lost than were in flight", len(held), len(childChats))
	}
	res, err := Run(context.Background(), base, Options{Profile: killProfile(srv.URL()), Store: st,
		NewCompleter: fastCompleter(30*time.Second, 1, nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	checkExactlyOnce(t, "rerun workbook", res.Workbook.Scores, want)
	stored, err := st.Judgements(context.Background(), store.JudgementFilter{})
	if err != nil {
		t.Fatal(err)
	}
	checkExactlyOnce(t, "store", dataset.ScoresOf(stored...), want)

	rerun := srv.Chats()[len(childChats):]
	childBodies := map[string]bool{}
	for _, c := range childChats {
		childBodies[string(c.Body)] = true
	}
	repeated := 0
	for _, c := range rerun {
		if held[requestKey(t, c)] {
			t.Errorf("rerun request %d asks again for a reply the store held", c.N)
		}
		if childBodies[string(c.Body)] {
			repeated++
		}
	}
	if len(rerun) != len(want)-len(held) {
		t.Errorf("rerun made %d requests; %d slots, %d replies held: want %d", len(rerun), len(want), len(held), len(want)-len(held))
	}
	if repeated > inFlight {
		t.Errorf("%d child requests sent again, more than the %d that can be in flight at the kill", repeated, inFlight)
	}
	if srv.Repeats() != repeated {
		t.Errorf("server counted %d repeated bodies, %d of them across the kill", srv.Repeats(), repeated)
	}
	runs, err := st.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Status != store.RunRunning || runs[0].FinishedAt != nil || runs[1].Status != store.RunDone {
		t.Errorf("runs %s, want the killed one still 'running' and the rerun 'done'", describeRuns(runs))
	}
	t.Logf("child: %d requests, %d replies held; rerun: %d requests, %d repeated across the kill", len(childChats), len(held), len(rerun), repeated)
}

// settle waits until the server's request count stops moving, so that a
// snapshot of a finished phase holds every request that phase sent.
func settle(srv *fakeai.Server) {
	for last := -1; last != srv.Requests(); {
		last = srv.Requests()
		time.Sleep(100 * time.Millisecond)
	}
}

func describeRuns(runs []store.Run) string {
	var parts []string
	for _, r := range runs {
		parts = append(parts, fmt.Sprintf("#%d %s finished=%v", r.ID, r.Status, r.FinishedAt != nil))
	}
	return strings.Join(parts, ", ")
}
