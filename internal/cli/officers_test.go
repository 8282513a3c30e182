package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/internal/testbook"
)

// Issue 23 (12): validate exits 1 when there is nothing to evaluate.
func TestValidateNothingToEvaluate(t *testing.T) {
	b := testbook.New()
	b.Sheet("办事指南", "事项编码", "事项名称").Row("G1", "事项一")
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "guides-only.xlsx"))
	code, out, errOut := run(t, "validate", path, "--lang", "en")
	if code != ExitBadInput || !strings.Contains(out, "Nothing to evaluate") || strings.Contains(out, "OK") {
		t.Fatalf("exit %d, output %q %q", code, out, errOut)
	}
}

// Issue 23 (2, 3): validate names the doubts it resolved, and --read-hidden
// (the new name) reads rows hidden by a filter.
func TestValidateNamesResolvedDoubts(t *testing.T) {
	b := testbook.New()
	b.Sheet("问答集", "问题").Row("一").Row("二").Filter(3)
	b.Sheet("问答集 (2)", "问题").Row("三")
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "book.xlsx"))
	code, out, _ := run(t, "validate", path, "--lang", "en")
	if code != ExitOK || !strings.Contains(out, "read 2 question sheets together: 问答集, 问答集 (2)") || !strings.Contains(out, "hidden by a filter") || !strings.Contains(out, "2 questions") {
		t.Fatalf("exit %d, output %q", code, out)
	}
	if code, out, _ = run(t, "validate", path, "--lang", "en", "--read-hidden"); code != ExitOK || !strings.Contains(out, "3 questions") {
		t.Fatalf("--read-hidden: exit %d, output %q", code, out)
	}
}

// Issue 23 (12): CUBE_LANG is honoured by every command, evaluate included,
// over the profile's language.
func TestCubeLangEveryCommand(t *testing.T) {
	t.Setenv("CUBE_LANG", "en")
	b := testbook.New()
	b.Sheet("办事指南", "事项编码", "事项名称").Row("G1", "事项一")
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "guides-only.xlsx"))
	if _, out, _ := run(t, "validate", path); !strings.Contains(out, "Nothing to evaluate") {
		t.Errorf("validate: %q", out)
	}
	book := testbook.Sample(t, t.TempDir())
	code, out, errOut := run(t, "evaluate", book, "--offline", "--yes")
	if code != ExitOK || !strings.Contains(out, "Verdict:") || strings.Contains(out, "结论") {
		t.Errorf("evaluate: exit %d, output %q %q", code, out, errOut)
	}
	t.Setenv("CUBE_LANG", "zh_CN.UTF-8")
	if _, out, _ := run(t, "validate", path); !strings.Contains(out, "没有可评估的内容") {
		t.Errorf("validate zh: %q", out)
	}
}

// Issue 23 (12): a run store that cannot be made beside the workbook (a
// read-only folder) is told to go elsewhere with --store. The test blocks
// the store's path with a folder, since root (CI) writes into read-only
// folders.
func TestUnwritableStoreSuggestsStore(t *testing.T) {
	dir := t.TempDir()
	book := testbook.Sample(t, dir)
	if err := os.Mkdir(strings.TrimSuffix(book, filepath.Ext(book))+".cube.db", 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "evaluate", book, "--offline", "--yes")
	if code == ExitOK || !strings.Contains(errOut, "--store") || !strings.Contains(errOut, "运行记录库") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	other := filepath.Join(t.TempDir(), "run.cube.db")
	if code, _, errOut = run(t, "evaluate", book, "--offline", "--yes", "--store", other); code != ExitOK {
		t.Fatalf("with --store: exit %d, %s", code, errOut)
	}
}
