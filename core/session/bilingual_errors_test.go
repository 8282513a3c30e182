package session

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// No error of the session carries both languages in one string ("… / 中文"):
// each is a text.Error, so Explain gives the window and the CLI one
// language each (issue 21). The scan reads every errors.New and fmt.Errorf
// of the package's own code.
func TestNoBilingualStringErrors(t *testing.T) {
	call := regexp.MustCompile(`(errors\.New|fmt\.Errorf)\(("(?:[^"\\]|\\.)*"|` + "`[^`]*`" + `)`)
	han := regexp.MustCompile(`\p{Han}`)
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			if han.MatchString(m[2]) {
				t.Errorf("%s: %s carries Chinese in an English error string; make it a text.Error (refusal, text.NewError)", f, m[0])
			}
		}
	}
}
