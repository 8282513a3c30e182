package compare

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// The sentences the CLI, the window and the report all show, for fixed
// synthetic comparisons, in both languages (one decimal, so the files do
// not depend on the last bits of floating point). go test -run Golden
// -update rewrites them; review the diff.
func TestGoldenSentences(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shift func(string, int) float64
	}{
		{"better", func(_ string, i int) float64 {
			if i%4 == 0 {
				return 2.5
			}
			return 0
		}},
		{"disagree", func(judge string, _ int) float64 {
			if judge == "j1" {
				return 3
			}
			return -3
		}},
		{"none", none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wb := book(40, []string{"j1", "j2"}, 11, 0, tc.shift)
			a, b := FromWorkbook(wb, "rag", "v2")
			r, err := Compare(a, b, Options{Config: config(300)})
			if err != nil {
				t.Fatal(err)
			}
			var sb strings.Builder
			for _, lang := range []text.Lang{text.ZH, text.EN} {
				sb.WriteString(r.Headline.In(lang) + "\n")
				for _, m := range r.Bullets {
					sb.WriteString("- " + m.In(lang) + "\n")
				}
				for _, m := range r.Warnings {
					sb.WriteString("! " + m.In(lang) + "\n")
				}
				sb.WriteString("\n")
			}
			path := filepath.Join("testdata", tc.name+".golden")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got := sb.String(); got != string(want) {
				t.Errorf("sentences differ from %s:\n%s", path, got)
			}
		})
	}
}
