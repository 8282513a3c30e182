package brief

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/ledongthuc/pdf"

	"cubeworkbench/core/text"
)

// pageObjects counts the page objects of a PDF: "/Type /Page" not followed
// by "s" (which would be the /Pages tree).
var pageObject = regexp.MustCompile(`/Type\s*/Page\b[^s]`)

func pageCount(t *testing.T, b []byte) int {
	t.Helper()
	n := len(pageObject.FindAll(b, -1))
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("the PDF does not parse: %v", err)
	}
	if r.NumPage() != n {
		t.Fatalf("page objects %d, page tree %d", n, r.NumPage())
	}
	return n
}

func TestRenderOnePage(t *testing.T) {
	out := os.Getenv("BRIEF_OUT") // a directory to keep the PDFs in, for looking at them
	for _, tc := range []struct {
		name string
		c    func(testing.TB, text.Lang) Content
	}{{"sample", sampleLike}, {"three", threeJudges}, {"long", long}, {"undetermined", undetermined}} {
		for _, lang := range []text.Lang{LangZH, LangEN} {
			t.Run(tc.name+"-"+string(lang), func(t *testing.T) {
				b, err := Render(tc.c(t, lang))
				if err != nil {
					t.Fatal(err)
				}
				if n := pageCount(t, b); n != 1 {
					t.Fatalf("%d pages, want 1", n)
				}
				if !bytes.Contains(b, []byte("/FontFile2")) {
					t.Error("the font is not embedded")
				}
				// A subset, not the 15 MB face.
				if len(b) > 1<<20 {
					t.Errorf("PDF is %d bytes; the font subset should keep it under 1 MB", len(b))
				}
				t.Logf("%d bytes", len(b))
				if out != "" {
					if err := os.WriteFile(filepath.Join(out, tc.name+"-"+string(lang)+".pdf"), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
}
