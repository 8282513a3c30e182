// Package shareddata finds, for tests, the datasets that may be used for
// testing only and so are not in the repository: ../shared/data beside the
// repository (MSGA-bench gov_qa, CoFE-RAG, TruthfulQA). Public reference
// vectors with their licences are in the repository's testdata instead.
//
// A test that needs a dataset calls Path. When the file is missing it
// skips on a developer's machine, but fails when CI=true, naming the path:
// CI must never pass with evidence tests that did not run.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir is ../shared/data beside the module root (the directory holding
// go.mod), found from the working directory a test runs in.
func Dir() string {
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "data")
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(d), "shared", "data")
		}
		if filepath.Dir(d) == d {
			return filepath.Join("..", "shared", "data")
		}
	}
}

// Path is the dataset file or folder parts under Dir. When it is missing,
// the test fails under CI=true and skips otherwise; either way the message
// names the path.
func Path(tb testing.TB, parts ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{Dir()}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		Missing(tb, p, err)
	}
	return p
}

// Missing reports a dataset that could not be read at path: a failure
// under CI=true, a skip otherwise.
func Missing(tb testing.TB, path string, err error) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("test dataset %s is missing (CI=true, so this is a failure, not a skip): %v", path, err)
	}
	tb.Skipf("test dataset %s not present (CI=true makes this a failure): %v", path, err)
}
