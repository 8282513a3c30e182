package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/assets/sample"
)

// `cubectl kb export` writes the sample's guides, one file per guide id,
// and refuses to overwrite them.
func TestKBExport(t *testing.T) {
	dir := t.TempDir()
	wbPath := filepath.Join(dir, "cube-sample.xlsx")
	if err := os.WriteFile(wbPath, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "kb")
	code, stdout, errOut := run(t, "kb", "export", wbPath, "--out", out, "--lang", "en")
	if code != ExitOK || !strings.Contains(stdout, "manifest.csv") {
		t.Fatalf("exit %d: %s %s", code, stdout, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.txt"))
	if len(files) == 0 {
		t.Fatal("no documents written")
	}
	if code, _, _ := run(t, "kb", "export", wbPath, "--out", out); code != ExitBadInput {
		t.Errorf("second export: exit %d", code)
	}
	if code, _, _ := run(t, "kb", "import"); code != ExitUsage {
		t.Errorf("kb import: exit %d", code)
	}
}
