package store

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const shareEnv = "CUBE_STORE_SHARE_CHILD"

// TestShareChild is the child half of the two-process tests: it waits for
// a line on stdin (so all children start together), opens the store, and
// with "run" on the command line also starts a run and waits for a second
// line before finishing it. It prints OPEN, RUN or ERR lines.
func TestShareChild(t *testing.T) {
	spec := os.Getenv(shareEnv)
	if spec == "" {
		t.Skip("child process of the store-sharing tests")
	}
	path, mode, _ := strings.Cut(spec, "|")
	in := bufio.NewReader(os.Stdin)
	in.ReadString('\n')
	if mode == "churn" {
		for range 40 {
			s, err := Open(path)
			if err != nil {
				fmt.Println("ERR open:", err)
				os.Exit(0)
			}
			if _, err := s.CountReplies(context.Background()); err != nil {
				fmt.Println("ERR read:", err)
				os.Exit(0)
			}
			if err := s.Close(); err != nil {
				fmt.Println("ERR close:", err)
				os.Exit(0)
			}
		}
	}
	s, err := Open(path)
	if err != nil {
		fmt.Println("ERR open:", err)
		os.Exit(0)
	}
	fmt.Println("OPEN")
	if mode == "run" {
		id, err := s.StartRun(context.Background(), "[judge]\n", "test")
		if err != nil {
			fmt.Println("ERR run:", strings.ReplaceAll(err.Error(), "\n", " "))
			s.Close()
			os.Exit(0)
		}
		fmt.Println("RUN", id)
		in.ReadString('\n')
		if err := s.FinishRun(context.Background(), id, RunDone, Counts{}); err != nil {
			fmt.Println("ERR finish:", err)
		}
	}
	if err := s.Close(); err != nil {
		fmt.Println("ERR close:", err)
	}
}

type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bytes.Buffer
	lines chan string
}

func startChild(t *testing.T, path, mode string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestShareChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), shareEnv+"="+path+"|"+mode)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, stdin: stdin, out: &bytes.Buffer{}, lines: make(chan string, 16)}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "OPEN") || strings.HasPrefix(line, "RUN") || strings.HasPrefix(line, "ERR") {
				c.lines <- line
			}
		}
		close(c.lines)
	}()
	return c
}

// TestConcurrentOpen: several processes opening (and so creating) one new
// store at the same instant all succeed: the schema is created in an
// immediate transaction behind the busy timeout, never failing SQLITE_BUSY.
func TestConcurrentOpen(t *testing.T) {
	if os.Getenv(shareEnv) != "" {
		t.Skip("this is the child")
	}
	const rounds, procs = 8, 6
	for r := range rounds {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("shared%d.db", r))
		var kids []*child
		for range procs {
			kids = append(kids, startChild(t, path, "open"))
		}
		for _, k := range kids {
			io.WriteString(k.stdin, "go\n")
		}
		for i, k := range kids {
			line := <-k.lines
			k.stdin.Close()
			k.cmd.Wait()
			if line != "OPEN" {
				t.Fatalf("round %d, process %d: %q", r, i, line)
			}
		}
	}
}

// TestOpenCloseChurnProcesses: processes opening, reading and closing one
// store over and over beside each other.
func TestOpenCloseChurnProcesses(t *testing.T) {
	if os.Getenv(shareEnv) != "" {
		t.Skip("this is the child")
	}
	path := filepath.Join(t.TempDir(), "churn.db")
	var kids []*child
	for range 6 {
		kids = append(kids, startChild(t, path, "churn"))
	}
	for _, k := range kids {
		io.WriteString(k.stdin, "go\n")
	}
	for i, k := range kids {
		line := <-k.lines
		k.stdin.Close()
		k.cmd.Wait()
		if line != "OPEN" {
			t.Fatalf("process %d: %q", i, line)
		}
	}
}

// TestSecondEvaluationRefused: while one process has a run going, a second
// process's StartRun on the same store is refused and names the holder;
// once the first finishes, the second may start.
func TestSecondEvaluationRefused(t *testing.T) {
	if os.Getenv(shareEnv) != "" {
		t.Skip("this is the child")
	}
	path := filepath.Join(t.TempDir(), "run.db")
	first := startChild(t, path, "run")
	io.WriteString(first.stdin, "go\n")
	if l := <-first.lines; l != "OPEN" {
		t.Fatal(l)
	}
	if l := <-first.lines; !strings.HasPrefix(l, "RUN") {
		t.Fatal(l)
	}
	second := startChild(t, path, "run")
	io.WriteString(second.stdin, "go\n")
	<-second.lines // OPEN
	l := <-second.lines
	host, _ := os.Hostname()
	want := fmt.Sprintf("pid %d", first.cmd.Process.Pid)
	if !strings.HasPrefix(l, "ERR run:") || !strings.Contains(l, want) || !strings.Contains(l, host) || !strings.Contains(l, "正在") {
		t.Fatalf("second evaluation: %q, want a refusal naming %s on %s", l, want, host)
	}
	second.stdin.Close()
	second.cmd.Wait()
	io.WriteString(first.stdin, "done\n")
	first.stdin.Close()
	first.cmd.Wait()
	for l := range first.lines {
		t.Fatalf("first process: %s", l)
	}
	third := startChild(t, path, "run")
	io.WriteString(third.stdin, "go\n")
	<-third.lines
	if l := <-third.lines; !strings.HasPrefix(l, "RUN") {
		t.Fatalf("after the first finished: %q", l)
	}
	io.WriteString(third.stdin, "done\n")
	third.stdin.Close()
	third.cmd.Wait()
}
