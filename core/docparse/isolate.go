package docparse

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"time"
)

// PDFs are parsed in a child process: this same executable, started again
// with childEnv set, which init below turns into a one-document parser
// before main runs. The PDF library (github.com/ledongthuc/pdf) has loops
// that trust the file (page trees, /Prev chains, object-stream /Extends,
// /Parent lookups) and no way to stop it: a goroutine running it cannot be
// cancelled, so a timeout around it in-process would leave it spinning at
// 100 % CPU and holding memory for the rest of the run. A process can be
// killed, and its memory is returned when it is. See docs/decisions.md.
const childEnv = "CUBEWB_DOCPARSE_CHILD"

func init() {
	if os.Getenv(childEnv) == "1" {
		os.Exit(serveChild(os.Stdin, os.Stdout))
	}
}

type childRequest struct {
	Path   string
	Limits Limits
}

type childReply struct {
	Text string
	Kind string // a key of kinds, or "" for an error of no kind
	Msg  string // "" when there was no error
}

// memoryPoll is how often the child compares its memory with the limit.
const memoryPoll = 10 * time.Millisecond

// serveChild parses the one document the request on in names and writes the
// reply to out. It returns the process's exit status.
func serveChild(in io.Reader, out io.Writer) int {
	var req childRequest
	if err := json.NewDecoder(io.LimitReader(in, 1<<20)).Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, "docparse child: bad request:", err)
		return 2
	}
	lim := req.Limits.withDefaults()
	var once sync.Once
	reply := func(r childReply) {
		once.Do(func() {
			enc := json.NewEncoder(out)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(r)
		})
	}
	// The soft limit makes the collector work hard before the watchdog
	// gives up; the watchdog ends the process, parser goroutine and all.
	debug.SetMemoryLimit(lim.Memory / 4 * 3)
	go func() {
		for range time.Tick(memoryPoll) {
			if used := goMemory(); used > lim.Memory {
				reply(childReply{Kind: "limit", Msg: problem(ErrLimit, "内存超过 %s", "memory over %s", byteSize(lim.Memory)).Error()})
				os.Exit(3)
			}
		}
	}()
	text, err := parseHere(context.Background(), req.Path, lim)
	r := childReply{Text: text}
	if err != nil {
		r.Kind, r.Msg = kindName(err), err.Error()
	}
	reply(r)
	return 0
}

// goMemory is the memory the Go runtime holds from the system, less what
// it has handed back: about the resident size of a process without cgo.
func goMemory() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()) - int64(s[1].Value.Uint64())
}

// cappedBuffer keeps at most max bytes and fails the write beyond them, so
// that a child cannot flood the parent's memory.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		c.over = true
		return 0, errors.New("output over its cap")
	}
	return c.buf.Write(p)
}

// childStarted and childDone, when set by a test, see each child process
// start and end.
var (
	childStarted func(*os.Process)
	childDone    func(*os.ProcessState)
)

// parseIsolated parses path in a child process bounded by lim.Timeout and
// lim.Memory, killed at once when ctx ends.
func parseIsolated(ctx context.Context, path string, lim Limits) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("%w (cannot start the PDF parser process: %v)", ErrLimit, err)
	}
	req, err := json.Marshal(childRequest{Path: path, Limits: lim})
	if err != nil {
		return "", err
	}
	timeout := lim.Timeout
	if st, err := os.Stat(path); err == nil {
		timeout = lim.timeFor(st.Size()).Round(time.Second)
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, exe)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin = bytes.NewReader(req)
	// JSON escapes control characters six bytes to one.
	stdout := &cappedBuffer{max: 6*lim.TextBytes + 64<<10}
	stderr := &cappedBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("%w (cannot start the PDF parser process: %v)", ErrLimit, err)
	}
	if childStarted != nil {
		childStarted(cmd.Process)
	}
	runErr := cmd.Wait()
	if childDone != nil {
		childDone(cmd.ProcessState)
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if tctx.Err() != nil {
		return "", problem(ErrLimit, "%s 内未解析完，已终止", "not parsed within %s, stopped", timeout)
	}
	var rep childReply
	if derr := json.Unmarshal(stdout.buf.Bytes(), &rep); derr != nil || stdout.over {
		if stdout.over {
			return "", problem(ErrLimit, "解析进程输出超过上限", "the parser process wrote more than its output cap")
		}
		msg := strings.TrimSpace(stderr.buf.String())
		if strings.Contains(msg, "out of memory") {
			return "", problem(ErrLimit, "内存不足", "out of memory")
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return "", fmt.Errorf("%w (the PDF parser process failed: %v: %s)", ErrCorrupt, runErr, msg)
	}
	if rep.Msg == "" {
		return rep.Text, nil
	}
	return rep.Text, &wireError{kind: kinds[rep.Kind], msg: rep.Msg}
}
