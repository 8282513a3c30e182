package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/internal/testbook"
)

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut strings.Builder
	code := Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// The demo is the main job: the sample evaluated offline end to end.
func TestDemo(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "demo", "--out", dir, "--lang", "en")
	if code != ExitOK {
		t.Fatalf("demo exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"CuBE ", "guide recall@8 80.00 %", "Verdict", "MFSS", "CoFE-RAG", "lexical", "semantic", "15 answers were spot-checked by 2 people"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	// The English progress names the offline judges as the glossary does.
	for _, want := range []string{"the lexical baseline (word overlap)", "judging lexical baseline"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("demo progress lacks %q:\n%s", want, errOut)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "SUMMARY.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"tool_version", "items", "retrieved", "recall_at_k", "top_n", "subset", "trim", "dimensions", "judges", "aggregate", "mfss", "cofe"} {
		if _, ok := sum[key]; !ok {
			t.Errorf("SUMMARY.json lacks %q", key)
		}
	}
	if sum["items"].(float64) != 60 || sum["recall_at_k"].(float64) != 0.8 {
		t.Errorf("items %v recall %v", sum["items"], sum["recall_at_k"])
	}
	if strings.Contains(string(data), "NaN") {
		t.Error("SUMMARY.json holds NaN")
	}
	f, err := excelize.OpenFile(filepath.Join(dir, "report.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if len(f.GetSheetList()) < 5 {
		t.Errorf("report sheets: %v", f.GetSheetList())
	}

	// A second demo over the same folder resumes from the store.
	code, out2, _ := run(t, "demo", "--out", dir, "--lang", "en")
	if code != ExitOK || firstLine(out2) != firstLine(out) {
		t.Fatalf("rerun: exit %d, headline %q vs %q", code, firstLine(out2), firstLine(out))
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func TestValidateAndExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.xlsx")
	if err := os.WriteFile(bad, []byte("this is not a workbook"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := run(t, "validate", bad, "--lang", "en"); code != ExitBadInput || !strings.Contains(out, "bad.xlsx") {
		t.Fatalf("validate bad file: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, "evaluate", bad, "--offline"); code != ExitBadInput {
		t.Fatalf("evaluate bad file: exit %d", code)
	}
	if code, _, _ := run(t, "evaluate"); code != ExitUsage {
		t.Fatalf("evaluate without a workbook: exit %d", code)
	}
	if code, _, _ := run(t, "frobnicate"); code != ExitUsage {
		t.Fatalf("unknown command: exit %d", code)
	}
	if code, out, _ := run(t, "version"); code != ExitOK || !strings.HasPrefix(out, "cube ") {
		t.Fatalf("version: %d %q", code, out)
	}
}

func TestOfflineRefusesCalls(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := run(t, "demo", "--out", dir); code != ExitOK {
		t.Fatal(errOut)
	}
	prof := filepath.Join(dir, "p.toml")
	os.WriteFile(prof, []byte("[[judge]]\nname = \"remote\"\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n"), 0o644)
	code, _, errOut := run(t, "evaluate", filepath.Join(dir, "cube-sample.xlsx"), "--profile", prof, "--offline", "--store", filepath.Join(dir, "x.db"))
	if code != ExitBadInput || !strings.Contains(errOut, "--offline") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestSweep(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := run(t, "demo", "--out", dir); code != ExitOK {
		t.Fatal(errOut)
	}
	png := filepath.Join(dir, "sweep.png")
	code, out, errOut := run(t, "sweep", filepath.Join(dir, "cube-sample.xlsx"), "--chunkers", "fixed:128,fixed:256,document", "--retrievers", "bm25", "--png", png)
	if code != ExitOK {
		t.Fatalf("sweep exit %d: %s", code, errOut)
	}
	if strings.Count(out, "bm25") != 3 {
		t.Errorf("sweep table:\n%s", out)
	}
	if info, err := os.Stat(png); err != nil || info.Size() < 1000 {
		t.Errorf("sweep chart: %v", err)
	}
}

// A workbook with questions only evaluates to nothing, and says what each
// method would need instead of printing an empty report.
func TestNothingToScoreExplained(t *testing.T) {
	b := testbook.New()
	b.Sheet("qa", "问题", "参考答案").Row("怎么办社保卡？", "带身份证去窗口办理。")
	dir := b.WriteCSV(t, t.TempDir())
	code, out, errOut := run(t, "evaluate", dir, "--offline", "--store", filepath.Join(t.TempDir(), "s.db"))
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "没有可计算的结果") || !strings.Contains(out, "参考答案 1 个") {
		t.Fatalf("output:\n%s", out)
	}
}
