package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// importRules is the architecture, in one table: cmd → ui | internal/cli →
// core/session → core/*. Each rule names the packages it applies to
// (from), the imports it forbids (to) and whether it looks at direct
// imports only or at everything linked (deps). A rule with allow set
// permits what later rules forbid (the programs link the session's
// backend). Test files are not checked: a test may build fakes from any
// package.
var importRules = []struct {
	from, to string
	deps     bool
	allow    bool
	why      string
}{
	{from: `^cubeworkbench/cmd/`, to: `^cubeworkbench/core/session/backend$`, allow: true,
		why: "the programs link the session's backend"},
	{from: `.`, to: `^cubeworkbench/core/session/backend$`,
		why: "only cmd/ links the session's backend; everything else reaches it through core/session"},
	{from: `^cubeworkbench/(ui|internal/cli)$`, to: `^cubeworkbench/core/(engine|ingest|store|kb|batch)$`, deps: true,
		why: "the session is the front ends' only door: they speak core/result types, not the engine's"},
	{from: `^cubeworkbench/core/`, to: `^fyne\.io/`, deps: true,
		why: "nothing under core/ needs a window"},
	{from: `^cubeworkbench/cmd/cubectl$`, to: `^fyne\.io/`, deps: true,
		why: "cubectl builds without cgo, so without Fyne"},
	{from: `^cubeworkbench/core/`, to: `^cubeworkbench/(ui|internal/cli|cmd)(/|$)`,
		why: "core/ never imports a front end"},
}

// violations checks every package's imports (direct, and with deps all it
// links) against the rules; the first rule that matches an import decides.
func violations(imports, deps map[string][]string) []string {
	var out []string
	for pkg := range imports {
		seen := map[string]bool{}
		for _, r := range importRules {
			if !regexp.MustCompile(r.from).MatchString(pkg) {
				continue
			}
			list := imports[pkg]
			if r.deps {
				list = deps[pkg]
			}
			to := regexp.MustCompile(r.to)
			for _, imp := range list {
				if seen[imp] || !to.MatchString(imp) {
					continue
				}
				seen[imp] = true
				if !r.allow {
					out = append(out, pkg+" → "+imp+": "+r.why)
				}
			}
		}
	}
	return out
}

// goList is package → the list field of `go list` over the module.
func goList(t *testing.T, field string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .`+field+` " "}}`, "./...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		m[f[0]] = f[1:]
	}
	return m
}

// The architecture rules hold for every package of the module.
func TestArchitecture(t *testing.T) {
	for _, v := range violations(goList(t, "Imports"), goList(t, "Deps")) {
		t.Error(v)
	}
}

// The rules catch what they forbid: a front end linking the engine through
// another package, core/ importing Fyne, a front end importing the backend.
func TestArchitectureRulesCatch(t *testing.T) {
	imports := map[string][]string{
		"cubeworkbench/ui":           {"cubeworkbench/core/session"},
		"cubeworkbench/internal/cli": {"cubeworkbench/core/session/backend"},
		"cubeworkbench/core/chart":   {"fyne.io/fyne/v2"},
		"cubeworkbench/cmd/cube":     {"cubeworkbench/core/session/backend", "cubeworkbench/ui"},
	}
	deps := map[string][]string{
		"cubeworkbench/ui":           {"cubeworkbench/core/session", "cubeworkbench/core/engine"},
		"cubeworkbench/internal/cli": {"cubeworkbench/core/session/backend"},
		"cubeworkbench/core/chart":   {"fyne.io/fyne/v2"},
		"cubeworkbench/cmd/cube":     {"cubeworkbench/core/session/backend", "cubeworkbench/core/engine", "fyne.io/fyne/v2"},
	}
	got := strings.Join(violations(imports, deps), "\n")
	for _, want := range []string{
		"cubeworkbench/ui → cubeworkbench/core/engine",
		"cubeworkbench/internal/cli → cubeworkbench/core/session/backend",
		"cubeworkbench/core/chart → fyne.io/fyne/v2",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no violation %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "cmd/cube →") {
		t.Errorf("cmd/cube may link the backend, the engine and Fyne:\n%s", got)
	}
}

// cubectl builds without cgo.
func TestCubectlBuildsWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	build := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "cubectl"), "./cmd/cubectl")
	build.Dir = filepath.Join("..", "..")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 build: %v\n%s", err, out)
	}
}
