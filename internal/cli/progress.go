package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/result"
)

// printer shows engine events on stderr: a redrawn bar on a terminal, plain
// lines otherwise (a log file or CI gets one line per step and per tenth).
type printer struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	last     map[string]int // step → last tenth printed (plain mode)
	drawn    time.Time
	open     bool   // a bar is on the current line
	lang     string // "zh" prints the bars in Chinese
}

func newPrinter(w io.Writer, terminal bool, lang string) *printer {
	return &printer{w: w, terminal: terminal, last: map[string]int{}, lang: lang}
}

func (p *printer) Event(e result.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Message != "" && e.Total == 0 {
		p.endBar()
		fmt.Fprintln(p.w, e.Message)
		return
	}
	if e.Finished {
		if p.last[e.Step+"/"+e.Label] == finishedMark {
			return
		}
		if p.terminal {
			p.last[e.Step+"/"+e.Label] = finishedMark
		}
	}
	if p.terminal {
		if !e.Finished && time.Since(p.drawn) < 100*time.Millisecond {
			return
		}
		p.drawn = time.Now()
		fmt.Fprintf(p.w, "\r\033[K%s", barLine(e, 30, p.lang))
		p.open = true
		if e.Finished {
			p.endBar()
		}
		return
	}
	tenth := 0
	if e.Total > 0 {
		tenth = e.Done * 10 / e.Total
	}
	key := e.Step + "/" + e.Label
	if e.Finished {
		tenth = finishedMark // one line for the end of a step, however often it is reported
	}
	if prev, seen := p.last[key]; seen && prev == tenth {
		return
	}
	p.last[key] = tenth
	fmt.Fprintln(p.w, barLine(e, 0, p.lang))
}

// finishedMark records that a step's last line was printed.
const finishedMark = 11

func (p *printer) endBar() {
	if p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}

// barLine renders "judge qwen [#####.....] 120/400 failed 2 calls 118
// cached 0 tokens 52k ETA 1m20s"; in Chinese "评分 qwen [#####.....] 120/400
// 失败 2 调用 118 缓存 0 词元 52k 预计还需 1分20秒", the offline judges by
// their glossary names.
func barLine(e result.Event, width int, lang string) string {
	w := barWordsEN
	if lang == "zh" {
		w = barWordsZH
	}
	var b strings.Builder
	b.WriteString(w.step(e.Step))
	if e.Label != "" {
		b.WriteString(" " + w.label(e.Label)) // a judge's name, or a connector's
	}
	if width > 0 && e.Total > 0 {
		filled := e.Done * width / e.Total
		b.WriteString(" [" + strings.Repeat("#", filled) + strings.Repeat(".", width-filled) + "]")
	}
	if e.Total > 0 {
		fmt.Fprintf(&b, " %d/%d", e.Done, e.Total)
	}
	if e.Failed > 0 {
		fmt.Fprintf(&b, " %s %d", w.failed, e.Failed)
	}
	if e.Calls > 0 || e.Cached > 0 {
		fmt.Fprintf(&b, " %s %d %s %d", w.calls, e.Calls, w.cached, e.Cached)
	}
	if e.Tokens > 0 {
		fmt.Fprintf(&b, " %s %s", w.tokens, compact(e.Tokens))
	}
	if m := e.Money(w.lang); m != "" {
		fmt.Fprintf(&b, " %s %s", w.cost, m)
	}
	if e.Finished {
		fmt.Fprintf(&b, " %s %s", w.done, w.elapsed(e.Elapsed))
	} else if e.ETA > 0 {
		fmt.Fprintf(&b, " %s %s", w.eta, w.left(e.ETA))
	}
	if e.Detail != "" {
		b.WriteString(" · " + e.Detail)
	}
	return b.String()
}

// barWords are the words of a progress line in one language.
type barWords struct {
	step, label                                          func(string) string
	elapsed, left                                        func(time.Duration) string
	lang, failed, calls, cached, tokens, cost, done, eta string
}

var (
	barWordsEN = barWords{
		step:    func(s string) string { return result.StepName(s, "en") },
		label:   func(s string) string { return glossary.JudgeName(s, "en") },
		elapsed: func(d time.Duration) string { return d.Round(time.Millisecond).String() },
		left:    func(d time.Duration) string { return d.Round(time.Second).String() },
		lang:    "en", failed: "failed", calls: "calls", cached: "cached", tokens: "tokens", cost: "cost", done: "done in", eta: "ETA",
	}
	barWordsZH = barWords{
		step:    func(s string) string { return result.StepName(s, "zh") },
		label:   func(s string) string { return glossary.JudgeName(s, "zh") },
		elapsed: durationZH, left: durationZH,
		lang: "zh", failed: "失败", calls: "调用", cached: "缓存", tokens: glossary.Term(glossary.Tokens, "zh"), cost: "费用", done: "用时", eta: "预计还需",
	}
)

// durationZH is a duration as a Chinese reader writes it: 0.3秒, 2分39秒,
// 1小时5分 — never Go's 2m39s.
func durationZH(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', -1, 64) + "秒"
	case d < time.Minute:
		return fmt.Sprintf("%d秒", int(d.Round(time.Second)/time.Second))
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%d分%d秒", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%d小时%d分", int(d/time.Hour), int(d%time.Hour/time.Minute))
}

func compact(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%dk", n/1000)
	default:
		return fmt.Sprint(n)
	}
}
