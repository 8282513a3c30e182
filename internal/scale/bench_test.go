package scale

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"cubeworkbench/core/proc"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// benchStage is one stage of the end-to-end benchmark: wall and CPU time
// and the process's peak resident set while it ran.
type benchStage struct {
	name      string
	wall, cpu time.Duration
	rss       uint64 // peak RSS during the stage (the process's, not the stage's own)
}

// runStage times fn and samples the peak resident set it reached.
func runStage(stages *[]benchStage, name string, fn func() error) error {
	resetPeakRSS()
	c0, t0 := proc.CPUTime(), time.Now()
	err := fn()
	*stages = append(*stages, benchStage{name: name, wall: time.Since(t0), cpu: proc.CPUTime() - c0, rss: peakRSS()})
	return err
}

// benchEnv reads a whole number from the environment, or def.
func benchEnv(b *testing.B, key string, def int) int {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		b.Fatalf("%s=%q: want a whole number", key, v)
	}
	return n
}

// offlineProfile is what `cubectl evaluate --profile` reads from a profile
// with the two offline baseline judges, lexical and semantic (the demo's).
func offlineProfile() profile.Profile {
	p := profile.Default()
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}, {Name: "semantic", Semantic: true}}
	return p
}

// BenchmarkEndToEnd runs what `cubectl evaluate BIG.xlsx --offline --yes
// --out report.xlsx --json SUMMARY.json` runs, in one process, over a
// generated workbook of CUBE_SCALE_ITEMS questions (default 100,000) and
// CUBE_SCALE_GUIDES guides (default 2,000) judged by the two offline
// judges, and reports each stage's wall time, CPU time (user+sys) and the
// process's peak resident set, with the load average beside them:
//
//	go test -run '^$' -bench EndToEnd -benchtime 1x -timeout 30m ./internal/scale
//
// Generating the workbook is not timed. scripts/bench.sh prints the result
// into the README's table.
func BenchmarkEndToEnd(b *testing.B) {
	n := benchEnv(b, "CUBE_SCALE_ITEMS", 100000)
	guides := benchEnv(b, "CUBE_SCALE_GUIDES", 2000)
	dir := b.TempDir()
	book := filepath.Join(dir, "BIG.xlsx")
	if _, err := WriteBook(book, Book{Items: n, Guides: guides, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	p := offlineProfile()
	ctx := b.Context()
	load0 := loadAverage()
	b.ResetTimer()
	defer watchPeakHeap(b)()
	var stages []benchStage
	for i := 0; i < b.N; i++ {
		stages = stages[:0]
		os.Remove(filepath.Join(dir, "BIG.cube.db"))
		var sess *session.Session
		steps := []struct {
			name string
			fn   func() error
		}{
			{"open", func() (err error) { sess, err = session.Open(ctx, book, session.OpenOptions{}); return err }},
			{"evaluate", func() error {
				heapSnapshot(b, "after-open")
				_, err := sess.Evaluate(ctx, p, session.EvalOptions{Offline: true})
				return err
			}},
			{"summary", func() error {
				heapSnapshot(b, "after-evaluate")
				return sess.WriteSummary(filepath.Join(dir, session.SummaryFile))
			}},
			{"report", func() error {
				err := sess.WriteReport(ctx, filepath.Join(dir, "report.xlsx"), text.LangOf(p.Language), nil)
				heapSnapshot(b, "after-report")
				return err
			}},
		}
		for _, s := range steps {
			if err := runStage(&stages, s.name, s.fn); err != nil {
				b.Fatalf("%s: %v", s.name, err)
			}
		}
	}
	b.StopTimer()
	var wall, cpu time.Duration
	var rss uint64
	for _, s := range stages {
		wall, cpu, rss = wall+s.wall, cpu+s.cpu, max(rss, s.rss)
		b.ReportMetric(s.wall.Seconds(), s.name+"-s")
		b.ReportMetric(s.cpu.Seconds(), s.name+"-cpu-s")
		b.ReportMetric(float64(s.rss)/(1<<20), s.name+"-rss-MB")
	}
	b.ReportMetric(wall.Seconds(), "total-s")
	b.ReportMetric(cpu.Seconds(), "total-cpu-s")
	b.ReportMetric(float64(rss)/(1<<20), "peak-rss-MB")
	b.ReportMetric(max(load0, loadAverage()), "load1")
	b.Log("\n" + stageTable(n, guides, stages, load0, loadAverage()))
}

func stageTable(n, guides int, stages []benchStage, load0, load1 float64) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "end to end: %d questions, %d guides, judges lexical + semantic; load average %.1f → %.1f\n", n, guides, load0, load1)
	fmt.Fprintf(&sb, "%-10s %9s %9s %13s\n", "stage", "wall s", "cpu s", "peak RSS MB")
	for _, s := range stages {
		fmt.Fprintf(&sb, "%-10s %9.2f %9.2f %13.0f\n", s.name, s.wall.Seconds(), s.cpu.Seconds(), float64(s.rss)/(1<<20))
	}
	return sb.String()
}

// heapSnapshot writes the live heap to $CUBE_SCALE_HEAP/NAME.heap when that
// is set, to see what a stage leaves held (go tool pprof -sample_index=inuse_space).
func heapSnapshot(b *testing.B, name string) {
	dir := os.Getenv("CUBE_SCALE_HEAP")
	if dir == "" {
		return
	}
	runtime.GC()
	f, err := os.Create(filepath.Join(dir, name+".heap"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

// watchPeakHeap writes the heap profile to $CUBE_SCALE_HEAP/peak-MB.heap each
// time the live heap after a collection reaches a new high, to see what is
// held at the run's peak rather than after it; the returned func stops it.
func watchPeakHeap(b *testing.B) func() {
	dir := os.Getenv("CUBE_SCALE_HEAP")
	if dir == "" {
		return func() {}
	}
	stop, done := make(chan struct{}), make(chan struct{})
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	go func() {
		defer close(done)
		var high uint64
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			metrics.Read(sample)
			if live := sample[0].Value.Uint64(); live > high+high/20 {
				high = live
				f, err := os.Create(filepath.Join(dir, fmt.Sprintf("peak-%04d.heap", live>>20)))
				if err != nil {
					b.Error(err)
					return
				}
				pprof.WriteHeapProfile(f)
				f.Close()
				b.Logf("%s: live heap %.0f MB", time.Now().Format("15:04:05"), float64(live)/(1<<20))
			}
		}
	}()
	return func() { close(stop); <-done }
}
