package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/internal/fakeai"
	"cubeworkbench/internal/testbook"
)

// brokenProfile writes a profile with the two offline baselines and one
// OpenAI-compatible judge whose scores ignore the answer (fakeai.Blind),
// plus thresholds; baselines false leaves the broken judge alone.
func brokenProfile(t *testing.T, dir, url string, baselines bool, thresholds string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("language = \"zh\"\nbootstrap = 200\n")
	if thresholds != "" {
		b.WriteString("[thresholds]\n" + thresholds + "\n")
	}
	if baselines {
		b.WriteString("[[judge]]\nname = \"lexical\"\nlexical = true\n[[judge]]\nname = \"semantic\"\nsemantic = true\n")
	}
	fmt.Fprintf(&b, "[[judge]]\nname = \"broken\"\nbase_url = %q\nmodel = \"fake-model\"\nconcurrency = 4\n", url)
	path := filepath.Join(dir, fmt.Sprintf("p%d.toml", len(thresholds)+map[bool]int{true: 100}[baselines]))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The sample with a judge that ignores the answer: the CLI marks it not
// counted with its reasons, the verdict stays 需改进后部署 and the exit code
// is 0 without --gate, one per verdict with it.
func TestBrokenJudgeCLIAndGate(t *testing.T) {
	srv := fakeai.New(t, fakeai.WithResponder(fakeai.Blind(13, "评分：%d")))
	dir := t.TempDir()
	book := testbook.Sample(t, dir)
	store := filepath.Join(dir, "run.db") // one store: the judge is asked once
	prof := brokenProfile(t, dir, srv.URL(), true, "")
	code, out, errOut := run(t, "evaluate", book, "--profile", prof, "--store", store, "--yes")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"结论：需改进后部署", "评审模型 broken\n  ✗ 不计入结论", "评审模型 broken 不计入结论（未通过评审资格）", "CuBE 57.52 ± 5.72"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "可以部署\n") {
		t.Errorf("green verdict:\n%s", out)
	}
	cases := []struct {
		name       string
		baselines  bool
		thresholds string
		want       int
	}{
		{"needs work", true, "", ExitGateNeedsWork},
		{"deployable", true, "deployable = 50\nneeds_work = 40", ExitOK},
		{"not ready", true, "deployable = 59\nneeds_work = 58", ExitGateNotReady},
		{"undetermined", false, "", ExitGateUndetermined},
	}
	for _, c := range cases {
		prof := brokenProfile(t, dir, srv.URL(), c.baselines, c.thresholds)
		code, out, errOut := run(t, "evaluate", book, "--profile", prof, "--store", store, "--yes", "--gate")
		if code != c.want {
			t.Errorf("%s: --gate exit %d, want %d\n%s\n%s", c.name, code, c.want, out, errOut)
		}
		if c.want == ExitGateUndetermined && !strings.Contains(out, "无法判定") {
			t.Errorf("undetermined run says:\n%s", out)
		}
	}
}
