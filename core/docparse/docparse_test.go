package docparse

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/simplifiedchinese"
)

func write(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// zipFile builds an OOXML-like package from name → content.
func zipFile(t *testing.T, dir, name string, files [][2]string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
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
	f.Close()
	return p
}

const docXML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:r><w:t>办理居住证</w:t></w:r><w:r><w:t xml:space="preserve">需要 </w:t></w:r><w:r><w:t>身份证。</w:t></w:r></w:p>
<w:p><w:r><w:t>Step</w:t><w:tab/><w:t>two &amp; three</w:t></w:r></w:p>
<w:p></w:p>
</w:body></w:document>`

func slideXML(text string) string {
	return `<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>` +
		text + `</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`
}

// minimalPDF writes a one-page PDF with the text drawn in Helvetica, with a
// correct cross-reference table so the parser need not repair it.
func minimalPDF(text string) []byte {
	stream := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", text)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
	}
	var b strings.Builder
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return []byte(b.String())
}

func TestText(t *testing.T) {
	dir := t.TempDir()
	gbk, err := simplifiedchinese.GB18030.NewEncoder().String("社保卡补办流程")
	if err != nil {
		t.Fatal(err)
	}
	xl := excelize.NewFile()
	xl.SetCellValue("Sheet1", "A1", "事项")
	xl.SetCellValue("Sheet1", "B1", "时限")
	xl.SetCellValue("Sheet1", "A2", "护照")
	xl.SetCellValue("Sheet1", "B2", 7)
	xl.NewSheet("第二页")
	xl.SetCellValue("第二页", "A1", "备注")
	if err := xl.SaveAs(filepath.Join(dir, "t.xlsx")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		path string
		want string
	}{
		{"utf8 txt with BOM", write(t, dir, "a.txt", []byte("\xEF\xBB\xBF第一行\nline two")), "第一行\nline two"},
		{"gb18030 md", write(t, dir, "b.md", []byte(gbk)), "社保卡补办流程"},
		{"html", write(t, dir, "c.html", []byte(`<html><head><title>标题</title><style>p{color:red}</style>
<script>var x = "不要";</script></head><body><p>第一段 &amp; 实体&nbsp;&lt;b&gt;</p><div>第二段<br>换行</div>
<noscript>nope</noscript><table><tr><td>A</td><td>B</td></tr></table></body></html>`)),
			"标题\n第一段 & 实体 <b>\n第二段\n换行\nA\nB"},
		{"docx", zipFile(t, dir, "d.docx", [][2]string{{"[Content_Types].xml", "<Types/>"}, {"word/document.xml", docXML}}),
			"办理居住证需要 身份证。\nStep\ttwo & three"},
		{"pptx in slide-number order", zipFile(t, dir, "e.pptx", [][2]string{
			{"ppt/slides/slide10.xml", slideXML("十")}, {"ppt/slides/slide2.xml", slideXML("二")},
			{"ppt/slides/slide1.xml", slideXML("一")}, {"ppt/slides/_rels/slide1.xml.rels", "<x/>"}}),
			"一\n二\n十"},
		{"xlsx every sheet", filepath.Join(dir, "t.xlsx"), "Sheet1\n事项\t时限\n护照\t7\n第二页\n备注"},
		{"pdf", write(t, dir, "f.pdf", minimalPDF("Hello PDF")), "Hello PDF"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Text(c.path)
			if err != nil {
				t.Fatalf("Text: %v", err)
			}
			if got != c.want {
				t.Errorf("Text = %q, want %q", got, c.want)
			}
		})
	}
}

func TestTextErrors(t *testing.T) {
	dir := t.TempDir()
	ole := append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 504)...)
	cases := []struct {
		name string
		path string
		want error
	}{
		{"encrypted docx (OLE wrapper)", write(t, dir, "secret.docx", ole), ErrEncrypted},
		{"encrypted xlsx", write(t, dir, "secret.xlsx", ole), ErrEncrypted},
		{"garbage docx", write(t, dir, "bad.docx", []byte("not a zip")), ErrCorrupt},
		{"docx without body", zipFile(t, dir, "empty.docx", [][2]string{{"x.xml", "<x/>"}}), ErrCorrupt},
		{"broken xml", zipFile(t, dir, "broken.docx", [][2]string{{"word/document.xml", "<w:document><w:p>"}}), ErrCorrupt},
		{"garbage pdf", write(t, dir, "bad.pdf", []byte("%PDF-1.4 nothing else")), ErrCorrupt},
		{"legacy doc", write(t, dir, "old.doc", ole), ErrUnsupported},
		{"legacy xls", write(t, dir, "old.xls", ole), ErrUnsupported},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Text(c.path)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), filepath.Base(c.path)) {
				t.Errorf("error %q does not name the file", err)
			}
			if !strings.Contains(err.Error(), "/ ") {
				t.Errorf("error %q is not bilingual", err)
			}
		})
	}
}

func TestFolderGoesOnPastBadFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "b.txt", []byte("乙"))
	write(t, dir, "a.txt", []byte("甲"))
	write(t, dir, "bad.docx", []byte("junk"))
	write(t, dir, "~$lock.docx", []byte("junk"))
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "sub"), "c.md", []byte("丙"))
	docs, errs := Folder(context.Background(), dir)
	var ids []string
	for _, d := range docs {
		ids = append(ids, d.ID+"="+d.Text)
	}
	if got, want := strings.Join(ids, ","), "a.txt=甲,b.txt=乙,sub/c.md=丙"; got != want {
		t.Errorf("docs = %s, want %s", got, want)
	}
	if len(errs) != 1 || !errors.Is(errs[0], ErrCorrupt) {
		t.Errorf("errs = %v, want one ErrCorrupt for bad.docx", errs)
	}
}
