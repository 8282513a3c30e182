package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/internal/fakeai"
	"cubeworkbench/internal/testbook"
)

// judgeProfile writes a profile whose one judge is the fake server.
func judgeProfile(t *testing.T, dir, baseURL, extra string) string {
	t.Helper()
	path := filepath.Join(dir, "profile.toml")
	body := "language = \"en\"\nbootstrap = 20\n\n[[judge]]\nname = \"fake\"\nbase_url = \"" + baseURL + "\"\nmodel = \"fake-model\"\n" + extra
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// An output that cannot be written stops evaluate before the first call,
// and the message names the path given, not a temporary file.
func TestEvaluateChecksOutputsFirst(t *testing.T) {
	dir := t.TempDir()
	book := testbook.Sample(t, dir)
	blocker := filepath.Join(dir, "not-a-folder")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "a-folder")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, flag, path string
	}{
		{"report under a file", "--out", filepath.Join(blocker, "report.xlsx")},
		{"summary under a file", "--json", filepath.Join(blocker, "SUMMARY.json")},
		{"summary is a folder", "--json", folder},
		{"store under a file", "--store", filepath.Join(blocker, "run.db")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := fakeai.New(t)
			prof := judgeProfile(t, t.TempDir(), srv.URL(), "")
			code, _, errOut := run(t, "evaluate", book, "--profile", prof, "--yes", c.flag, c.path)
			if code != ExitBadInput {
				t.Errorf("exit %d, want %d\n%s", code, ExitBadInput, errOut)
			}
			if n := srv.Requests(); n != 0 {
				t.Errorf("%d endpoint calls before the output was found unwritable", n)
			}
			if !strings.Contains(errOut, c.path) || strings.Contains(errOut, ".partial") {
				t.Errorf("message does not name %s alone:\n%s", c.path, errOut)
			}
		})
	}
}
