package cli

import (
	"strings"
	"testing"
	"time"

	"cubeworkbench/core/engine"
)

func TestBarLine(t *testing.T) {
	cases := []struct {
		e     engine.Event
		width int
		want  string
	}{
		{engine.Event{Step: "judge", Label: "q", Done: 5, Total: 10, Failed: 1, Calls: 4, Cached: 1, Tokens: 12000, ETA: 3 * time.Second}, 10,
			"judging q [#####.....] 5/10 failed 1 calls 4 cached 1 tokens 12k ETA 3s"},
		// The offline judge by its glossary name, never its id "lexical".
		{engine.Event{Step: "judge", Label: "lexical", Done: 0, Total: 900}, 0,
			"judging lexical baseline 0/900"},
		{engine.Event{Step: "metrics", Done: 3, Total: 3, Finished: true, Elapsed: 1500 * time.Millisecond}, 0,
			"metrics 3/3 done in 1.5s"},
	}
	for _, c := range cases {
		if got := barLine(c.e, c.width, "en"); got != c.want {
			t.Errorf("barLine = %q\nwant      %q", got, c.want)
		}
	}
}

// TestBarLineChinese: the Chinese progress line is in Chinese, names the
// offline judge by its glossary name and writes durations as people do.
func TestBarLineChinese(t *testing.T) {
	cases := []struct {
		e    engine.Event
		want string
	}{
		{engine.Event{Step: "judge", Label: "lexical", Done: 5, Total: 10, Failed: 1, Calls: 4, Cached: 1, Tokens: 12000, ETA: 159 * time.Second},
			"评分 词汇基线评审 5/10 失败 1 调用 4 缓存 1 词元 12k 预计还需 2分39秒"},
		{engine.Event{Step: "metrics", Done: 3, Total: 3, Finished: true, Elapsed: 1500 * time.Millisecond},
			"指标计算 3/3 用时 1.5秒"},
	}
	for _, c := range cases {
		if got := barLine(c.e, 0, "zh"); got != c.want {
			t.Errorf("barLine = %q\nwant      %q", got, c.want)
		}
	}
}

func TestPlainPrinterPrintsTenths(t *testing.T) {
	var out strings.Builder
	p := newPrinter(&out, false, "en")
	for i := 0; i <= 100; i++ {
		p.Event(engine.Event{Step: "judge", Done: i, Total: 100, Finished: i == 100})
	}
	lines := strings.Count(out.String(), "\n")
	if lines != 11 { // 0,10,...,100
		t.Fatalf("plain printer wrote %d lines, want 11:\n%s", lines, out.String())
	}
}
