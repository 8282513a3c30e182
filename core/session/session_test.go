package session

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/brief"
	"cubeworkbench/core/chart"
	"cubeworkbench/core/chunk"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/report"
	"cubeworkbench/internal/testbook"
)

func lexicalProfile() profile.Profile {
	p := profile.Default()
	p.Language = "en"
	p.Bootstrap = 50
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}}
	return p
}

// badBook has eight good qa rows and one that repeats an id.
func badBook(t *testing.T) string {
	b := testbook.New()
	guides := b.Sheet("guides", "doc_id", "title", "text")
	qa := b.Sheet("qa", "id", "question", "doc_id", "retrieved", "answer", "answer_zero", "answer_full")
	for i := 1; i <= 8; i++ {
		g := fmt.Sprintf("G%d", i)
		guides.Row(g, "事项"+g, fmt.Sprintf("事项%d：持身份证办理，%d个工作日。", i, i))
		qa.Row(fmt.Sprintf("q%d", i), fmt.Sprintf("事项%d怎么办？", i), g, g, fmt.Sprintf("持身份证，%d个工作日。", i), "请咨询。", fmt.Sprintf("持身份证办理，%d个工作日。", i))
	}
	qa.Row("q3", "重复？", "G3", "G3", "重复。", "重复。", "重复。")
	return b.WriteXLSX(t, filepath.Join(t.TempDir(), "bad.xlsx"))
}

// Open checks the workbook: errors stop an evaluation unless their rows
// are skipped, and then the summary lists the skipped rows.
func TestOpenCheckEvaluateSkipped(t *testing.T) {
	ctx := context.Background()
	path := badBook(t)
	strict, err := Open(ctx, path, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := strict.Check(); !errors.Is(err, ErrWorkbookErrors) {
		t.Fatalf("Check = %v, want ErrWorkbookErrors", err)
	}
	if _, err := strict.Evaluate(ctx, lexicalProfile(), EvalOptions{Offline: true}); !errors.Is(err, ErrWorkbookErrors) {
		t.Fatalf("Evaluate = %v, want ErrWorkbookErrors", err)
	}
	s, err := Open(ctx, path, OpenOptions{SkipBadRows: true})
	if err != nil || s.Check() != nil {
		t.Fatalf("skipping: %v, %v", err, s.Check())
	}
	items := len(s.Workbook.Items)
	res, err := s.Evaluate(ctx, lexicalProfile(), EvalOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Summary.Skipped) == 0 || res.Summary.Result == nil {
		t.Fatalf("skipped %v, CuBE %v", res.Summary.Skipped, res.Summary.Result)
	}
	if s.Workbook.Scores.Len() != 0 || s.Shown().Scores.Len() == 0 || len(s.Workbook.Items) != items {
		t.Fatalf("the session's workbook changed (%d scores), or the result has none (%d)", s.Workbook.Scores.Len(), s.Shown().Scores.Len())
	}
	if s.Result() != res {
		t.Fatal("the session does not keep its result")
	}
}

// Export writes the report, SUMMARY.json and every chart; the histograms
// are drawn from cube's per-item rag scores, one value per item.
func TestExportAndFigures(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, testbook.Sample(t, t.TempDir()), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Export(ctx, t.TempDir(), "en", ExportJSON); !errors.Is(err, ErrNoResult) {
		t.Fatalf("export before an evaluation: %v", err)
	}
	res, err := s.Evaluate(ctx, lexicalProfile(), EvalOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	written, err := s.Export(ctx, dir, "en", ExportReport, ExportJSON, ExportCharts)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{ReportFile, SummaryFile, filepath.Join(ChartsDir, "histograms.png"), filepath.Join(ChartsDir, "cube.svg")} {
		path := filepath.Join(dir, want)
		if !slices.Contains(written, path) {
			t.Errorf("%s not written (%v)", want, written)
		}
		if _, err := os.Stat(path); err != nil {
			t.Error(err)
		}
	}
	figs := s.Figures()
	if len(figs) == 0 || figs[0].Kind != "histograms" {
		t.Fatalf("figures %v", figs)
	}
	if _, err := figs[0].Build(chart.Options{Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	r := res.Summary.Result
	col := r.RAGScores.Column(0, 0)
	if len(col) == 0 || len(col) > r.Items {
		t.Fatalf("histogram column has %d values for %d items", len(col), r.Items)
	}
}

// A knowledge base streamed into the run store loads only the guides the
// questions name; the evaluation knows the corpus is partial.
func TestOpenStreams(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, testbook.Sample(t, dir), OpenOptions{StreamGuides: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Streamed == 0 || s.StorePath != filepath.Join(dir, "cube-sample.cube.db") {
		t.Fatalf("streamed %d into %s", s.Streamed, s.StorePath)
	}
	res, err := s.Evaluate(ctx, lexicalProfile(), EvalOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Summary.CoFE; c != nil && c.Chunks != 0 {
		t.Fatalf("CoFE retrieved over %d chunks of a partial corpus", c.Chunks)
	}
}

// A sweep beside an evaluation joins its summary (cofe_sweep), so the
// report's CoFE sheet shows it; a sweep needs documents to retrieve over.
func TestSweepJoinsTheSummary(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, testbook.Sample(t, t.TempDir()), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Evaluate(ctx, lexicalProfile(), EvalOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	small, err := chunk.New(chunk.KindFixed, 128, 16)
	if err != nil {
		t.Fatal(err)
	}
	sw, skipped, err := s.Sweep(ctx, lexicalProfile(), []chunk.Chunker{small, chunk.PerDocument()}, []string{"bm25"}, nil)
	if err != nil || len(skipped) != 0 {
		t.Fatal(err, skipped)
	}
	if len(sw.Rows) != 2 || res.Summary.Sweep != sw || !res.Summary.HasCoFERetrieval() {
		t.Fatalf("sweep rows %d, joined %v", len(sw.Rows), res.Summary.Sweep == sw)
	}
	empty := New(filepath.Join(t.TempDir(), "empty.xlsx"), &dataset.Workbook{}, nil)
	if _, _, err := empty.Sweep(ctx, lexicalProfile(), []chunk.Chunker{small}, []string{"bm25"}, nil); !errors.Is(err, ErrNoDocuments) {
		t.Fatalf("sweep without documents: %v", err)
	}
}

// Open passes ReadHiddenSheets to the reader: a very hidden scores sheet
// is read only when asked for.
func TestOpenReadHiddenSheets(t *testing.T) {
	b := testbook.New()
	b.Sheet("qa", "id", "question", "answer").Row("a", "看得见的问题", "回答")
	b.Sheet("scores", "id", "set", "judge", "dimension", "score").Row("a", "rag", "j", "relevance", 10)
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "hidden.xlsx"))
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetSheetVisible("scores", false, true); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, read := range []bool{false, true} {
		s, err := Open(context.Background(), path, OpenOptions{ReadHiddenSheets: read})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{false: 0, true: 1}[read]; s.Workbook.Scores.Len() != want {
			t.Errorf("ReadHiddenSheets %v: %d scores, want %d", read, s.Workbook.Scores.Len(), want)
		}
	}
}

// Startup removes what a killed process left in ingest's temporary folder.
func TestStartupCleansTemp(t *testing.T) {
	left := filepath.Join(ingest.TempDir(), "p2147480000-session-test")
	if err := os.MkdirAll(left, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(left, "sheet.xml"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Startup(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("Startup left %s (%v)", left, err)
	}
}

// Issue 23 (11): SUMMARY.json and the Method sheet fingerprint the
// workbook as first read, even when it is replaced before the run ends.
func TestWorkbookFingerprint(t *testing.T) {
	ctx := context.Background()
	path := badBook(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%x", sha256.Sum256(data))
	st, _ := os.Stat(path)
	s, err := Open(ctx, path, OpenOptions{SkipBadRows: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, 0), 0o644); err != nil { // replaced mid-run
		t.Fatal(err)
	}
	if _, err := s.Evaluate(ctx, lexicalProfile(), EvalOptions{Offline: true}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := s.Export(ctx, dir, "en", ExportJSON, ExportReport); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Run struct {
			File struct {
				SHA256   string    `json:"sha256"`
				Bytes    int64     `json:"bytes"`
				Modified time.Time `json:"modified"`
			} `json:"workbook_file"`
		} `json:"run"`
	}
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	f := sum.Run.File
	if f.SHA256 != want || f.Bytes != int64(len(data)) || !f.Modified.Equal(st.ModTime().UTC()) {
		t.Fatalf("workbook_file = %+v, want %s, %d bytes, %v", f, want, len(data), st.ModTime())
	}
	x, err := excelize.OpenFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, _ := x.GetRows(report.SheetMethod)
	found := false
	for _, r := range rows {
		found = found || slices.Contains(r, want)
	}
	if !found {
		t.Fatal("the Method sheet does not show the workbook's SHA-256")
	}
}

// Issue 23 (5): too few questions make the verdict undetermined with its
// reason in the same words on every surface: the summary's verdict, the
// why (window, CLI, report) and the brief's page.
func TestTooFewQuestionsOnEverySurface(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, badBook(t), OpenOptions{SkipBadRows: true})
	if err != nil {
		t.Fatal(err)
	}
	p := lexicalProfile() // default minimum: 30 questions; the book has 8
	res, err := s.Evaluate(ctx, p, EvalOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Summary
	v := sum.Verdict
	if v.Code != "undetermined" || len(v.Reasons) != 1 || !strings.Contains(v.Text.EN, "more needed") {
		t.Fatalf("verdict %+v", v)
	}
	detail := v.Reasons[0].Detail.EN
	if e := sum.Explanation; e == nil || len(e.Bullets) == 0 || e.Bullets[0].EN != detail {
		t.Fatalf("the why does not lead with the reason: %+v", sum.Explanation)
	}
	c := report.BriefContent(sum, p, "en")
	if c.Undetermined != detail || c.Verdict != "undetermined" {
		t.Fatalf("brief: %q, %q", c.Verdict, c.Undetermined)
	}
	page, err := brief.Layout(c)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, b := range page.Blocks {
		text = append(text, b.Lines...)
	}
	if all := strings.Join(text, " "); !strings.Contains(all, "more are needed") {
		t.Fatalf("the brief's page does not say why:\n%s", all)
	}
}
