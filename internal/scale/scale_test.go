package scale

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/report"
	"cubeworkbench/core/result"
	"cubeworkbench/core/store"
	"cubeworkbench/core/text"
)

// defaultItems keeps `go test ./...` quick; the figure is 100,000.
const defaultItems = 2000

func itemsFromEnv(t *testing.T) int {
	v := os.Getenv("CUBE_SCALE_ITEMS")
	if v == "" {
		return defaultItems
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("CUBE_SCALE_ITEMS=%q: want a whole number of questions ≥ 1", v)
	}
	return n
}

// stage is one row of the log's table.
type stage struct {
	name    string
	seconds float64
	mem     Usage
	note    string
}

// measure runs fn with the memory sampler on and records the stage.
func measure(stages *[]stage, name string, fn func() string) {
	pk := StartPeak(20 * time.Millisecond)
	t0 := time.Now()
	note := fn()
	*stages = append(*stages, stage{name: name, seconds: time.Since(t0).Seconds(), mem: pk.Stop(), note: note})
}

// scaleProfile is the default profile with the two imported judges, a
// smaller bootstrap and no CoFE generation judging (imported judges made
// none), so the run needs no endpoint.
func scaleProfile() profile.Profile {
	p := profile.Default()
	p.Bootstrap = 200
	p.CoFE.Generation = false
	for _, j := range Judges {
		p.Judges = append(p.Judges, profile.Endpoint{Name: j})
	}
	return p
}

// TestScaleEndToEnd generates N questions (CUBE_SCALE_ITEMS, default
// 2,000), reads, evaluates and reports them, and logs each stage's time and
// peak memory:
//
//	CUBE_SCALE_ITEMS=100000 go test -run Scale -v -timeout 60m ./internal/scale
func TestScaleEndToEnd(t *testing.T) {
	n := itemsFromEnv(t)
	ctx := t.Context()
	dir := t.TempDir()
	book := filepath.Join(dir, "scale.xlsx")
	out := filepath.Join(dir, "report.xlsx")
	var stages []stage

	var sh Shape
	measure(&stages, "generate", func() string {
		var err error
		if sh, err = Write(book, n, 1); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%s, %d score sheets", fileSize(t, book), len(sh.ScoreSheets))
	})

	var wb *dataset.Workbook
	measure(&stages, "ingest.Open", func() string {
		var rep *ingest.Report
		var err error
		if wb, rep, err = ingest.Open(ctx, book, ingest.Options{}); err != nil {
			t.Fatal(err)
		}
		if rep.HasErrors() {
			t.Fatalf("the generated workbook has errors: %v", problemCodes(rep))
		}
		return fmt.Sprintf("%d guides, %d items, %d judgements", len(wb.Guides), len(wb.Items), wb.Scores.Len())
	})
	if len(wb.Guides) != sh.Guides || len(wb.Items) != sh.Items || wb.Scores.Len() != sh.Scores {
		t.Fatalf("read %d guides, %d items, %d judgements; wrote %d, %d, %d", len(wb.Guides), len(wb.Items), wb.Scores.Len(), sh.Guides, sh.Items, sh.Scores)
	}

	st, err := store.Open(filepath.Join(dir, "scale.cube.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p := scaleProfile()
	var res *engine.Result
	measure(&stages, "engine.Run", func() string {
		var err error
		res, err = engine.Run(ctx, wb, engine.Options{
			Profile: p, Store: st, Offline: true, Embedder: embed.NewHashed(), Version: "scale-test",
			NewCompleter: func(ep profile.Endpoint) (llm.Completer, error) {
				t.Errorf("an endpoint was asked for (%s): imported judges need none", ep.Name)
				return nil, errors.New("scale: no endpoint in this test")
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%d calls; %s", res.Summary.Run.Calls, cubeNote(res.Summary))
	})
	checkSummary(t, res.Summary, sh)

	measure(&stages, "report.Write", func() string {
		err := report.Write(ctx, out, report.Input{Summary: res.Summary, Workbook: res.Workbook, Profile: p, Lang: text.LangOf(p.Language)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return fileSize(t, out)
	})

	measure(&stages, "reopen report", func() string {
		rows := reopenScores(t, out)
		if rows != sh.Scores {
			t.Errorf("the report's scores sheets hold %d judgements, want %d", rows, sh.Scores)
		}
		return fmt.Sprintf("%d judgement rows", rows)
	})
	logTable(t, n, stages)
}

func checkSummary(t *testing.T, s *result.Summary, sh Shape) {
	t.Helper()
	if s.Result == nil {
		t.Fatal("no CuBE result")
	}
	if s.Items != sh.Items {
		t.Errorf("Summary.Items = %d, want %d", s.Items, sh.Items)
	}
	if s.Retrieved != sh.Hits {
		t.Errorf("Summary.Retrieved = %d, want the %d questions whose gold document was generated into the list", s.Retrieved, sh.Hits)
	}
	if s.Run.Calls != 0 {
		t.Errorf("the run made %d endpoint calls; imported judges need none", s.Run.Calls)
	}
	var names []string
	for _, j := range s.Judges {
		names = append(names, j.Judge)
		if j.Cube == nil || math.IsNaN(*j.Cube) {
			t.Errorf("judge %s has no CuBE score", j.Judge)
		}
		if j.Judgements != sh.Scores/len(Judges) {
			t.Errorf("judge %s read %d judgements, want %d", j.Judge, j.Judgements, sh.Scores/len(Judges))
		}
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(Judges))
	if !slices.Equal(names, want) {
		t.Errorf("judges %v, want %v", names, want)
	}
	if s.Aggregate.Cube.Mean == nil {
		t.Error("the cross-judge CuBE mean is undefined")
	}
}

// reopenScores opens the report with excelize and counts the judgement rows
// of its scores sheet and continuations.
func reopenScores(t *testing.T, path string) int {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatalf("the report does not open: %v", err)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if !slices.Contains(sheets, report.SheetSummary) {
		t.Errorf("the report has no %q sheet: %v", report.SheetSummary, sheets)
	}
	total := 0
	for _, name := range sheets {
		if name != report.SheetScores && !strings.HasPrefix(name, report.SheetScores+" (") {
			continue
		}
		rows, err := f.Rows(name)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		if rows.Error() != nil {
			t.Fatal(rows.Error())
		}
		total += n - 1 // header
	}
	return total
}

// cubeNote is each judge's CuBE score and weights, to see the generated
// scores mean something.
func cubeNote(s *result.Summary) string {
	if s.Result == nil {
		return "no CuBE result"
	}
	var parts []string
	for _, j := range s.Judges {
		c := "n/a"
		if j.Cube != nil {
			c = fmt.Sprintf("%.2f", *j.Cube)
		}
		var w []string
		for _, d := range Dimensions {
			w = append(w, fmt.Sprintf("%.2f", j.Weights[d]))
		}
		parts = append(parts, fmt.Sprintf("%s CuBE %s (%s weights %s)", j.Judge, c, j.WeightSource, strings.Join(w, "/")))
	}
	return strings.Join(parts, "; ")
}

func fileSize(t *testing.T, path string) string {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%.1f MB", float64(info.Size())/1e6)
}

func problemCodes(rep *ingest.Report) []string {
	var out []string
	for _, p := range rep.Problems {
		if len(out) == 10 {
			break
		}
		out = append(out, p.Code+"@"+p.Sheet+":"+strconv.Itoa(p.Row))
	}
	return out
}

func logTable(t *testing.T, n int, stages []stage) {
	var b strings.Builder
	fmt.Fprintf(&b, "scale: %d questions\n", n)
	fmt.Fprintf(&b, "%-15s %9s %15s %14s %13s  %s\n", "stage", "seconds", "heap start MB", "peak heap MB", "peak sys MB", "note")
	for _, s := range stages {
		fmt.Fprintf(&b, "%-15s %9.2f %15.0f %14.0f %13.0f  %s\n", s.name, s.seconds, s.mem.StartHeapMB, s.mem.PeakHeapMB, s.mem.PeakSysMB, s.note)
	}
	t.Log("\n" + b.String())
}
