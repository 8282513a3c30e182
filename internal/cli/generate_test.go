package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/assets/sample"
	"cubeworkbench/internal/fakeai"
)

// The engineer's path: `cubectl generate` on the sample's guides with a
// fake generator writes 20 filtered questions, and `cubectl evaluate` runs
// on the saved set with the fake as the system under test.
func TestGenerateThenEvaluate(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithResponder(fakeai.Generator))
	dir := t.TempDir()
	wb := filepath.Join(dir, sample.FileName)
	if err := os.WriteFile(wb, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "p.toml")
	toml := fmt.Sprintf(`language = "zh"
bootstrap = 50
[generator]
name = "gen"
base_url = %q
model = "fake-gen"
max_retries = -1
[target]
kind = "openai"
base_url = %q
model = "fake-rag"
[[judge]]
name = "lexical"
lexical = true
`, srv.URL(), srv.URL())
	if err := os.WriteFile(prof, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "qa.xlsx")
	code, stdout, stderr := run(t, "generate", wb, "--per-guide", "1", "--sample", "20", "--aspects", "申请材料,办理时限,fees",
		"--types", "事实类,tutorial", "--profile", prof, "--out", out, "--yes")
	if code != ExitOK {
		t.Fatalf("generate exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"由 20 条指南生成 20 个问题；保留 20 个，筛除 0 个。", "按问题类型：事实类", "教程类", "按方面：申请材料"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.GetRows("qa")
	f.Close()
	if len(rows) != 21 || rows[0][5] != "aspect" || rows[1][8] != "生成" || rows[1][7] != "fake-gen" {
		t.Fatalf("qa sheet: %d rows, %v / %v", len(rows), rows[0], rows[1])
	}
	js := filepath.Join(dir, "S.json")
	code, stdout, stderr = run(t, "evaluate", out, "--profile", prof, "--yes", "--json", js)
	if code != ExitOK {
		t.Fatalf("evaluate exit %d\n%s\n%s", code, stdout, stderr)
	}
	var sum struct {
		Items int `json:"items"`
	}
	data, _ := os.ReadFile(js)
	if err := json.Unmarshal(data, &sum); err != nil || sum.Items != 20 {
		t.Fatalf("SUMMARY items %d, %v", sum.Items, err)
	}
}

func TestGenerateUsage(t *testing.T) {
	for _, args := range [][]string{
		{"generate"},
		{"generate", "wb.xlsx"},
		{"generate", "wb.xlsx", "--out", "x.xlsx", "--types", "poetry"},
		{"generate", "wb.xlsx", "--out", "x.xlsx", "--aspects", "税率"},
		{"generate", "wb.xlsx", "--out", "x.xlsx", "--per-guide", "0"},
		{"generate", "wb.xlsx", "--out", "x.xlsx", "--column", "实施主体"},
	} {
		if code, _, _ := run(t, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want usage", args, code)
		}
	}
	// a profile without a generator is refused by name
	dir := t.TempDir()
	wb := filepath.Join(dir, sample.FileName)
	os.WriteFile(wb, sample.Workbook(), 0o644)
	code, _, stderr := run(t, "generate", wb, "--out", filepath.Join(dir, "o.xlsx"), "--yes")
	if code != ExitBadInput || !strings.Contains(stderr, "[generator]") {
		t.Errorf("no generator: exit %d %s", code, stderr)
	}
}
