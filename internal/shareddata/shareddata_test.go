package shareddata

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test ended.
type recorder struct {
	testing.TB
	failed, skipped string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(f string, a ...any) {
	r.failed = f
	panic(r)
}
func (r *recorder) Skipf(f string, a ...any) {
	r.skipped = f
	panic(r)
}

func outcome(t *testing.T, ci string) *recorder {
	t.Setenv("CI", ci)
	r := &recorder{TB: t}
	func() {
		defer func() { _ = recover() }()
		Path(r, "no-such-dataset", filepath.Base(t.Name()))
	}()
	return r
}

// A missing dataset fails under CI=true, naming the path, and skips otherwise.
func TestMissingFailsInCI(t *testing.T) {
	if r := outcome(t, "true"); r.failed == "" || !strings.Contains(r.failed, "missing") {
		t.Errorf("CI=true: failed %q, skipped %q", r.failed, r.skipped)
	}
	if r := outcome(t, ""); r.skipped == "" || r.failed != "" {
		t.Errorf("no CI: failed %q, skipped %q", r.failed, r.skipped)
	}
}

// Dir is beside the module root whatever package the test runs in.
func TestDirBesideModule(t *testing.T) {
	wd, _ := os.Getwd()
	root := filepath.Dir(filepath.Dir(wd)) // internal/shareddata → module root
	if want := filepath.Join(filepath.Dir(root), "shared", "data"); Dir() != want {
		t.Errorf("Dir = %s, want %s", Dir(), want)
	}
}
