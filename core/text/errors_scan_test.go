package text

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// No error in these packages carries both languages in one string
// ("… / 中文"): each is an Error, so the session's Explain gives the
// window and the CLI one language each (issue 21). The scan reads every
// errors.New and fmt.Errorf of their own code; a package joins the list
// when its errors are converted.
// scanned is the packages whose errors are converted, one a line so that
// branches converting different packages add lines without conflict.
var scanned = []string{
	"../../internal/cli",
	"../../prompts",
	"../../ui",
	"../aspect",
	"../brief",
	"../chart",
	"../chunk",
	"../compare",
	"../dataset",
	"../dimension",
	"../docmatch",
	"../embed/openaiembed",
	"../engine",
	"../generate",
	"../glossary",
	"../httpsafe",
	"../judge",
	"../judgepreset",
	"../kbexport",
	"../llm",
	"../mfss",
	"../querytype",
	"../report",
	"../rerank",
	"../retrieve",
	"../secret",
	"../session",
	"../store",
	"../targetcheck",
	"../userdirs",
}

func TestNoBilingualStringErrors(t *testing.T) {
	call := regexp.MustCompile(`(errors\.New|fmt\.Errorf)\(("(?:[^"\\]|\\.)*"|` + "`[^`]*`" + `)`)
	han := regexp.MustCompile(`\p{Han}`)
	for _, dir := range scanned {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
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
					t.Errorf("%s: %s carries Chinese in an error string; make it a text.Error", f, m[0])
				}
			}
		}
	}
}
