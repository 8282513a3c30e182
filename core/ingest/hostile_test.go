package ingest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/dataset"
)

// rewriteParts copies an .xlsx, passing each named part through its edit
// (a nil edit drops the part) and adding the extra parts.
func rewriteParts(t testing.TB, src string, edits map[string]func(string) string, extra map[string]string) string {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if edit, ok := edits[f.Name]; ok {
			if edit == nil {
				continue
			}
			data = []byte(edit(string(data)))
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	for name, data := range extra {
		w, _ := zw.Create(name)
		w.Write([]byte(data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "edited.xlsx")
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// qaSix is a QA sheet of six questions, rows 2–7.
var qaSix = sheet{"qa", [][]string{{"id", "question"}, {"a", "一"}, {"b", "二"}, {"c", "三"}, {"d", "四"}, {"e", "五"}, {"f", "六"}}}

// TestDamagedSheetIsAnError: damage inside a sheet is an error naming the
// sheet and the row where reading stopped, never a shorter sheet read as
// fine (excelize's row iterator drops the XML error and stops).
func TestDamagedSheetIsAnError(t *testing.T) {
	const sheetXML = "xl/worksheets/sheet1.xml"
	afterRow := func(n int, insert string) func(string) string {
		return func(s string) string {
			end := fmt.Sprintf(`<row r="%d">`, n+1)
			return strings.Replace(s, end, insert+end, 1)
		}
	}
	cases := []struct {
		name  string
		part  string
		edit  func(string) string
		sheet string
		row   int
		items int // questions read before the damage
	}{
		{"garbage between rows", sheetXML, afterRow(3, "<<garbage>"), "qa", 4, 2},
		{"cut short", sheetXML, func(s string) string { return s[:strings.Index(s, `<row r="5">`)+20] }, "qa", 5, 3},
		{"entity doctype", sheetXML, func(s string) string {
			return strings.Replace(s, "?>", `?><!DOCTYPE worksheet [<!ENTITY boom "boom">]>`, 1)
		}, "qa", 1, 0},
		{"control character in a cell", sheetXML, func(s string) string {
			i := strings.Index(s, `<row r="4">`)
			j := strings.Index(s, `<row r="5">`)
			return s[:i] + `<row r="4"><c r="A4" t="inlineStr"><is><t>c</t></is></c><c r="B4" t="inlineStr"><is><t>bad` + "\x01" + `</t></is></c></row>` + s[j:]
		}, "qa", 4, 2},
		{"rows out of order", sheetXML, func(s string) string { return strings.Replace(s, `<row r="6">`, `<row r="3">`, 1) }, "qa", 3, 4},
		{"control character in the shared strings", "xl/sharedStrings.xml", func(s string) string {
			return strings.Replace(s, "<t>三</t>", "<t>三\x02</t>", 1)
		}, "", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := rewriteParts(t, writeXLSX(t, sheet{"guides", [][]string{{"doc_id", "title"}, {"G1", "甲"}}}, qaSix), map[string]func(string) string{
				strings.Replace(c.part, "sheet1", "sheet2", 1): c.edit}, nil)
			wb, rep := open(t, path, Options{})
			p := find(t, rep.Problems, CodeCorrupt)
			if p.Severity != SeverityError || p.Sheet != c.sheet || p.Row != c.row {
				t.Errorf("problem %s, want an error in sheet %q at row %d", p.Message("en"), c.sheet, c.row)
			}
			if !strings.Contains(p.Message("zh"), "损坏") {
				t.Errorf("zh message %q", p.Message("zh"))
			}
			if len(wb.Items) != c.items {
				t.Errorf("%d items read before the damage, want %d", len(wb.Items), c.items)
			}
		})
	}
}

func writeRaw(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCSVStrayByteIsReportedNotGuessed: one non-UTF-8 byte in a UTF-8 file
// is an error at its row and column; the rest reads as UTF-8 (it used to
// turn the whole file into GB18030 mojibake).
func TestCSVStrayByteIsReportedNotGuessed(t *testing.T) {
	data := []byte("id,question\na,怎么办身份证？\nb,护照多久\xff能办好？\nc,驾驶证换证要带什么？\n")
	path := writeRaw(t, "qa.csv", data)
	wb, rep := open(t, path, Options{SkipBadRows: true})
	p := find(t, rep.Skipped, CodeBadEncoding)
	if p.Row != 3 || p.Column != "question" || !strings.Contains(p.EN, "0xFF") || !strings.Contains(p.EN, "character 5") {
		t.Errorf("problem %s", p.Message("en"))
	}
	if len(wb.Items) != 2 || wb.Items[0].Question != "怎么办身份证？" || wb.Items[1].Question != "驾驶证换证要带什么？" {
		t.Errorf("items %+v", wb.Items)
	}
	// Without skipping it is an error that blocks evaluation.
	if _, rep := open(t, path, Options{}); !rep.HasErrors() {
		t.Errorf("no error: %v", codes(rep.Problems))
	}
}

func TestCSVEncodingEvidence(t *testing.T) {
	cases := []struct {
		name          string
		valid, broken int
		want          int
		problem       bool
	}{
		{"ascii", 0, 0, encUTF8, false},
		{"utf-8 with one stray byte", 400, 1, encUTF8, false},
		{"gbk (measured ratio)", 70, 296, encGB18030, false},
		{"gbk, no accidental utf-8", 0, 50, encGB18030, false},
		{"half and half", 100, 100, 0, true},
	}
	for _, c := range cases {
		enc, p := encodingEvidence{valid: c.valid, broken: c.broken}.decide("x.csv")
		if (p != nil) != c.problem || p == nil && enc != c.want {
			t.Errorf("%s: enc %d problem %v", c.name, enc, p)
		}
	}
}

// TestCSVQuotingAndLineEndings: an unbalanced quote is an error at the
// cell where it starts, not a swallow of the rows after it; bare-CR lines
// read as lines.
func TestCSVQuotingAndLineEndings(t *testing.T) {
	cases := []struct {
		name      string
		data      string
		questions []string
		quoteRow  int // 0: no quoting error
		quoteCol  string
	}{
		{"unbalanced quote", "id,question\na,\"怎么办\nb,第二问\nc,第三问\n", nil, 2, "question"},
		{"stray quote after a quoted cell", "id,question\na,\"ab\"c\nb,y\n", nil, 2, "question"},
		{"bare CR line endings", "id,question\ra,一\rb,二\r", []string{"一", "二"}, 0, ""},
		{"CRLF inside a quoted cell", "id,question\r\na,\"第一行\r\n第二行\"\r\nb,二\r\n", []string{"第一行\n第二行", "二"}, 0, ""},
		{"bare quote inside an unquoted cell", "id,question\na,5\"屏\n", []string{"5\"屏"}, 0, ""},
		{"doubled quotes", "id,question\na,\"说\"\"好\"\"\"\n", []string{"说\"好\""}, 0, ""},
		{"trailing delimiter and no final newline", "id,question,\na,一,", []string{"一"}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wb, rep := open(t, writeRaw(t, "qa.csv", []byte(c.data)), Options{})
			if c.quoteRow > 0 {
				p := find(t, rep.Problems, CodeBadQuote)
				if p.Row != c.quoteRow || p.Column != c.quoteCol || p.Severity != SeverityError {
					t.Errorf("problem %s", p.Message("en"))
				}
				return
			}
			if rep.HasErrors() {
				t.Fatal(codes(rep.Problems))
			}
			var got []string
			for _, it := range wb.Items {
				got = append(got, it.Question)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.questions) {
				t.Errorf("questions %q, want %q", got, c.questions)
			}
		})
	}
}

// hiddenBook writes sheets and hides some (veryHidden when very), as Excel
// records it: a state on the sheet in workbook.xml (excelize refuses to
// hide the active sheet, so the part is edited).
func hiddenBook(t testing.TB, hide map[string]bool, sheets ...sheet) string {
	t.Helper()
	return rewriteParts(t, writeXLSX(t, sheets...), map[string]func(string) string{
		"xl/workbook.xml": func(s string) string {
			for name, very := range hide {
				state := "hidden"
				if very {
					state = "veryHidden"
				}
				s = strings.Replace(s, `<sheet name="`+name+`" `, `<sheet name="`+name+`" state="`+state+`" `, 1)
			}
			return s
		}}, nil)
}

// TestHiddenSheetsAreNotRead: a hidden sheet does not decide the verdict
// unless reading hidden sheets is chosen.
func TestHiddenSheetsAreNotRead(t *testing.T) {
	qa := sheet{"问答集", [][]string{{"id", "question"}, {"a", "看得见的问题"}}}
	scores := sheet{"scores", [][]string{{"id", "set", "judge", "dimension", "score"}, {"a", "rag", "j", "正确性", "10"}}}

	path := hiddenBook(t, map[string]bool{"scores": true}, qa, scores)
	wb, rep := open(t, path, Options{})
	if wb.Scores.Len() != 0 {
		t.Errorf("veryHidden scores read: %+v", wb.Scores)
	}
	p := find(t, rep.Problems, CodeHiddenSheet)
	if p.Sheet != "scores" || p.Severity != SeverityWarning || !strings.Contains(p.EN, "very hidden") {
		t.Errorf("problem %s", p.Message("en"))
	}
	wb, rep = open(t, path, Options{ReadHiddenSheets: true})
	if wb.Scores.Len() != 1 || rep.HasErrors() {
		t.Errorf("with ReadHiddenSheets: scores %+v, %v", wb.Scores, codes(rep.Problems))
	}

	// A hidden qa sheet before the visible one does not win.
	shadow := sheet{"qa", [][]string{{"id", "question"}, {"a", "隐藏的问题"}}}
	path = hiddenBook(t, map[string]bool{"qa": false}, shadow, qa)
	wb, rep = open(t, path, Options{})
	if len(wb.Items) != 1 || wb.Items[0].Question != "看得见的问题" {
		t.Errorf("items %+v, problems %v", wb.Items, codes(rep.Problems))
	}
	find(t, rep.Problems, CodeHiddenSheet)

	// Choosing a hidden sheet by name still needs the explicit option.
	wb, rep = open(t, path, Options{Sheets: map[string]string{SheetQA: "qa"}})
	chosen := false
	for _, p := range rep.Problems {
		chosen = chosen || p.Code == CodeHiddenSheet && p.Severity == SeverityError && p.Sheet == "qa"
	}
	if !chosen || len(wb.Items) != 0 {
		t.Errorf("choosing a hidden sheet: %v, items %+v", codes(rep.Problems), wb.Items)
	}
	if wb, rep = open(t, path, Options{Sheets: map[string]string{SheetQA: "qa"}, ReadHiddenSheets: true}); len(wb.Items) != 1 || wb.Items[0].Question != "隐藏的问题" {
		t.Errorf("choosing a hidden sheet with ReadHiddenSheets: %v, items %+v", codes(rep.Problems), wb.Items)
	}
}

// TestMergedCellsFilled: a doc_id merged over rows belongs to every row.
func TestMergedCellsFilled(t *testing.T) {
	path := writeXLSX(t, sheet{"guides", [][]string{{"doc_id", "title"}, {"G1", "甲"}}},
		sheet{"qa", [][]string{{"question", "doc_id"}, {"一", "G1"}, {"二", ""}, {"三", ""}, {"四", ""}}})
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.MergeCell("qa", "B2", "B4"); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	wb, rep := open(t, path, Options{})
	var docs []string
	for _, it := range wb.Items {
		docs = append(docs, it.DocID)
	}
	if want := "[G1 G1 G1 ]"; fmt.Sprint(docs) != want {
		t.Errorf("doc ids %q, want %s", docs, want)
	}
	if p := find(t, rep.Problems, CodeMergedCells); p.Sheet != "qa" || !strings.Contains(p.EN, "B2:B4") {
		t.Errorf("problem %s", p.Message("en"))
	}
}

// TestUncachedFormulaWarns: a formula saved without its value reads as
// empty, and says so naming the cell.
func TestUncachedFormulaWarns(t *testing.T) {
	// As a program that writes formulas without calculating saves them.
	path := rewriteParts(t, writeXLSX(t, sheet{"qa", [][]string{{"question", "reference"}, {"一", ""}, {"二", "有值"}}}), map[string]func(string) string{
		"xl/worksheets/sheet1.xml": func(s string) string {
			return strings.Replace(s, `</c></row><row r="3">`, `</c><c r="B2"><f>CONCAT("参考","答案")</f></c></row><row r="3">`, 1)
		}}, nil)
	wb, rep := open(t, path, Options{})
	p := find(t, rep.Problems, CodeUncachedFormula)
	if p.Row != 2 || p.Column != "reference" || !strings.Contains(p.EN, "B2") || p.Severity != SeverityWarning {
		t.Errorf("problem %s", p.Message("en"))
	}
	if len(wb.Items) != 2 || wb.Items[0].Reference != "" || wb.Items[1].Reference != "有值" {
		t.Errorf("items %+v", wb.Items)
	}
}

// TestLongCellsCut: a cell over Excel's 32,767 characters is cut at read
// time and named, in a shared string, an inline string and a CSV.
func TestLongCellsCut(t *testing.T) {
	long := strings.Repeat("长", 40000)
	// excelize cuts what it writes, so the long string is put in by hand.
	shared := rewriteParts(t, writeXLSX(t, sheet{"qa", [][]string{{"id", "question"}, {"a", "LONG"}, {"b", "短"}}}), map[string]func(string) string{
		"xl/sharedStrings.xml": func(s string) string { return strings.Replace(s, "<t>LONG</t>", "<t>"+long+"</t>", 1) }}, nil)
	inline := rewriteParts(t, writeXLSX(t, sheet{"qa", [][]string{{"id", "question"}, {"a", "x"}, {"b", "短"}}}), map[string]func(string) string{
		"xl/worksheets/sheet1.xml": func(s string) string {
			i := strings.Index(s, `<row r="2">`)
			j := strings.Index(s, `<row r="3">`)
			return s[:i] + `<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c><c r="B2" t="inlineStr"><is><t>` + long + `</t></is></c></row>` + s[j:]
		}}, nil)
	csv := writeRaw(t, "qa.csv", []byte("id,question\na,\""+long+"\"\nb,短\n"))
	jsonl := writeRaw(t, "qa.jsonl", []byte(`{"id":"a","question":"`+long+`"}`+"\n"+`{"id":"b","question":"短"}`+"\n"))
	for name, path := range map[string]string{"shared string": shared, "inline string": inline, "csv": csv, "jsonl": jsonl} {
		t.Run(name, func(t *testing.T) {
			wb, rep := open(t, path, Options{})
			p := find(t, rep.Problems, CodeCellTooLong)
			wantRow := 2
			if name == "jsonl" {
				wantRow = 1 // a JSONL row is its line
			}
			if p.Row != wantRow || p.Column != "question" || p.Severity != SeverityWarning {
				t.Errorf("problem %s", p.Message("en"))
			}
			if strings.Contains(name, "string") && !strings.Contains(p.EN, "B2") {
				t.Errorf("the cell is not named: %s", p.EN)
			}
			if len(wb.Items) != 2 || utf8.RuneCountInString(wb.Items[0].Question) != MaxCellChars || wb.Items[1].Question != "短" {
				t.Errorf("%d items, first %d characters", len(wb.Items), utf8.RuneCountInString(wb.Items[0].Question))
			}
		})
	}
}

// TestBlankFarCellIsNotPadded: a row whose only other cell is a blank at
// XFD is not laid out to 16,384 columns (a million such rows did not
// validate in 120 s).
func TestBlankFarCellIsNotPadded(t *testing.T) {
	path := writeXLSX(t, sheet{"qa", [][]string{{"question"}, {"一"}, {"二"}}})
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 3; r++ {
		f.SetCellValue("qa", fmt.Sprintf("XFD%d", r), " ")
	}
	f.SetCellValue("qa", "XFD4", " ")
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	widest, rows := 0, 0
	err = ReadSheetRows(t.Context(), path, "qa", func(row int, cells []string) error {
		widest = max(widest, len(cells))
		rows++
		return nil
	})
	if err != nil || rows != 3 || widest != 1 {
		t.Errorf("rows %d, widest %d, err %v", rows, widest, err)
	}
}

// TestHugeSharedStringBoundedMemory: one 24 MiB shared string costs what
// its first 32,767 characters cost, not the string (a 900 MiB one took
// 5.7 GB). Allocation is counted, not timed.
func TestHugeSharedStringBoundedMemory(t *testing.T) {
	base := writeXLSX(t, sheet{"qa", [][]string{{"id", "question"}, {"a", "HUGE"}}})
	path := rewriteParts(t, base, map[string]func(string) string{
		"xl/sharedStrings.xml": func(s string) string {
			return strings.Replace(s, "<t>HUGE</t>", "<t>"+strings.Repeat("x", 24<<20)+"</t>"+"<!--"+"-->", 1)
		},
		"xl/worksheets/sheet1.xml": func(s string) string {
			return strings.Replace(s, "<sheetData>", "<sheetData>"+strings.Repeat(" ", 24<<20), 1)
		}}, nil)
	var before, after runtimeMem
	before.read()
	wb, rep := open(t, path, Options{})
	after.read()
	if len(wb.Items) != 1 || len(wb.Items[0].Question) != MaxCellChars {
		t.Fatalf("items %d, problems %v", len(wb.Items), codes(rep.Problems))
	}
	find(t, rep.Problems, CodeCellTooLong)
	if grew := after.total - before.total; grew > 16<<20 {
		t.Errorf("reading allocated %d MiB for 48 MiB of hostile text", grew>>20)
	}
}

// TestWhatTheFileReallyIs: a renamed file is named for what it is.
func TestWhatTheFileReallyIs(t *testing.T) {
	zipOf := func(entries ...string) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i := 0; i+1 < len(entries); i += 2 {
			w, _ := zw.Create(entries[i])
			w.Write([]byte(entries[i+1]))
		}
		zw.Close()
		return buf.Bytes()
	}
	xlsx, err := os.ReadFile(writeXLSX(t, sheet{"qa", [][]string{{"question"}, {"x"}}}))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"ods renamed", "book.xlsx", zipOf("mimetype", "application/vnd.oasis.opendocument.spreadsheet", "content.xml", "<office:document-content/>"), "OpenDocument spreadsheet"},
		{"pdf renamed", "book.xlsx", []byte("%PDF-1.7\n%âãÏÓ\n"), "PDF"},
		{"html export", "book.xlsx", []byte("<html><body><table><tr><td>question</td></tr></table></body></html>"), "web page"},
		{"docx renamed", "book.xlsx", zipOf("[Content_Types].xml", "<Types/>", "word/document.xml", "<w:document/>"), "Word document"},
		{"zip of something else", "book.xlsx", zipOf("data/a.txt", "x"), "data/a.txt"},
		{"csv renamed", "book.xlsx", []byte("question\n怎么办\n"), "plain text"},
		{"legacy xls", "book.xlsx", append(append([]byte{}, oleMagic...), make([]byte, 504)...), ".xls"},
		{"xlsx named csv", "qa.csv", xlsx, "Excel workbook (.xlsx)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wb, rep := open(t, writeRaw(t, c.file, c.data), Options{})
			p := find(t, rep.Problems, CodeNotXLSX)
			if !strings.Contains(p.EN, c.want) || p.ZH == "" || len(wb.Items) != 0 {
				t.Errorf("problem %s, want it to say %q", p.Message("en"), c.want)
			}
		})
	}
}

// TestTempFilesInOurFolder: spilled shared strings live in a p<pid>-…
// folder of ours while reading and are gone after; CleanTemp removes what a
// killed process left and nothing of a live one.
func TestTempFilesInOurFolder(t *testing.T) {
	root := t.TempDir()
	rows := [][]string{{"doc_id", "title"}}
	for i := 0; i < 200; i++ {
		rows = append(rows, []string{fmt.Sprintf("G%d", i), fmt.Sprintf("第 %d 条指南的名称", i)})
	}
	path := writeXLSX(t, sheet{"guides", rows}, sheet{"qa", [][]string{{"question", "doc_id"}, {"一", "G1"}}})
	var during []string
	opt := Options{TempDir: root, UnzipXMLSizeLimit: 1024}
	opt.GuideSink = func(g dataset.Guide) error {
		if during == nil {
			during, _ = filepath.Glob(filepath.Join(root, fmt.Sprintf("p%d-*", os.Getpid()), "*"))
		}
		return nil
	}
	opt.GuideRef = func(ref string) (string, bool, error) { return ref, true, nil }
	if _, rep := open(t, path, opt); rep.HasErrors() {
		t.Fatal(codes(rep.Problems))
	}
	if len(during) != 1 || !strings.Contains(filepath.Base(during[0]), "sharedstrings") {
		t.Errorf("temporary files while reading: %v", during)
	}
	if left, _ := os.ReadDir(root); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}

	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{fmt.Sprintf("p%d-1", dead.Process.Pid), fmt.Sprintf("p%d-2", os.Getpid()), "someone-else"} {
		if err := os.MkdirAll(filepath.Join(root, name), 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(root, name, "sheet"), []byte("x"), 0o600)
	}
	if err := cleanTempIn(root); err != nil {
		t.Fatal(err)
	}
	var kept []string
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		kept = append(kept, e.Name())
	}
	if want := fmt.Sprintf("[p%d-2 someone-else]", os.Getpid()); fmt.Sprint(kept) != want {
		t.Errorf("kept %v, want %s", kept, want)
	}
}

type runtimeMem struct{ total uint64 }

func (m *runtimeMem) read() {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	m.total = ms.TotalAlloc
}

// TestDimensionPromisesMoreRows: a well-formed sheet whose own dimension
// reaches further than its rows (cut and closed again) is flagged.
func TestDimensionPromisesMoreRows(t *testing.T) {
	path := rewriteParts(t, writeXLSX(t, qaSix), map[string]func(string) string{
		"xl/worksheets/sheet1.xml": func(s string) string {
			s = strings.Replace(s, `<dimension ref="A1"></dimension>`, `<dimension ref="A1:B100"></dimension>`, 1)
			return s[:strings.Index(s, `<row r="5">`)] + "</sheetData></worksheet>"
		}}, nil)
	wb, rep := open(t, path, Options{})
	p := find(t, rep.Problems, CodeCorrupt)
	if p.Sheet != "qa" || p.Row != 5 || p.Severity != SeverityWarning || !strings.Contains(p.EN, "row 100") {
		t.Errorf("problem %s", p.Message("en"))
	}
	if len(wb.Items) != 3 {
		t.Errorf("%d items", len(wb.Items))
	}
}
