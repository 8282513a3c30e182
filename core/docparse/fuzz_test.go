package docparse

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fuzzExts are the formats FuzzParse feeds; the first argument picks one.
var fuzzExts = []string{".txt", ".md", ".html", ".docx", ".pptx", ".xlsx", ".pdf"}

func zipBytes(t testing.TB, files [][2]string) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, kv := range files {
		w, err := zw.Create(kv[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(kv[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// FuzzParse: whatever the bytes, a parse ends within its limits, keeps no
// more text than allowed, returns valid UTF-8, and every error names the
// file, is bilingual and has a kind the caller can act on.
func FuzzParse(f *testing.F) {
	f.Add(uint8(0), []byte("\xEF\xBB\xBF第一行\nline two"))
	f.Add(uint8(1), []byte("# 标题\n\xC9\xE7\xB1\xA3")) // GB18030 tail
	f.Add(uint8(2), []byte(`<html><head><meta charset="gbk"><title>t</title><script>x</script></head><body><p>a&amp;b<br>c</p><table><tr><td>1</td></tr></table></body></html>`))
	f.Add(uint8(3), zipBytes(f, [][2]string{{"word/document.xml", docXML}}))
	f.Add(uint8(4), zipBytes(f, [][2]string{{"ppt/slides/slide1.xml", slideXML("一")}, {"ppt/slides/slide2.xml", slideXML("二")}}))
	f.Add(uint8(5), zipBytes(f, xlsxParts(`<si><t>事项</t></si>`, `<cellXfs><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs>`,
		[2]string{"S", `<row><c r="A1" t="s"><v>0</v></c><c r="B1" s="1"><v>45352</v></c><c r="C1" t="inlineStr"><is><t>x</t></is></c></row>`})))
	f.Add(uint8(6), minimalPDF("Hello PDF"))
	f.Add(uint8(6), pagesPDF([]string{"one", "two"}, "", ""))
	f.Add(uint8(6), pagesPDF([]string{"x"}, "1", "2 0 R"))
	lim := Limits{Timeout: 5 * time.Second, Memory: 128 << 20, Pages: 20, PartBytes: 1 << 20, TextBytes: 64 << 10}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		ext := fuzzExts[int(kind)%len(fuzzExts)]
		p := filepath.Join(dir, "fuzz"+ext)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		text, err := Parse(context.Background(), p, lim)
		if len(text) > lim.TextBytes {
			t.Errorf("kept %d bytes of text, limit %d", len(text), lim.TextBytes)
		}
		if !utf8.ValidString(text) {
			t.Errorf("text is not valid UTF-8: %q", text)
		}
		if err == nil {
			return
		}
		if kindName(err) == "" {
			t.Errorf("error of no kind: %v", err)
		}
		if text != "" && !errors.Is(err, ErrTruncated) {
			t.Errorf("text %q returned with error %v", text, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, p) || !strings.Contains(msg, " / ") {
			t.Errorf("error %q does not name the file or is not bilingual", msg)
		}
	})
}
