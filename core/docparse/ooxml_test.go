package docparse

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

const (
	wordNS  = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	sheetNS = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
)

func paragraphs(n int) string {
	var b strings.Builder
	b.WriteString(`<w:document ` + wordNS + `><w:body>`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "<w:p><w:r><w:t>第%d段</w:t></w:r></w:p>", i)
	}
	b.WriteString(`</w:body></w:document>`)
	return b.String()
}

// xlsxParts is a minimal workbook: sheets in order, their XML, and the
// shared strings and styles parts ("" leaves a part out).
func xlsxParts(sst, styles string, sheets ...[2]string) [][2]string {
	var wb, rels strings.Builder
	wb.WriteString(`<workbook ` + sheetNS + `><sheets>`)
	rels.WriteString(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	files := [][2]string{}
	for i, s := range sheets {
		fmt.Fprintf(&wb, `<sheet name=%q sheetId="%d" r:id="rId%d"/>`, s[0], i+1, i+1)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, i+1, i+1)
		files = append(files, [2]string{fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1), `<worksheet ` + sheetNS + `><sheetData>` + s[1] + `</sheetData></worksheet>`})
	}
	wb.WriteString(`</sheets></workbook>`)
	rels.WriteString(`</Relationships>`)
	files = append(files, [2]string{"xl/workbook.xml", wb.String()}, [2]string{"xl/_rels/workbook.xml.rels", rels.String()})
	if sst != "" {
		files = append(files, [2]string{"xl/sharedStrings.xml", `<sst ` + sheetNS + `>` + sst + `</sst>`})
	}
	if styles != "" {
		files = append(files, [2]string{"xl/styles.xml", `<styleSheet ` + sheetNS + `>` + styles + `</styleSheet>`})
	}
	return files
}

// TestOOXMLLimits: parts are streamed under caps; a part or a text over its
// cap is cut and reported naming the file and the part, never read whole.
func TestOOXMLLimits(t *testing.T) {
	long := strings.Repeat("长", maxCellChars+5)
	blankXFD := strings.Repeat(`<row><c r="XFD1" t="inlineStr"><is><t> </t></is></c></row>`, 1000)
	styles := `<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy&quot;年&quot;m&quot;月&quot;d&quot;日&quot;"/></numFmts>` +
		`<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="10"/></cellXfs>`
	cases := []struct {
		name     string
		files    [][2]string
		lim      Limits
		want     error // nil: no error
		wantText string
		wantMsg  string
	}{
		{"part.docx", [][2]string{{"word/document.xml", paragraphs(200000)}}, Limits{PartBytes: 1 << 20}, ErrTruncated, "", "word/document.xml"},
		{"text.docx", [][2]string{{"word/document.xml", paragraphs(3)}}, Limits{TextBytes: 12}, ErrTruncated, "第1段\n第2", "12 B"},
		{"doctype.docx", [][2]string{{"word/document.xml", `<!DOCTYPE x [<!ENTITY a "b">]><w:document ` + wordNS + `/>`}}, Limits{}, ErrCorrupt, "", "DOCTYPE"},
		{"slides.pptx", [][2]string{{"ppt/slides/slide1.xml", slideXML("一")}, {"ppt/slides/slide2.xml", slideXML(strings.Repeat("二", 1<<19))}, {"ppt/slides/slide3.xml", slideXML("三")}},
			Limits{PartBytes: 1 << 20}, ErrTruncated, "", "ppt/slides/slide2.xml"},
		{"formats.xlsx", xlsxParts(`<si><t>事项</t></si><si><r><t>办</t></r><r><t>理</t></r><rPh><t>ban</t></rPh></si>`, styles, [2]string{"表", `
<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c></row>
<row r="2"><c r="A2" s="1"><v>45352</v></c><c r="B2" s="2"><v>45352</v></c><c r="C2" s="3"><v>0.25</v></c><c r="D2"><v>0.30000000000000004</v></c></row>
<row r="3"><c r="A3" t="b"><v>1</v></c><c r="B3" t="str"><f>A1</f><v>公式</v></c><c r="C3" t="e"><v>#DIV/0!</v></c></row>`}),
			Limits{}, nil, "表\n事项\t\t办理\n2024-03-01\t2024-03-01\t25%\t0.3\nTRUE\t公式\t#DIV/0!", ""},
		{"escapes.xlsx", xlsxParts(`<si><t>咨询_x0008_如下_x005F_x0041_</t></si>`, "", [2]string{"S", `<row><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>a_x0042_</t></is></c></row>`}),
			Limits{}, nil, "S\n咨询如下_x0041_\taB", ""},
		{"blank-xfd.xlsx", xlsxParts("", "", [2]string{"S", blankXFD}), Limits{}, nil, "S", ""},
		{"long-sst.xlsx", xlsxParts(`<si><t>`+long+`</t></si>`, "", [2]string{"S", `<row><c r="A1" t="s"><v>0</v></c></row>`}), Limits{}, ErrTruncated, "S\n" + long[:3*maxCellChars], "32767"},
		{"long-cell.xlsx", xlsxParts("", "", [2]string{"S", `<row><c r="B7" t="inlineStr"><is><t>` + long + `</t></is></c></row>`}), Limits{}, ErrTruncated, "S\n\t" + long[:3*maxCellChars], "B7"},
		{"sst-cap.xlsx", xlsxParts(`<si><t>甲乙</t></si><si><t>丙丁</t></si>`, "", [2]string{"S", `<row><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>`}),
			Limits{TextBytes: 8}, ErrTruncated, "S\n甲乙", "xl/sharedStrings.xml"},
		{"sst-part-cut.xlsx", xlsxParts(`<si><t>`+strings.Repeat("串", 1<<20)+`</t></si><si><t>后</t></si>`, "",
			[2]string{"S", `<row><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>`}),
			Limits{PartBytes: 1 << 20}, ErrTruncated, "S\n" + strings.Repeat("串", maxCellChars), "xl/sharedStrings.xml is over 1 MiB"},
		{"no-string.xlsx", xlsxParts(`<si><t>a</t></si>`, "", [2]string{"S", `<row><c r="C9" t="s"><v>7</v></c></row>`}), Limits{}, ErrCorrupt, "", "C9"},
		{"no-sheet-part.xlsx", xlsxParts("", "", [2]string{"S", ""})[1:], Limits{}, ErrCorrupt, "", `"S"`},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := zipFile(t, dir, c.name, c.files)
			text, err := Parse(context.Background(), p, c.lim)
			if c.want == nil {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
			} else {
				checkProblem(t, err, c.want, filepath.Base(p))
				if !strings.Contains(err.Error(), c.wantMsg) {
					t.Errorf("error %q does not say %q", err, c.wantMsg)
				}
			}
			switch c.name {
			case "part.docx": // cut between paragraphs: the beginning is kept
				if !strings.HasPrefix(text, "第1段\n第2段") || len(text) > 1<<20 {
					t.Errorf("text starts %.40q… (%d bytes), want the first MiB's paragraphs", text, len(text))
				}
				return
			case "slides.pptx": // each part has its own cap: the cut slide's beginning, then the next slide
				if !strings.HasPrefix(text, "一\n二二") || !strings.HasSuffix(text, "二\n三") || len(text) > 1<<20 {
					t.Errorf("text = %.40q…%q, want slide 1, the first MiB of slide 2, slide 3", text, text[max(0, len(text)-10):])
				}
				return
			}
			if text != c.wantText {
				t.Errorf("text = %.200q, want %.200q", text, c.wantText)
			}
		})
	}
}

// countdownCtx reports cancellation from its n-th Err call on: a parse that
// checks ctx as it goes stops part-way, deterministically.
type countdownCtx struct {
	context.Context
	n int
}

func (c *countdownCtx) Err() error {
	if c.n--; c.n <= 0 {
		return context.Canceled
	}
	return nil
}

// TestCancelMidParse: the in-process parsers check ctx while they read, so
// a cancel stops a long document part-way instead of after it.
func TestCancelMidParse(t *testing.T) {
	dir := t.TempDir()
	rows := strings.Repeat(`<row><c r="A1" t="inlineStr"><is><t>格</t></is></c></row>`, 50000)
	html := "<html><body>" + strings.Repeat("<p>段落</p>", 50000) + "</body></html>"
	for _, p := range []string{
		zipFile(t, dir, "long.docx", [][2]string{{"word/document.xml", paragraphs(50000)}}),
		zipFile(t, dir, "long.pptx", [][2]string{{"ppt/slides/slide1.xml", slideXML(strings.Repeat("<a:t>字</a:t>", 50000))}}),
		zipFile(t, dir, "long.xlsx", xlsxParts("", "", [2]string{"S", rows})),
		write(t, dir, "long.html", []byte(html)),
	} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			// Parse itself checks once before it starts; the parser must check again.
			text, err := Parse(&countdownCtx{Context: context.Background(), n: 3}, p, Limits{})
			if err != context.Canceled || text != "" {
				t.Errorf("Parse = %d bytes, %v; want context.Canceled part-way", len(text), err)
			}
		})
	}
}
