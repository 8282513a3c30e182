package cli

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/secret"
	"cubeworkbench/internal/fakeai"
	"cubeworkbench/internal/testbook"
)

// A key typed in the window (core/secret, this session only) reaches the
// judge's Authorization header and is in no file the run wrote — the
// store, SUMMARY.json, the report's parts — nor in what it printed.
func TestTypedKeyUsedAndNeverWritten(t *testing.T) {
	const key = "sk-typed-window-key-5d8e1f0a"
	ref := secret.Judge("fake")
	if err := secret.Default().Set(ref, key, secret.InMemory); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { secret.Default().Delete(ref) })
	srv := fakeai.New(t, fakeai.WithAPIKey(key), fakeai.WithScript(fakeai.ServerError))
	dir := t.TempDir()
	book := testbook.Sample(t, dir)
	prof := judgeProfile(t, dir, srv.URL(), "")
	store, summary, report := filepath.Join(dir, "run.db"), filepath.Join(dir, "SUMMARY.json"), filepath.Join(dir, "report.xlsx")
	code, out, errOut := run(t, "evaluate", book, "--profile", prof, "--yes", "--store", store, "--json", summary, "--out", report)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	chats := srv.Chats()
	if len(chats) == 0 {
		t.Fatal("no judge call")
	}
	for _, c := range chats {
		if c.Auth != "Bearer "+key {
			t.Fatalf("Authorization %q: the typed key was not used", c.Auth)
		}
	}
	files := map[string]string{"stdout": out, "stderr": errOut}
	for _, p := range []string{store, summary} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = string(data)
	}
	zr, err := zip.OpenReader(report)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		rc.Close()
		files["report:"+f.Name] = string(data)
	}
	for name, text := range files {
		if strings.Contains(text, key) || strings.Contains(text, key[3:]) {
			t.Errorf("the key is in %s", name)
		}
	}
}
