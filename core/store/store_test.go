package store

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/text"
)

func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

func intp(i int) *int { return &i }

func sampleReply(i int) llm.Reply {
	return llm.Reply{Content: fmt.Sprintf("评分：%d", i%11), Reasoning: "想一想", FinishReason: "stop",
		Model: "m", Usage: llm.Usage{PromptTokens: 100 + i, CompletionTokens: i}}
}

func sampleRequest(i int) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: "user", Content: "q" + strconv.Itoa(i)}}, Seed: intp(i)}
}

func TestReplyRoundTripAndReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if _, ok, err := s.GetReply(ctx, "nope"); err != nil || ok {
		t.Fatalf("GetReply(missing) = ok %v, err %v", ok, err)
	}
	req, rep := sampleRequest(3), sampleReply(3)
	rep.Cached = true // never stored
	key := llm.RequestKey("m", req)
	if err := s.PutReply(ctx, key, "m", req, rep); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.GetReply(ctx, key)
	if err != nil || !ok {
		t.Fatalf("GetReply = ok %v, err %v", ok, err)
	}
	want := rep
	want.Cached = false
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("GetReply = %+v, want %+v", got, want)
	}

	j := dataset.Judgement{ItemID: "q1", Set: dataset.SetRAG, Judge: "J", Dimension: "relevance", Repeat: 1,
		Score: 7, Raw: "评分：7", Status: dataset.StatusOK}
	u := dataset.Judgement{ItemID: "q1", Set: dataset.SetZero, Judge: "J", Dimension: "relevance", Repeat: 1,
		Score: 5, Raw: "???", Status: dataset.StatusUnscorable, Reason: "no_score"}
	if err := s.PutJudgement(ctx, j, key); err != nil {
		t.Fatal(err)
	}
	if err := s.PutJudgement(ctx, u, "k2"); err != nil {
		t.Fatal(err)
	}
	a := Answer{ItemID: "q1", Set: dataset.SetRAG, Source: "ragflow", Text: "带身份证", Retrieved: []string{"d3", "d1"},
		Contexts: []string{"c1"}, Key: "k3"}
	if err := s.PutAnswer(ctx, a); err != nil {
		t.Fatal(err)
	}
	b := Answer{ItemID: "q1", Set: dataset.SetZero, Source: "gen", Text: "不知道"}
	if err := s.PutAnswer(ctx, b); err != nil {
		t.Fatal(err)
	}
	cost := 0.25
	id, err := s.StartRun(ctx, "language = \"zh\"\napi_key_env = \"K\"\n", "v0.1")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishRun(ctx, id, RunDone, Counts{Calls: 3, Cached: 2, Unscorable: 1, PromptTokens: 10, Cost: &cost}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, ok, _ := s.GetReply(ctx, key); !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("after reopen GetReply = %+v %v", got, ok)
	}
	js, err := s.Judgements(ctx, JudgementFilter{})
	if err != nil {
		t.Fatal(err)
	}
	u.Score = 0 // stored as NULL, read back as the zero value with status unscorable
	if want := []dataset.Judgement{j, u}; !reflect.DeepEqual(js, want) {
		t.Fatalf("Judgements = %+v\nwant %+v", js, want)
	}
	js, _ = s.Judgements(ctx, JudgementFilter{Set: dataset.SetZero})
	if len(js) != 1 || js[0].Status != dataset.StatusUnscorable || js[0].Reason != "no_score" {
		t.Fatalf("filtered Judgements = %+v", js)
	}
	var null int
	if err := s.r.QueryRow(`SELECT count(*) FROM judgements WHERE score IS NULL`).Scan(&null); err != nil || null != 1 {
		t.Fatalf("NULL scores = %d (%v), want 1", null, err)
	}
	if _, k, ok, _ := s.Judgement(ctx, "q1", dataset.SetRAG, "J", "relevance", 1); !ok || k != key {
		t.Fatalf("Judgement key = %q ok %v", k, ok)
	}
	if ok, _ := s.HasJudgement(ctx, "q1", dataset.SetRAG, "J", "relevance", 2); ok {
		t.Fatal("HasJudgement(repeat 2) = true")
	}
	as, err := s.Answers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Answer{a, b}; !reflect.DeepEqual(as, want) {
		t.Fatalf("Answers = %+v\nwant %+v", as, want)
	}
	runs, err := s.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Status != RunDone || runs[0].FinishedAt == nil || runs[0].Counts.Calls != 3 ||
		runs[0].Counts.Cost == nil || *runs[0].Counts.Cost != 0.25 || runs[0].ToolVersion != "v0.1" {
		t.Fatalf("Runs = %+v", runs)
	}
}

func TestStartRunRefusesSecrets(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	for _, p := range []string{"[[judge]]\napi_key = \"sk-123\"\n", `{"judge":[{"apiKey": "x"}]}` + "\n" + `"api_key": "x"`} {
		_, err := s.StartRun(context.Background(), p, "v")
		if !errors.Is(err, ErrSecretInProfile) {
			t.Errorf("StartRun(%q) err = %v, want ErrSecretInProfile", p, err)
		}
		// Each language on its own, the profile named as the glossary does (issue 21).
		if zh, en := text.Of(err).In(text.ZH), text.Of(err).In(text.EN); !strings.HasPrefix(zh, glossary.Term(glossary.Profile, text.ZH)) ||
			strings.Contains(zh, "secret;") || strings.Contains(en, "密钥") {
			t.Errorf("StartRun(%q): zh %q, en %q; want each language on its own", p, zh, en)
		}
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.w.Exec(`UPDATE meta SET value = '99' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(path)
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("Open = %v, want ErrNewerSchema", err)
	}
	// Said to a person in each language on its own, naming the file.
	zh, en := text.Of(err).In(text.ZH), text.Of(err).In(text.EN)
	if !strings.Contains(zh, path) || !strings.Contains(zh, "更新版本") || !strings.Contains(en, path) || strings.Contains(en, "版本") {
		t.Errorf("zh %q, en %q; want each language on its own, naming %s", zh, en, path)
	}
}

// fakeCompleter counts calls and can be slowed so concurrent callers overlap.
type fakeCompleter struct {
	calls atomic.Int64
	delay time.Duration
	fail  error
}

func (f *fakeCompleter) Model() string { return "fake" }
func (f *fakeCompleter) Complete(ctx context.Context, req llm.Request) (llm.Reply, error) {
	f.calls.Add(1)
	if f.delay > 0 {
		time.Sleep(f.delay)
	}
	if f.fail != nil {
		return llm.Reply{}, f.fail
	}
	return llm.Reply{Content: "re: " + req.Messages[0].Content, FinishReason: "stop"}, nil
}

func TestCacheSecondPassMakesNoCalls(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	defer s.Close()
	f := &fakeCompleter{}
	c := s.Cache(f)
	for pass := 1; pass <= 2; pass++ {
		for i := range 20 {
			rep, err := c.Complete(ctx, sampleRequest(i))
			if err != nil {
				t.Fatal(err)
			}
			if rep.Cached != (pass == 2) {
				t.Fatalf("pass %d: Cached = %v", pass, rep.Cached)
			}
			if want := "re: q" + strconv.Itoa(i); rep.Content != want {
				t.Fatalf("content %q, want %q", rep.Content, want)
			}
		}
	}
	if n := f.calls.Load(); n != 20 {
		t.Fatalf("inner calls = %d, want 20", n)
	}
}

func TestCacheDoesNotStoreErrors(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	defer s.Close()
	f := &fakeCompleter{fail: errors.New("503")}
	c := s.Cache(f)
	for range 2 {
		if _, err := c.Complete(ctx, sampleRequest(1)); err == nil {
			t.Fatal("error swallowed")
		}
	}
	if n := f.calls.Load(); n != 2 {
		t.Fatalf("inner calls = %d, want 2 (errors are not cached)", n)
	}
}

func TestCacheCollapsesConcurrentIdenticalRequests(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	defer s.Close()
	f := &fakeCompleter{delay: 100 * time.Millisecond}
	c := s.Cache(f)
	var wg sync.WaitGroup
	var fresh atomic.Int64
	for range 16 {
		wg.Go(func() {
			rep, err := c.Complete(ctx, sampleRequest(5))
			if err != nil {
				t.Error(err)
			}
			if !rep.Cached {
				fresh.Add(1)
			}
		})
	}
	wg.Wait()
	if n := f.calls.Load(); n != 1 {
		t.Fatalf("inner calls = %d, want 1", n)
	}
	if n := fresh.Load(); n != 1 {
		t.Fatalf("uncached replies = %d, want 1", n)
	}
}

func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	defer s.Close()
	c := s.Cache(&fakeCompleter{})
	const workers, per = 32, 25
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range per {
				n := w*per + i
				req := sampleRequest(n % 200) // overlapping keys across workers
				if _, err := c.Complete(ctx, req); err != nil {
					t.Error(err)
					return
				}
				j := dataset.Judgement{ItemID: fmt.Sprint("q", n), Set: dataset.SetRAG, Judge: "J", Dimension: "quality",
					Repeat: 1, Score: float64(n % 11), Status: dataset.StatusOK}
				if err := s.PutJudgement(ctx, j, ""); err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Judgements(ctx, JudgementFilter{ItemID: j.ItemID}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n, err := s.CountReplies(ctx); err != nil || n != 200 {
		t.Fatalf("replies = %d (%v), want 200", n, err)
	}
	js, err := s.Judgements(ctx, JudgementFilter{Judge: "J"})
	if err != nil || len(js) != workers*per {
		t.Fatalf("judgements = %d (%v), want %d", len(js), err, workers*per)
	}
}

const killEnv = "CUBE_STORE_KILL_CHILD"

// TestKillChild is the child half of TestWriteSurvivesKill: it runs only when
// re-executed with killEnv set, acknowledges each write on stdout and kills
// itself in the middle of the loop.
func TestKillChild(t *testing.T) {
	path := os.Getenv(killEnv)
	if path == "" {
		t.Skip("child process of TestWriteSurvivesKill")
	}
	s, err := Open(path)
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	ctx := context.Background()
	for i := range 1000 {
		req := sampleRequest(i)
		key := llm.RequestKey("m", req)
		if err := s.PutReply(ctx, key, "m", req, sampleReply(i)); err != nil {
			fmt.Println("ERR", err)
			os.Exit(1)
		}
		fmt.Println("ACK", key) // os.Stdout is unbuffered: the parent sees it at once
		if i == 137 {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
}

func TestWriteSurvivesKill(t *testing.T) {
	if os.Getenv(killEnv) != "" {
		t.Skip("this is the child")
	}
	path := filepath.Join(t.TempDir(), "kill.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), killEnv+"="+path)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("child did not die: err %v, output:\n%s", err, out.String())
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child ended with %v, want SIGKILL; output:\n%s", err, out.String())
	}
	var acked []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if k, ok := strings.CutPrefix(sc.Text(), "ACK "); ok {
			acked = append(acked, k)
		} else if strings.HasPrefix(sc.Text(), "ERR") {
			t.Fatal(sc.Text())
		}
	}
	if len(acked) != 138 {
		t.Fatalf("child acknowledged %d writes, want 138", len(acked))
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, k := range acked {
		rep, ok, err := s.GetReply(context.Background(), k)
		if err != nil || !ok {
			t.Fatalf("acknowledged write %d (%s) lost: ok %v err %v", i, k, ok, err)
		}
		if rep.Usage.PromptTokens != 100+i {
			t.Fatalf("write %d: prompt tokens %d, want %d", i, rep.Usage.PromptTokens, 100+i)
		}
	}
}
