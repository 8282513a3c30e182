package ui

import (
	"strings"
	"testing"

	"cubeworkbench/core/profile"
)

// The window stores only the profile keys the user changed: a key left at
// its default is not written, so a default changed in a later version
// reaches the user; what the user changed (or emptied) survives a restart.
func TestProfileStoresOnlyChangedKeys(t *testing.T) {
	cases := []struct {
		name    string
		change  func(p *profile.Profile)
		stored  []string // must be in the stored text
		absent  []string // must not
		reloads func(p profile.Profile) bool
	}{
		{"untouched", func(*profile.Profile) {}, nil, []string{"trim", "top_n", "bootstrap", "thresholds", "cofe", "dimensions", "judge"},
			func(p profile.Profile) bool {
				return p.Trim == profile.Default().Trim && len(p.Judges) == 2 && p.Judges[0].Lexical && p.Judges[1].Semantic
			}},
		{"trim and one threshold", func(p *profile.Profile) { p.Trim = 0.2; p.Thresholds.Deployable = 70 },
			[]string{"trim = 0.2", "deployable = 70.0"}, []string{"top_n", "needs_work", "recall_low", "bootstrap", "judge"},
			func(p profile.Profile) bool {
				d := profile.Default()
				return p.Trim == 0.2 && p.Thresholds.Deployable == 70 && p.Thresholds.NeedsWork == d.Thresholds.NeedsWork && p.TopN == d.TopN
			}},
		{"judges replaced", func(p *profile.Profile) {
			p.Judges = []profile.Endpoint{{Name: "qwen", BaseURL: "http://10.0.0.5:8000/v1", Model: "qwen2.5", APIKeyEnv: "VLLM_KEY"}}
		}, []string{"[[judge]]", `name = "qwen"`}, []string{"lexical", "trim"},
			func(p profile.Profile) bool {
				return len(p.Judges) == 1 && p.Judges[0].Name == "qwen" && p.Judges[0].APIKeyEnv == "VLLM_KEY"
			}},
		{"every judge removed", func(p *profile.Profile) { p.Judges = nil }, []string{"judge = []"}, []string{"trim"},
			func(p profile.Profile) bool { return len(p.Judges) == 0 }},
		{"dimensions", func(p *profile.Profile) { p.Dimensions = []string{"relevance", "quality"} },
			[]string{"dimensions = [\"relevance\", \"quality\"]"}, []string{"trim"},
			func(p profile.Profile) bool { return len(p.Dimensions) == 2 && p.Dimensions[1] == "quality" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, _ := newTestWindow(t, "en", nil)
			c.change(&w.prof)
			w.saveProfile()
			text := w.app.Preferences().String(prefProfile)
			for _, s := range c.stored {
				if !strings.Contains(text, s) {
					t.Errorf("stored profile lacks %q:\n%s", s, text)
				}
			}
			for _, s := range c.absent {
				if strings.Contains(text, s) {
					t.Errorf("stored profile holds %q, which the user did not change:\n%s", s, text)
				}
			}
			if p := w.loadProfile(); !c.reloads(p) {
				t.Errorf("reloaded profile %+v", p)
			}
		})
	}
}

// A full profile an earlier version stored still loads as it was.
func TestProfileLoadsAFullOldProfile(t *testing.T) {
	old := profile.Default()
	old.Trim = 0.15
	old.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}, {Name: "imported-judge"}}
	text, err := old.Encode()
	if err != nil {
		t.Fatal(err)
	}
	p, err := profileFromChanges(text)
	if err != nil || p.Trim != 0.15 || len(p.Judges) != 2 || p.Judges[1].Name != "imported-judge" {
		t.Fatalf("loaded %+v, %v", p, err)
	}
}

// TestSplitFrontMatter: the prompt editor hides the YAML front matter and
// front+body gives the file back.
func TestSplitFrontMatter(t *testing.T) {
	cases := []struct{ in, front, body string }{
		{"---\nname: relevance\nkind: score\n---\n你负责审阅……\n", "---\nname: relevance\nkind: score\n---\n", "你负责审阅……\n"},
		{"---\r\nname: x\r\n---\r\nbody", "---\nname: x\n---\n", "body"},
		{"no front matter\n---\nlater\n", "", "no front matter\n---\nlater\n"},
		{"---\nunclosed\n", "", "---\nunclosed\n"},
		{"---\nname: x\n---", "---\nname: x\n---", ""},
	}
	for _, c := range cases {
		front, body := splitFrontMatter(c.in)
		if front != c.front || body != c.body {
			t.Errorf("splitFrontMatter(%q) = %q, %q; want %q, %q", c.in, front, body, c.front, c.body)
		}
	}
}
