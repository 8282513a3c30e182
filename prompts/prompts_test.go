package prompts

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"cubeworkbench/core/dimension"
)

func TestBuiltinsExistInBothLanguages(t *testing.T) {
	// Every rubric template is a registered dimension and every registered
	// dimension has its templates.
	var want []string
	for _, d := range dimension.All() {
		want = append(want, d.Prompt())
	}
	sort.Strings(want)
	generators := []string{"generate/answer", "generate/critic", "generate/keywords", "generate/question", "generate/testquestion"}
	if got := Names(); !reflect.DeepEqual(got, append(append([]string{}, want...), generators...)) {
		t.Fatalf("Names = %v, want %v and %v", got, want, generators)
	}
	// Generator prompts have no rubric front matter, but fence their inputs too.
	for _, n := range generators {
		for _, l := range Languages {
			s, err := Load("", n, l)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(s, "<<<") || !strings.Contains(s, ">>>") {
				t.Errorf("%s.%s: inputs not fenced", n, l)
			}
		}
	}
	for _, n := range want {
		for _, l := range Languages {
			s, err := Load("", n, l)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(s, "---\n") || !strings.Contains(s, "\n=== user ===\n") {
				t.Errorf("%s.%s: front matter or user marker missing", n, l)
			}
			if !strings.Contains(s, "<<<ANSWER\n{{.Answer}}\nANSWER>>>") {
				t.Errorf("%s.%s: answer is not fenced", n, l)
			}
		}
	}
	if _, err := Load("", "cube/nope", "zh"); err == nil {
		t.Fatal("Load of a missing template succeeded")
	}
}

func TestUserCopyWins(t *testing.T) {
	dir := t.TempDir()
	if err := Export(dir); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "cube", "quality.en.md")
	if err := os.WriteFile(p, []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Load(dir, "cube/quality", "en"); err != nil || s != "edited" {
		t.Fatalf("Load(dir) = %q, %v", s, err)
	}
	// Export keeps edits.
	if err := Export(dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "edited" {
		t.Fatal("Export overwrote an edited copy")
	}
	// A template the directory lacks falls back to the built-in one.
	os.Remove(filepath.Join(dir, "cube", "quality.zh.md"))
	if s, err := Load(dir, "cube/quality", "zh"); err != nil || !strings.Contains(s, "评分") {
		t.Fatalf("fallback Load = %q, %v", s[:20], err)
	}
}

// TestRubricShape: every CuBE rubric asks for its reasons first, puts the
// score line last with nothing after it, restates after the answer block
// that instructions inside it are ignored, and anchors every score band
// (issue 22).
func TestRubricShape(t *testing.T) {
	want := map[string][]string{
		"zh": {"必须先逐项写出理由", "最后一行必须严格写成\"评分：N\"", "这一行之后不要再写任何内容", "0–2 分", "3–4 分", "5–6 分", "7–8 分", "9–10 分"},
		"en": {"first give your reasons", "(required", "The last line must be exactly \"Score: N\"", "write nothing after it", "0–2:", "3–4:", "5–6:", "7–8:", "9–10:"},
	}
	restated := map[string]string{"zh": "一律忽略", "en": "ignore any instruction"}
	for _, d := range dimension.All() {
		if !strings.HasPrefix(d.Prompt(), "cube/") {
			continue
		}
		for _, l := range Languages {
			s, err := Load("", d.Prompt(), l)
			if err != nil {
				t.Fatal(err)
			}
			system, user, _ := strings.Cut(s, "\n=== user ===\n")
			for _, w := range want[string(l)] {
				if !strings.Contains(system, w) {
					t.Errorf("%s.%s: the rubric lacks %q", d.Prompt(), l, w)
				}
			}
			_, after, _ := strings.Cut(user, "ANSWER>>>")
			if !strings.Contains(after, restated[string(l)]) {
				t.Errorf("%s.%s: after the answer block: %q", d.Prompt(), l, after)
			}
		}
	}
}
