package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/report"
	"cubeworkbench/internal/testbook"
)

// readComparison reads what --json wrote.
func readComparison(t *testing.T, path string) (*compare.Result, map[string]any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "NaN") {
		t.Error("the comparison JSON holds NaN")
	}
	var r compare.Result
	var raw map[string]any
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	return &r, raw
}

// The sample's two systems: exit 0, the table and the verdict printed as
// the JSON has them, the JSON's fields, and a report with its Comparison
// sheet.
func TestCompareSets(t *testing.T) {
	dir := t.TempDir()
	book := testbook.Sample(t, dir)
	js, out := filepath.Join(dir, "compare.json"), filepath.Join(dir, "report.xlsx")
	code, stdout, stderr := run(t, "compare", book, "--sets", "rag,系统B", "--offline", "--lang", "en", "--json", js, "--out", out)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	r, raw := readComparison(t, js)
	for _, key := range []string{"verdict", "aggregate", "recall_at_k", "mfss_total", "better", "worse", "regressions", "warnings", "shared_bounds", "paired", "headline"} {
		if _, ok := raw[key]; !ok {
			t.Errorf("the JSON lacks %q", key)
		}
	}
	d := r.Aggregate.Cube
	if r.Paired != 60 || !r.SharedBounds || d.Diff == nil || d.CI95 == nil || d.Detectable == nil {
		t.Fatalf("paired %d shared %v ΔCuBE %+v", r.Paired, r.SharedBounds, d)
	}
	row := "ΔCuBE " // the table's first row, as printed
	var line string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, row) {
			line = l
			break
		}
	}
	for _, want := range []string{compare.Fmt1(d.A), compare.Fmt1(d.B), compare.FmtSigned(d.Diff), compare.FmtCI(d.CI95), compare.Fmt1(d.Detectable), compare.VerdictText(d.Verdict).EN} {
		if !strings.Contains(line, want) {
			t.Errorf("ΔCuBE row %q lacks %q", line, want)
		}
	}
	for _, want := range []string{r.Headline.EN, "Verdict: " + compare.VerdictText(r.Verdict).EN, "!! WARNING", "Regressions, worst first:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if len(r.Regressions) > 0 && !strings.Contains(stdout, r.Regressions[0].ID) {
		t.Errorf("the worst regression %s is not listed", r.Regressions[0].ID)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	found := false
	for _, s := range f.GetSheetList() {
		found = found || s == report.SheetComparison
	}
	if !found {
		t.Errorf("report sheets %v lack the comparison", f.GetSheetList())
	}
}

// Two workbooks: the sample against an identical copy gives Δ 0 and no
// detectable difference.
func TestCompareWorkbooksSelf(t *testing.T) {
	dir := t.TempDir()
	a := testbook.Sample(t, dir)
	data, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(t.TempDir(), "v2.xlsx")
	if err := os.WriteFile(b, data, 0o644); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(dir, "self.json")
	code, stdout, stderr := run(t, "compare", a, b, "--offline", "--lang", "zh", "--json", js)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	r, _ := readComparison(t, js)
	if r.Verdict != compare.VerdictNone || r.Aggregate.Cube.Diff == nil || *r.Aggregate.Cube.Diff != 0 || !strings.Contains(stdout, "没有可检测的差异") {
		t.Fatalf("self: verdict %s Δ %v\n%s", r.Verdict, r.Aggregate.Cube.Diff, stdout)
	}
}

func TestCompareExitCodes(t *testing.T) {
	dir := t.TempDir()
	book := testbook.Sample(t, dir)
	for _, c := range []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"compare", "--lang", "en"}, ExitUsage, "compare needs"},
		{[]string{"compare", book, "--sets", "rag"}, ExitUsage, "--sets"},
		{[]string{"compare", book, "--lang", "fr"}, ExitUsage, "--lang"},
		{[]string{"compare", filepath.Join(dir, "missing.xlsx"), "--offline"}, ExitBadInput, "missing.xlsx"},
		{[]string{"compare", book, "--sets", "rag,系统C", "--offline"}, ExitBadInput, "系统C"},
		{[]string{"compare", book, filepath.Join(dir, "SUMMARY.json"), "--offline"}, ExitBadInput, "SUMMARY.json"},
	} {
		code, _, stderr := run(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q", c.args, code, c.code, stderr)
		}
	}
}

// TestCompareRefusalsInOneLanguage: a comparison the session refuses is
// said in the CLI's language only — no Chinese in the English output, no
// English sentence (session: compare: …) in the Chinese one — in the words
// of session.Explain, which the window shows too.
func TestCompareRefusalsInOneLanguage(t *testing.T) {
	dir := t.TempDir()
	book := testbook.Sample(t, dir)
	for _, args := range [][]string{
		{"compare", book, filepath.Join(dir, "SUMMARY.json"), "--offline"},
		{"compare", book, book, "--offline"},
		{"compare", book, "--sets", "rag,rag", "--offline"},
	} {
		for _, lang := range []string{"en", "zh"} {
			code, _, stderr := run(t, append(args, "--lang", lang)...)
			if code != ExitBadInput {
				t.Errorf("%v --lang %s: exit %d\n%s", args, lang, code, stderr)
			}
			if lang == "en" && hanRe.MatchString(stderr) {
				t.Errorf("%v: the English CLI shows Chinese: %q", args, stderr)
			}
			if lang == "zh" {
				if bad := glossary.UnexpectedASCII(stderr, book, "rag", "--sets", "--store", "--offline"); len(bad) > 0 {
					t.Errorf("%v: the Chinese CLI shows English %v: %q", args, bad, stderr)
				}
			}
		}
	}
}

var hanRe = regexp.MustCompile(`\p{Han}`)

// TestCompareUsageInOneLanguage: a command line compare cannot use is
// refused in the CLI's language only (--lang, else CUBE_LANG, else the
// profile's), like every other message; it carried both languages in one
// string.
func TestCompareUsageInOneLanguage(t *testing.T) {
	dir := t.TempDir()
	book := testbook.Sample(t, dir)
	for _, args := range [][]string{
		{"compare"},
		{"compare", book, "--sets", "rag"},
		{"compare", book, "--stores", "a.db"},
	} {
		for _, lang := range []string{"en", "zh"} {
			code, _, stderr := run(t, append(args, "--lang", lang)...)
			if code != ExitUsage {
				t.Errorf("%v --lang %s: exit %d\n%s", args, lang, code, stderr)
			}
			if lang == "en" && hanRe.MatchString(stderr) {
				t.Errorf("%v: the English CLI shows Chinese: %q", args, stderr)
			}
			if lang == "zh" && (!hanRe.MatchString(stderr) || strings.Contains(stderr, " / ")) {
				t.Errorf("%v: the Chinese CLI is not in Chinese alone: %q", args, stderr)
			}
		}
	}
	t.Setenv(EnvLang, "en")
	if _, _, stderr := run(t, "compare"); hanRe.MatchString(stderr) || !strings.Contains(stderr, "compare needs") {
		t.Errorf("CUBE_LANG=en: %q", stderr)
	}
}
