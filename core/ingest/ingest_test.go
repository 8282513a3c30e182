package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/dataset"
)

var (
	scoresRows = [][]string{
		{"id", "set", "judge", "dimension", "score", "repeat", "raw", "status"},
		{"a", "rag", "j1", "正确性", "8", "", "x", ""},
		{"b", "full", "j1", "正确性", "", "", "?", "unscorable"},
		{"a", "RAG", "j1", "正确性", "9", "2", "", ""},
	}
	humanRows = [][]string{{"编号", "维度", "分数", "评分人"}, {"a", "正确性", "7.5", "张三"}}
)

func TestOpenWorkbook(t *testing.T) {
	path := writeXLSX(t, sheet{"办事指南", guidesRows}, sheet{"问答集", qaRows}, sheet{"评分", scoresRows}, sheet{"人工评分", humanRows})
	wb, rep := open(t, path, Options{})
	if rep.HasErrors() {
		t.Fatalf("unexpected errors: %v", codes(rep.Problems))
	}
	if got := rep.Codes(); !reflect.DeepEqual(got, []string{CodeUnknownRetrievedDoc}) {
		t.Fatalf("problems = %v, want only unknown_retrieved_doc", codes(rep.Problems))
	}
	p := rep.Problems[0]
	if !strings.Contains(p.EN, "1 retrieved entries in 1 rows") || !strings.Contains(p.EN, `"外部文档" at row 2`) {
		t.Errorf("unknown retrieved summary = %q", p.EN)
	}

	wantGuides := []dataset.Guide{
		{ID: "G1", Title: "居民身份证申领", Row: 2,
			Text:   "事项编码：G1\n事项名称：居民身份证申领\n行政区划：北京市\n受理条件：年满十六周岁",
			Fields: []dataset.Field{{Name: "行政区划", Value: "北京市"}, {Name: "受理条件", Value: "年满十六周岁"}}},
		{ID: "G2", Title: "护照办理", Row: 3,
			Text:   "事项编码：G2\n事项名称：护照办理\n行政区划：上海市",
			Fields: []dataset.Field{{Name: "行政区划", Value: "上海市"}, {Name: "受理条件", Value: ""}}},
		{ID: "G3", Title: "驾驶证换证", Row: 4,
			Text:   "事项编码：G3\n事项名称：驾驶证换证\n受理条件：有效期满",
			Fields: []dataset.Field{{Name: "行政区划", Value: ""}, {Name: "受理条件", Value: "有效期满"}}},
	}
	if !reflect.DeepEqual(wb.Guides, wantGuides) {
		t.Errorf("guides =\n%#v\nwant\n%#v", wb.Guides, wantGuides)
	}
	wantItems := []dataset.Item{
		{ID: "a", Question: "怎么办身份证？", DocID: "G1", Row: 2,
			Answers:   map[string]string{"rag": "去派出所", "v2": "去公安局", "full": "满分"},
			Retrieved: []string{"G1", "G2", "外部文档"}, Reference: "到户籍地派出所办理", QueryType: dataset.QueryFactual,
			Coarse: []string{"身份证", "派出所"}, Fine: [][]string{{"户籍地", "派出所"}, {"十六周岁"}}},
		{ID: "b", Question: "护照多久能办好？", DocID: "G2", Row: 3,
			Answers:   map[string]string{"rag": "七个工作日"},
			Retrieved: []string{"G2", "G3"}, QueryType: dataset.QueryAnalytical,
			Coarse: []string{"护照"}, Fine: [][]string{{"七个", "工作日"}, {"加急"}}},
	}
	if !reflect.DeepEqual(wb.Items, wantItems) {
		t.Errorf("items =\n%#v\nwant\n%#v", wb.Items, wantItems)
	}
	if want := []string{"rag", "full", "v2"}; !reflect.DeepEqual(wb.Systems, want) {
		t.Errorf("systems = %v, want %v", wb.Systems, want)
	}
	wantScores := []dataset.Judgement{
		{ItemID: "a", Set: "rag", Judge: "j1", Dimension: "正确性", Repeat: 1, Score: 8, Raw: "x", Status: "ok", Row: 2},
		{ItemID: "b", Set: "full", Judge: "j1", Dimension: "正确性", Repeat: 1, Raw: "?", Status: "unscorable", Row: 3},
		{ItemID: "a", Set: "rag", Judge: "j1", Dimension: "正确性", Repeat: 2, Score: 9, Status: "ok", Row: 4},
	}
	if !reflect.DeepEqual(slices.Collect(wb.Scores.Values()), wantScores) {
		t.Errorf("scores =\n%#v\nwant\n%#v", wb.Scores, wantScores)
	}
	if want := []dataset.HumanRating{{ItemID: "a", Dimension: "正确性", Score: 7.5, Rater: "张三", Row: 2}}; !reflect.DeepEqual(wb.Human, want) {
		t.Errorf("human = %#v", wb.Human)
	}
}

// TestGuidesTextColumnAndTitleAsID: with a text column the document is that
// column; without an id column the title is the id.
func TestGuidesTextColumnAndTitleAsID(t *testing.T) {
	path := writeXLSX(t, sheet{"Guides", [][]string{
		{"Item Name", "Text", "Fee Standard"},
		{"护照办理", "正文一", "免费"},
		{"驾驶证换证", "", "10元"},
	}})
	wb, rep := open(t, path, Options{})
	if len(rep.Problems) != 0 {
		t.Fatalf("problems: %v", codes(rep.Problems))
	}
	want := []dataset.Guide{
		{ID: "护照办理", Title: "护照办理", Text: "正文一", Row: 2, Fields: []dataset.Field{{Name: "Fee Standard", Value: "免费"}}},
		// An empty text cell falls back to the key–value form of the row.
		{ID: "驾驶证换证", Title: "驾驶证换证", Text: "Item Name：驾驶证换证\nFee Standard：10元", Row: 3, Fields: []dataset.Field{{Name: "Fee Standard", Value: "10元"}}},
	}
	if !reflect.DeepEqual(wb.Guides, want) {
		t.Errorf("guides =\n%#v\nwant\n%#v", wb.Guides, want)
	}
}

func TestGeneratedIDs(t *testing.T) {
	path := writeXLSX(t, sheet{"qa", [][]string{
		{"id", "question"}, {"", "一"}, {"q1", "二"}, {"", "三"},
	}})
	wb, rep := open(t, path, Options{})
	if rep.HasErrors() {
		t.Fatal(codes(rep.Problems))
	}
	var ids []string
	for _, it := range wb.Items {
		ids = append(ids, it.ID)
	}
	// Row 2 would be q1, but q1 is taken explicitly.
	if want := []string{"q1_2", "q1", "q3"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids = %v, want %v", ids, want)
	}
}

// TestProblemCodes builds one small workbook per problem and checks the
// code, its location and its severity.
func TestProblemCodes(t *testing.T) {
	qaHeader := []string{"id", "question", "doc_id", "retrieved", "fine_keywords"}
	guides := sheet{"guides", [][]string{{"doc_id", "title"}, {"G1", "甲"}}}
	cases := []struct {
		name     string
		sheets   []sheet
		opt      Options
		code     string
		sheet    string
		row      int
		column   string
		severity string
	}{
		{"missing question column", []sheet{{"qa", [][]string{{"编号", "回答"}, {"x", "y"}}}},
			Options{}, CodeMissingColumn, "qa", 1, "question", SeverityError},
		{"missing title column", []sheet{{"guides", [][]string{{"doc_id", "text"}, {"G1", "x"}}}},
			Options{}, CodeMissingColumn, "guides", 1, "title", SeverityError},
		{"duplicate guide id", []sheet{{"guides", [][]string{{"doc_id", "title"}, {"G1", "甲"}, {"G1", "乙"}}}},
			Options{}, CodeDuplicateID, "guides", 3, "doc_id", SeverityError},
		{"duplicate title as id", []sheet{{"guides", [][]string{{"title"}, {"甲"}, {"甲"}}}},
			Options{}, CodeDuplicateID, "guides", 3, "title", SeverityError},
		{"duplicate question id", []sheet{{"qa", [][]string{{"id", "question"}, {"a", "x"}, {"a", "y"}}}},
			Options{}, CodeDuplicateID, "qa", 3, "id", SeverityError},
		{"empty id uses title", []sheet{{"guides", [][]string{{"doc_id", "title"}, {"", "甲"}}}},
			Options{}, CodeIDFromTitle, "guides", 0, "doc_id", SeverityWarning},
		{"unknown gold doc", []sheet{guides, {"qa", [][]string{qaHeader, {"a", "x", "G9", "", ""}}}},
			Options{}, CodeUnknownGoldDoc, "qa", 2, "doc_id", SeverityError},
		{"unknown retrieved doc", []sheet{guides, {"qa", [][]string{qaHeader, {"a", "x", "G1", "G1|G7", ""}}}},
			Options{}, CodeUnknownRetrievedDoc, "qa", 0, "", SeverityWarning},
		{"bad retrieved list", []sheet{{"qa", [][]string{qaHeader, {"a", "x", "", `["G1",`, ""}}}},
			Options{}, CodeBadList, "qa", 2, "retrieved", SeverityError},
		{"bad fine keywords", []sheet{{"qa", [][]string{qaHeader, {"a", "x", "", "", `[["k"],{"x":1}]`}}}},
			Options{}, CodeBadList, "qa", 2, "fine_keywords", SeverityError},
		{"empty question", []sheet{{"qa", [][]string{qaHeader, {"a", "", "", "", ""}}}},
			Options{}, CodeMissingValue, "qa", 2, "question", SeverityError},
		{"duplicate column", []sheet{{"qa", [][]string{{"问题", "question"}, {"x", "y"}}}},
			Options{}, CodeDuplicateColumn, "qa", 1, "question", SeverityWarning},
		{"score not a number", []sheet{{"qa", [][]string{{"id", "question"}, {"a", "x"}}},
			{"scores", [][]string{{"id", "set", "dimension", "score"}, {"a", "rag", "d", "八"}}}},
			Options{}, CodeBadScore, "scores", 2, "score", SeverityError},
		{"human score out of range", []sheet{{"qa", [][]string{{"id", "question"}, {"a", "x"}}},
			{"human", [][]string{{"id", "dimension", "score"}, {"a", "d", "11"}}}},
			Options{}, CodeBadScore, "human", 2, "score", SeverityError},
		{"score names unknown item", []sheet{{"qa", [][]string{{"id", "question"}, {"a", "x"}}},
			{"scores", [][]string{{"id", "set", "dimension", "score"}, {"zz", "rag", "d", "1"}}}},
			Options{}, CodeUnknownItem, "scores", 2, "id", SeverityError},
		{"bad status", []sheet{{"scores", [][]string{{"id", "set", "dimension", "score", "status"}, {"a", "rag", "d", "1", "maybe"}}}},
			Options{}, CodeBadStatus, "scores", 2, "status", SeverityError},
		{"bad repeat", []sheet{{"scores", [][]string{{"id", "set", "dimension", "score", "repeat"}, {"a", "rag", "d", "1", "1.5"}}}},
			Options{}, CodeBadRepeat, "scores", 2, "repeat", SeverityError},
		{"duplicate score", []sheet{{"scores", [][]string{{"id", "set", "dimension", "score"}, {"a", "rag", "d", "1"}, {"a", "rag", "d", "2"}}}},
			Options{}, CodeDuplicateScore, "scores", 3, "", SeverityWarning},
		{"header-only sheet", []sheet{guides, {"qa", [][]string{qaHeader}}},
			Options{}, CodeEmptySheet, "qa", 0, "", SeverityWarning},
		{"sheet without rows", []sheet{guides, {"qa", nil}},
			Options{}, CodeEmptySheet, "qa", 0, "", SeverityWarning},
		{"nothing known", []sheet{{"foo", [][]string{{"x", "y"}, {"1", "2"}}}},
			Options{}, CodeNoData, "", 0, "", SeverityError},
		{"recognised by header", []sheet{{"Sheet9", [][]string{{"用户问题"}, {"x"}}}},
			Options{}, CodeSheetByHeader, "Sheet9", 0, "", SeverityWarning},
		{"chosen sheet missing", []sheet{{"qa", [][]string{{"question"}, {"x"}}}},
			Options{Sheets: map[string]string{SheetQA: "nope"}}, CodeMissingSheet, "nope", 0, "", SeverityError},
		{"two qa sheets", []sheet{{"qa", [][]string{{"question"}, {"x"}}}, {"问答", [][]string{{"question"}, {"y"}}}},
			Options{}, CodeSeveralSheets, "", 0, "", SeverityWarning}, // read together since issue 23
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeXLSX(t, c.sheets...)
			_, rep := open(t, path, c.opt)
			p := find(t, rep.Problems, c.code)
			if p.Sheet != c.sheet || p.Row != c.row || p.Column != c.column || p.Severity != c.severity || p.File != path {
				t.Errorf("got %+v, want sheet %q row %d column %q severity %s", p, c.sheet, c.row, c.column, c.severity)
			}
			if p.EN == "" || p.ZH == "" {
				t.Errorf("message missing a language: %+v", p)
			}
			if got := rep.HasErrors(); got != (c.severity == SeverityError) {
				t.Errorf("HasErrors = %v with %v", got, codes(rep.Problems))
			}
		})
	}
}

// TestEveryProblemReported: three bad rows give three problems, not one.
func TestEveryProblemReported(t *testing.T) {
	path := writeXLSX(t, sheet{"guides", [][]string{{"doc_id", "title"}, {"G1", "甲"}}},
		sheet{"qa", [][]string{{"question", "doc_id"}, {"x", "G8"}, {"", "G1"}, {"z", "G9"}, {"ok", "甲"}}})
	wb, rep := open(t, path, Options{})
	got := codes(rep.Problems)
	want := []string{"unknown_gold_doc@qa:2:doc_id", "missing_value@qa:3:question", "unknown_gold_doc@qa:4:doc_id"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems = %v, want %v", got, want)
	}
	if len(wb.Items) != 1 || wb.Items[0].ID != "q4" || wb.Items[0].DocID != "G1" {
		t.Errorf("items = %+v", wb.Items)
	}
}

func TestSkipBadRows(t *testing.T) {
	path := writeXLSX(t, sheet{"guides", [][]string{{"doc_id", "title"}, {"G1", "甲"}}},
		sheet{"qa", [][]string{{"id", "question", "doc_id"}, {"a", "x", "G8"}, {"b", "y", "G1"}}},
		sheet{"scores", [][]string{{"id", "set", "dimension", "score"}, {"a", "rag", "d", "1"}, {"b", "rag", "d", "2"}}})
	wb, rep := open(t, path, Options{SkipBadRows: true})
	if rep.HasErrors() {
		t.Fatalf("errors left: %v", codes(rep.Problems))
	}
	got := codes(rep.Skipped)
	want := []string{"unknown_gold_doc@qa:2:doc_id", "unknown_item@scores:2:id"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("skipped = %v, want %v", got, want)
	}
	if len(wb.Items) != 1 || wb.Items[0].ID != "b" || wb.Scores.Len() != 1 || wb.Scores.At(0).ItemID != "b" {
		t.Errorf("kept items %+v scores %+v", wb.Items, wb.Scores)
	}
	// Without skipping the same file has errors.
	_, rep = open(t, path, Options{})
	if !rep.HasErrors() || len(rep.Skipped) != 0 {
		t.Errorf("without SkipBadRows: problems %v skipped %v", codes(rep.Problems), codes(rep.Skipped))
	}
}

func TestFileProblems(t *testing.T) {
	dir := t.TempDir()
	good := writeXLSX(t, sheet{"qa", [][]string{{"question"}, {"这是一个足够长的问题，用来让工作簿解压后比压缩包大"}}})
	goodBytes, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	f := excelize.NewFile()
	f.SetCellValue("Sheet1", "A1", "question")
	f.SetCellValue("Sheet1", "A2", "密码后的问题")
	encrypted := filepath.Join(dir, "locked.xlsx")
	if err := f.SaveAs(encrypted, excelize.Options{Password: "secret"}); err != nil {
		t.Fatal(err)
	}
	f.Close()

	ole := append([]byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}, make([]byte, 504)...)
	cases := []struct {
		name string
		path string
		opt  Options
		code string
	}{
		{"text renamed", write("notes.xlsx", []byte("这不是工作簿\n")), Options{}, CodeNotXLSX},
		{"legacy xls", write("old.xls", ole), Options{}, CodeNotXLSX},
		{"truncated zip", write("cut.xlsx", goodBytes[:len(goodBytes)/2]), Options{}, CodeCorrupt},
		{"password", encrypted, Options{}, CodeEncrypted},
		{"wrong password", encrypted, Options{Password: "nope"}, CodeEncrypted},
		{"file over limit", good, Options{UnzipSizeLimit: 100}, CodeTooLarge},
		{"unpacks over limit", good, Options{UnzipSizeLimit: int64(len(goodBytes)) + 1}, CodeTooLarge},
		{"csv over limit", write("qa.csv", []byte("question\nx\n")), Options{MaxCSVBytes: 4}, CodeTooLarge},
		{"unsupported type", write("a.pdf", []byte("%PDF")), Options{}, CodeUnsupported},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wb, rep := open(t, c.path, c.opt)
			p := find(t, rep.Problems, c.code)
			if p.Severity != SeverityError || p.File != c.path || !rep.HasErrors() {
				t.Errorf("problem %+v", p)
			}
			if len(wb.Items) != 0 {
				t.Errorf("items read from a bad file: %d", len(wb.Items))
			}
			if !strings.Contains(p.Message("zh"), filepath.Base(c.path)) || !strings.Contains(p.Message("en"), filepath.Base(c.path)) {
				t.Errorf("messages do not name the file: %q / %q", p.Message("en"), p.Message("zh"))
			}
		})
	}

	// The right password opens it.
	wb, rep := open(t, encrypted, Options{Password: "secret", Sheets: map[string]string{SheetQA: "Sheet1"}})
	if len(rep.Problems) != 0 || len(wb.Items) != 1 || wb.Items[0].Question != "密码后的问题" {
		t.Errorf("with password: %v, items %+v", codes(rep.Problems), wb.Items)
	}

	if _, _, err := Open(context.Background(), filepath.Join(dir, "absent.xlsx"), Options{}); err == nil {
		t.Error("a missing file gave no error")
	}
}

func TestMessage(t *testing.T) {
	p := Problem{File: "/x/book.xlsx", Sheet: "qa", Row: 5, Column: "标准文档", Severity: SeverityError, EN: "bad.", ZH: "坏。"}
	if got, want := p.Message("en"), `Error: book.xlsx, sheet "qa", row 5, column "标准文档": bad.`; got != want {
		t.Errorf("en = %q, want %q", got, want)
	}
	if got, want := p.Message("zh-CN"), "错误：book.xlsx，工作表“qa”，第 5 行，“标准文档”列：坏。"; got != want {
		t.Errorf("zh = %q, want %q", got, want)
	}
	p = Problem{File: "a.csv", Severity: SeverityWarning, EN: "w.", ZH: "提。"}
	if got, want := p.Message("zh"), "提示：a.csv：提。"; got != want {
		t.Errorf("zh = %q, want %q", got, want)
	}
}

func TestCSVFolderEncodings(t *testing.T) {
	for _, enc := range []string{"utf8", "bom", "gb18030"} {
		t.Run(enc, func(t *testing.T) {
			dir := t.TempDir()
			writeCSV(t, dir, "办事指南.csv", enc, guidesRows)
			writeCSV(t, dir, "QA.csv", enc, qaRows)
			writeCSV(t, dir, "scores.csv", enc, scoresRows)
			writeCSV(t, dir, "人工评分.csv", enc, humanRows)
			writeCSV(t, dir, "unrelated.csv", enc, [][]string{{"x"}, {"y"}})
			wb, rep := open(t, dir, Options{})
			if rep.HasErrors() {
				t.Fatal(codes(rep.Problems))
			}
			ref := writeXLSX(t, sheet{"guides", guidesRows}, sheet{"qa", qaRows}, sheet{"scores", scoresRows}, sheet{"human", humanRows})
			want, _ := open(t, ref, Options{})
			if !reflect.DeepEqual(wb.Guides, want.Guides) || !reflect.DeepEqual(wb.Items, want.Items) ||
				!reflect.DeepEqual(slices.Collect(wb.Scores.Values()), slices.Collect(want.Scores.Values())) || !reflect.DeepEqual(wb.Human, want.Human) ||
				!reflect.DeepEqual(wb.Systems, want.Systems) {
				t.Errorf("CSV (%s) differs from xlsx:\n%+v\n%+v", enc, wb, want)
			}
			if wb.Guides[0].Title != "居民身份证申领" {
				t.Errorf("title decoded as %q", wb.Guides[0].Title)
			}
		})
	}
}

// TestDetectEncodingLateChinese: GB18030 bytes after a long ASCII prefix are
// still detected.
func TestDetectEncodingLateChinese(t *testing.T) {
	dir := t.TempDir()
	rows := [][]string{{"question"}}
	for i := 0; i < 20000; i++ {
		rows = append(rows, []string{"ascii question"})
	}
	rows = append(rows, []string{"最后一个问题"})
	writeCSV(t, dir, "qa.csv", "gb18030", rows)
	wb, rep := open(t, filepath.Join(dir, "qa.csv"), Options{})
	if rep.HasErrors() || len(wb.Items) != 20001 || wb.Items[20000].Question != "最后一个问题" {
		t.Fatalf("%v, %d items, last %q", codes(rep.Problems), len(wb.Items), wb.Items[len(wb.Items)-1].Question)
	}
}

func TestJSONLRagas(t *testing.T) {
	dir := t.TempDir()
	lines := strings.Join([]string{
		`{"user_input":"怎么办护照？","response":"去出入境","retrieved_contexts":["片段一","片段二"],"reference":"到出入境管理局","answer:base":"不知道"}`,
		``,
		`{"user_input":"第二问","response":null,"retrieved_contexts":[],"query_type":"Comparative","fine_keywords":[["a","b"],["c"]]}`,
		`not json`,
		`{"user_input":"x","fine_keywords":"[[\"a\""}`,
	}, "\n")
	path := filepath.Join(dir, "qa.jsonl")
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	wb, rep := open(t, path, Options{})
	if got, want := codes(rep.Problems), []string{"bad_json@:4:", "bad_list@:5:fine_keywords"}; !reflect.DeepEqual(got, want) {
		t.Errorf("problems = %v, want %v", got, want)
	}
	want := []dataset.Item{
		{ID: "q1", Question: "怎么办护照？", Row: 1, Answers: map[string]string{"rag": "去出入境", "base": "不知道"},
			Contexts: []string{"片段一", "片段二"}, Reference: "到出入境管理局"},
		{ID: "q2", Question: "第二问", Row: 3, QueryType: dataset.QueryComparative, Fine: [][]string{{"a", "b"}, {"c"}}},
	}
	if !reflect.DeepEqual(wb.Items, want) {
		t.Errorf("items =\n%#v\nwant\n%#v", wb.Items, want)
	}
	if w := []string{"rag", "base"}; !reflect.DeepEqual(wb.Systems, w) {
		t.Errorf("systems = %v", wb.Systems)
	}
}

func TestParseLists(t *testing.T) {
	lists := []struct {
		in   string
		want []string
		err  bool
	}{
		{"", nil, false},
		{"a|b | c", []string{"a", "b", "c"}, false},
		{"a;b；c", []string{"a", "b", "c"}, false},
		{"x;y\nz", []string{"x;y", "z"}, false},
		{"p｜q", []string{"p", "q"}, false},
		{`["a", 3, " "]`, []string{"a", "3"}, false},
		{`[["a"]]`, nil, true},
		{`[1,`, nil, true},
	}
	for _, c := range lists {
		got, err := parseList(c.in)
		if (err != nil) != c.err || !c.err && !reflect.DeepEqual(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("parseList(%q) = %q, %v; want %q, err %v", c.in, got, err, c.want, c.err)
		}
	}
	groups := []struct {
		in   string
		want [][]string
		err  bool
	}{
		{"a|b;c", [][]string{{"a", "b"}, {"c"}}, false},
		{"a|b\n\nc|d", [][]string{{"a", "b"}, {"c", "d"}}, false},
		{`[["a","b"],"c",[]]`, [][]string{{"a", "b"}, {"c"}}, false},
		{`[[1]]`, nil, true},
		{`[["a"]`, nil, true},
	}
	for _, c := range groups {
		got, err := parseGroups(c.in)
		if (err != nil) != c.err || !c.err && !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseGroups(%q) = %q, %v; want %q, err %v", c.in, got, err, c.want, c.err)
		}
	}
}

func TestNormalizeAndAliases(t *testing.T) {
	cases := []struct{ kind, header, want string }{
		{SheetQA, "User_Input", colQuestion},
		{SheetQA, "Reference Answer", colReference},
		{SheetQA, "知识库答案", colReference},
		{SheetQA, "提问类型", colQueryType},
		{SheetQA, "关键字", colCoarse},
		{SheetGuides, "事项 编码", colDocID},
		{SheetGuides, "Item Name", colTitle},
		{SheetScores, "评分", colScore},
		{SheetQA, "处理单位", ""},
	}
	for _, c := range cases {
		if got := columnKey(c.kind, c.header); got != c.want {
			t.Errorf("columnKey(%s, %q) = %q, want %q", c.kind, c.header, got, c.want)
		}
	}
	for in, want := range map[string]string{"知识库": SheetGuides, "Q A": SheetQA, "人工_评分": SheetHuman, "Scores": SheetScores, "other": ""} {
		if got := sheetKind(in); got != want {
			t.Errorf("sheetKind(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"answer:v2": "v2", "回答：基线 A": "基线 A", "Answer: RAG": "rag", "answer:": "", "notes:x": ""} {
		got, _ := answerSystem(in)
		if got != want {
			t.Errorf("answerSystem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadSheetRows(t *testing.T) {
	path := writeXLSX(t, sheet{"First", [][]string{{"a"}}}, sheet{"政务 问答", [][]string{{"h1", "h2"}, {"", ""}, {"x", "y"}}})
	var got []string
	err := ReadSheetRows(context.Background(), path, "政务问答", func(row int, cells []string) error {
		got = append(got, strings.Join(cells, ",")+"@"+strconvItoa(row))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"h1,h2@1", "x,y@3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("rows = %v, want %v", got, want)
	}
	bad := filepath.Join(t.TempDir(), "x.xlsx")
	os.WriteFile(bad, []byte("text"), 0o644)
	err = ReadSheetRows(context.Background(), bad, "x", func(int, []string) error { return nil })
	var p Problem
	if !asProblem(err, &p) || p.Code != CodeNotXLSX {
		t.Errorf("err = %v", err)
	}
}

func TestCancelled(t *testing.T) {
	rows := [][]string{{"question"}}
	for i := 0; i < 3000; i++ {
		rows = append(rows, []string{"问题"})
	}
	path := writeXLSX(t, sheet{"qa", rows})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Open(ctx, path, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestContinuationOf(t *testing.T) {
	cases := []struct {
		in, base string
		ok       bool
	}{
		{"scores (2)", "scores", true}, {"评分（3）", "评分", true}, {"scores", "", false},
		{"scores (x)", "scores", true}, {"(2)", "", false}, {"qa (10)", "qa", true},
		{"问答集（第二批）", "问答集", true}, {"qa_2", "qa", true}, {"问答集【旧】", "问答集", true}, {"qa ()", "", false},
	}
	for _, c := range cases {
		base, ok := continuationOf(c.in)
		if base != c.base || ok != c.ok {
			t.Errorf("continuationOf(%q) = %q, %v", c.in, base, ok)
		}
	}
	if sheetKind("scores (2)") != SheetScores || sheetKind("qa (2)") != SheetQA || sheetKind("办事指南（2）") != SheetGuides {
		t.Errorf("sheetKind: scores (2) → %q, qa (2) → %q", sheetKind("scores (2)"), sheetKind("qa (2)"))
	}
}

func TestScoresContinueOnFurtherSheets(t *testing.T) {
	head := []string{"id", "set", "judge", "dimension", "score"}
	path := writeXLSX(t,
		sheet{"qa", [][]string{{"id", "question"}, {"q1", "问"}, {"q2", "问"}}},
		sheet{"scores", [][]string{head, {"q1", "rag", "j", "quality", "7"}}},
		sheet{"scores (2)", [][]string{head, {"q2", "rag", "j", "quality", "5"}}},
	)
	wb, rep, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.HasErrors() || wb.Scores.Len() != 2 {
		t.Fatalf("scores = %+v, problems %v", wb.Scores, rep.Problems)
	}
	for _, p := range rep.Problems {
		if p.Code == CodeDuplicateSheet {
			t.Fatalf("continuation reported as duplicate: %v", p)
		}
	}
}

func TestDuplicateScoreAcrossContinuationSheets(t *testing.T) {
	head := []string{"id", "set", "judge", "dimension", "score"}
	path := writeXLSX(t,
		sheet{"qa", [][]string{{"id", "question"}, {"q1", "问"}}},
		sheet{"scores", [][]string{head, {"q1", "rag", "j", "quality", "7"}}},
		sheet{"scores (2)", [][]string{head, {"q1", "rag", "j", "quality", "3"}}},
	)
	wb, rep, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if wb.Scores.Len() != 1 || wb.Scores.At(0).Score != 7 {
		t.Fatalf("scores = %+v", wb.Scores)
	}
	found := false
	for _, p := range rep.Problems {
		if p.Code == CodeDuplicateScore && p.Sheet == "scores (2)" && strings.Contains(p.EN, `sheet "scores" row 2`) {
			found = true
		}
	}
	if !found {
		t.Fatalf("no duplicate warning naming the first sheet: %v", rep.Problems)
	}
}

func TestScoreKeySeparatesParts(t *testing.T) {
	if scoreKey("ab", "c", "j", "d", 1) == scoreKey("a", "bc", "j", "d", 1) ||
		scoreKey("q", "rag", "j", "d", 1) == scoreKey("q", "rag", "j", "d", 2) {
		t.Fatal("different judgements share a key")
	}
	// FNV-1a over "q" 0xff "rag" 0xff …, computed independently below.
	h := uint64(14695981039346656037)
	for _, part := range []string{"q", "rag", "j", "d", "1"} {
		for _, c := range []byte(part + "\xff") {
			h ^= uint64(c)
			h *= 1099511628211
		}
	}
	if got := scoreKey("q", "rag", "j", "d", 1); got != h {
		t.Fatalf("scoreKey = %x, want %x", got, h)
	}
}

// Judgements whose hashes collide are all kept, and a true duplicate among
// them is still found: with every key hashed to one value, only the
// repeated row is left out (before, every row after the first was dropped
// as a "duplicate").
func TestScoreHashCollisionKeepsJudgements(t *testing.T) {
	defer func(h func(string, string, string, string, int) uint64) { scoreHash = h }(scoreHash)
	scoreHash = func(string, string, string, string, int) uint64 { return 42 }
	head := []string{"id", "set", "judge", "dimension", "score"}
	path := writeXLSX(t,
		sheet{"qa", [][]string{{"id", "question"}, {"q1", "问"}, {"q2", "问二"}}},
		sheet{"scores", [][]string{head,
			{"q1", "rag", "j", "quality", "7"},
			{"q2", "rag", "j", "quality", "5"},
			{"q1", "zero", "j", "quality", "2"},
			{"q2", "rag", "j", "quality", "9"}, // the same judgement as row 3
			{"q1", "rag", "j", "relevance", "6"},
		}},
	)
	wb, rep, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for j := range wb.Scores.Values() {
		got = append(got, j.Score)
	}
	if !slices.Equal(got, []float64{7, 5, 2, 6}) {
		t.Errorf("scores %v, want [7 5 2 6]", got)
	}
	var dups []string
	for _, p := range rep.Problems {
		if p.Code == CodeDuplicateScore {
			dups = append(dups, fmt.Sprintf("row %d: %s", p.Row, p.EN))
		}
	}
	if len(dups) != 1 || !strings.HasPrefix(dups[0], "row 5:") || !strings.Contains(dups[0], "already given at row 3") {
		t.Errorf("duplicate warnings %q, want one for row 5 naming row 3", dups)
	}
}
