package ingest

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"cubeworkbench/internal/testbook"
)

// Workbooks as officers keep them (issue 23): every test here failed on the
// reader before it, with the fixture built by internal/testbook.

// officeBook is a small knowledge base and a QA sheet of n questions.
func officeBook(n int) (*testbook.Book, *testbook.Sheet) {
	b := testbook.New()
	g := b.Sheet("办事指南", "事项编码", "事项名称", "正文")
	for i := 1; i <= 8; i++ {
		g.Row("G"+itoa(i), "事项"+itoa(i), "材料：身份证")
	}
	qa := b.Sheet("问答集", "编号", "问题", "标准文档", "回答", "检索文档")
	for i := 1; i <= n; i++ {
		qa.Row("q"+itoa(i), "怎么办事项"+itoa(i)+"？", "G"+itoa(1+i%8), "带身份证", "G"+itoa(1+i%8))
	}
	return b, qa
}

func itoa(i int) string { return strconv.Itoa(i) }

func ids(t *testing.T, path string, opt Options) ([]string, *Report) {
	t.Helper()
	wb, rep := open(t, path, opt)
	var out []string
	for _, it := range wb.Items {
		out = append(out, it.ID)
	}
	return out, rep
}

// 1. A judge score typed 55 for 5 on the 0–10 scale is an error naming the
// sheet, row and column; skipping bad rows leaves that row out.
func TestImportedScoreOutsideScale(t *testing.T) {
	b, _ := officeBook(3)
	b.Sheet("评分", "编号", "答案集", "评委", "维度", "分数").
		Row("q1", "rag", "j", "relevance", 5).
		Row("q2", "rag", "j", "relevance", 55).
		Row("q3", "rag", "j", "correctness", 0). // CoFE's correctness is 1–5
		Row("q3", "rag", "j", "my_dim", 99)      // a dimension of unknown scale is not checked
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "book.xlsx"))
	_, rep := open(t, path, Options{})
	var got []Problem
	for _, p := range rep.Problems {
		if p.Code == "score_range" {
			got = append(got, p)
		}
	}
	if len(got) != 2 || got[0].Sheet != "评分" || got[0].Row != 3 || got[0].Column != "分数" || got[0].Severity != SeverityError ||
		!strings.Contains(got[0].EN, "0–10") || got[1].Row != 4 || !strings.Contains(got[1].EN, "1–5") {
		t.Fatalf("range problems = %+v (all: %v)", got, codes(rep.Problems))
	}
	if !rep.HasErrors() {
		t.Fatal("a score outside its scale must stop the evaluation")
	}
	wb, rep := open(t, path, Options{SkipBadRows: true})
	if rep.HasErrors() || wb.Scores.Len() != 2 || len(rep.Skipped) != 2 {
		t.Fatalf("skipping: %d scores, skipped %v, problems %v", wb.Scores.Len(), rep.Skipped, rep.Problems)
	}
}

// 2. Rows hidden by an AutoFilter or by hand are not read unless asked,
// and are named in a warning.
func TestHiddenRowsNotRead(t *testing.T) {
	b, qa := officeBook(10)
	qa.Filter(3, 5) // questions q2 and q4 filtered out
	qa.HideRows(8)  // q7 hidden by hand
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "book.xlsx"))
	got, rep := ids(t, path, Options{})
	if len(got) != 7 || strings.Contains(strings.Join(got, ","), "q2") || strings.Contains(strings.Join(got, ","), "q7") {
		t.Fatalf("items = %v", got)
	}
	p := find(t, rep.Problems, "hidden_rows")
	if p.Sheet != "问答集" || p.Severity != SeverityWarning || !strings.Contains(p.EN, "3, 5, 8") || !strings.Contains(p.ZH, "3, 5, 8") {
		t.Fatalf("warning = %+v", p)
	}
	got, _ = ids(t, path, Options{ReadHiddenSheets: true})
	if len(got) != 10 {
		t.Fatalf("reading hidden rows: %v", got)
	}
	rows := 0 // the raw reader sees every row
	if err := ReadSheetRows(context.Background(), path, "问答集", func(int, []string) error { rows++; return nil }); err != nil || rows != 11 {
		t.Fatalf("ReadSheetRows: %d rows, %v", rows, err)
	}
}

// 3. Questions split over several sheets are all read, and named.
func TestSeveralQuestionSheets(t *testing.T) {
	for _, second := range []string{"问答集 (2)", "问答集（第二批）", "qa_2"} {
		b, _ := officeBook(4)
		q2 := b.Sheet(second, "编号", "问题", "标准文档")
		q2.Row("q11", "第二批问题一", "G1").Row("q12", "第二批问题二", "G2")
		path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "book.xlsx"))
		got, rep := ids(t, path, Options{})
		if len(got) != 6 || rep.HasErrors() {
			t.Fatalf("%s: items %v, problems %v", second, got, rep.Problems)
		}
		p := find(t, rep.Problems, "several_sheets")
		if !strings.Contains(p.EN, "read 2 question sheets together: 问答集, "+second) || !strings.Contains(p.ZH, second) {
			t.Fatalf("%s: %+v", second, p)
		}
	}
}

// 3. The same id in two question sheets is an error naming both, never a
// silent choice.
func TestSeveralQuestionSheetsSameID(t *testing.T) {
	b, _ := officeBook(2)
	b.Sheet("问答集 (2)", "编号", "问题").Row("q1", "重复的问题")
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "book.xlsx"))
	_, rep := open(t, path, Options{})
	p := find(t, rep.Problems, CodeDuplicateID)
	if p.Sheet != "问答集 (2)" || p.Severity != SeverityError || !strings.Contains(p.EN, `sheet "问答集" row 2`) {
		t.Fatalf("%+v", p)
	}
}

// 4. Excel error values are missing values with a warning by cell, in an
// .xlsx (error cells) and a CSV (their text) alike.
func TestExcelErrorValuesAreMissing(t *testing.T) {
	b, qa := officeBook(2)
	qa.Row("q3", "怎么办事项3？", "G3", testbook.Error("#N/A"), "G3")
	qa.Row("q4", "怎么办事项4？", testbook.Error("#REF!"), "带身份证", testbook.Error("#VALUE!"))
	dir := t.TempDir()
	for _, path := range []string{b.WriteXLSX(t, filepath.Join(dir, "book.xlsx")), b.WriteCSV(t, filepath.Join(dir, "csv"))} {
		wb, rep := open(t, path, Options{})
		if rep.HasErrors() || len(wb.Items) != 4 {
			t.Fatalf("%s: %d items, problems %v", path, len(wb.Items), rep.Problems)
		}
		q3, q4 := wb.Items[2], wb.Items[3]
		if q3.Answer("rag") != "" || q4.DocID != "" || len(q4.Retrieved) != 0 {
			t.Fatalf("%s: error values read as text: %q %q %v", path, q3.Answer("rag"), q4.DocID, q4.Retrieved)
		}
		var where []string
		for _, p := range rep.Problems {
			if p.Code == "error_value" {
				where = append(where, p.Column+itoa(p.Row))
			}
		}
		if strings.Join(where, " ") != "回答4 标准文档5 检索文档5" {
			t.Fatalf("%s: warnings at %v", path, where)
		}
	}
}

// 9. Headers with bracketed notes, full-width letters or spaces are read;
// an unread header that looks like a known one is named.
func TestAnnotatedHeaders(t *testing.T) {
	b := testbook.New()
	b.Sheet("办事指南", "事项编码（唯一）", "事项名称【必填】").Row("G1", "事项一").Row("G2", "事项二")
	b.Sheet("问答集", "编号", "问题 (用户原话)", "标准文档（事项编码）", "检索文档(按排名)", "ａｎｓｗｅｒ").
		Row("q1", "怎么办事项一？", "G1", "G2|G1", "带身份证")
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "book.xlsx"))
	wb, rep := open(t, path, Options{})
	if rep.HasErrors() || len(wb.Items) != 1 || wb.Items[0].DocID != "G1" || len(wb.Items[0].Retrieved) != 2 || wb.Items[0].Answer("rag") != "带身份证" {
		t.Fatalf("items %+v, problems %v", wb.Items, rep.Problems)
	}
	for _, h := range []string{"检索结果", "召回文档"} {
		b := testbook.New()
		b.Sheet("办事指南", "事项编码", "事项名称").Row("G1", "事项一")
		b.Sheet("问答集", "问题", "标准文档", h).Row("怎么办事项一？", "G1", "G1")
		_, rep := open(t, b.WriteXLSX(t, filepath.Join(t.TempDir(), "book.xlsx")), Options{})
		p := find(t, rep.Problems, "likely_column")
		if p.Column != h || !strings.Contains(p.EN, h+`" was not read; did you mean "检索文档"`) || !strings.Contains(p.ZH, "检索文档") {
			t.Fatalf("%s: %+v", h, p)
		}
	}
}

// 6. A title two guides share names neither: the gold document and a
// retrieved entry written that way are errors naming both ids.
func TestSharedTitleIsNotGuessed(t *testing.T) {
	b := testbook.New()
	b.Sheet("办事指南", "事项编码", "事项名称", "行政区划").
		Row("TH-001", "居住证办理", "天河区").Row("YX-001", "居住证办理", "越秀区").Row("G3", "护照办理", "全市")
	b.Sheet("问答集", "编号", "问题", "标准文档", "检索文档").
		Row("q1", "越秀区居住证怎么办？", "居住证办理", "YX-001").
		Row("q2", "护照怎么办？", "G3", "居住证办理|G3").
		Row("q3", "天河区居住证怎么办？", "TH-001", "TH-001")
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "book.xlsx"))
	wb, rep := open(t, path, Options{})
	var got []string
	for _, p := range rep.Problems {
		if p.Code == "ambiguous_title" {
			if p.Severity != SeverityError || !strings.Contains(p.EN, "TH-001, YX-001") && !strings.Contains(p.EN, "YX-001, TH-001") {
				t.Errorf("%+v", p)
			}
			got = append(got, p.Column+itoa(p.Row))
		}
	}
	if strings.Join(got, " ") != "标准文档2 检索文档3" {
		t.Fatalf("ambiguous at %v; problems %v", got, rep.Problems)
	}
	if len(wb.Items) != 1 || wb.Items[0].DocID != "TH-001" {
		t.Fatalf("items %+v", wb.Items)
	}
}

// 7. Retrieved lists typed by hand (、，, full-width ids, spaces) name the
// guides meant; what still names none is reported with the nearest guide.
func TestRetrievedListsAsTyped(t *testing.T) {
	b := testbook.New()
	g := b.Sheet("办事指南", "事项编码", "事项名称")
	for i := 1; i <= 9; i++ {
		g.Row("G"+itoa(i), "事项"+itoa(i))
	}
	b.Sheet("问答集", "编号", "问题", "标准文档", "检索文档").
		Row("q1", "问一", "G3", "G3、G4").
		Row("q2", "问二", "G6", "G5，G6").
		Row("q3", "问三", "G7", "Ｇ７").
		Row("q4", "问四", "G8", " G 8 ; 事项9").
		Row("q5", "问五", "G1", "G1,G2|GG2")
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "book.xlsx"))
	wb, rep := open(t, path, Options{})
	want := []string{"G3 G4", "G5 G6", "G7", "G8 G9", "G1 G2 GG2"}
	for i, it := range wb.Items {
		if got := strings.Join(it.Retrieved, " "); got != want[i] {
			t.Errorf("%s: retrieved %q, want %q", it.ID, got, want[i])
		}
	}
	if p := find(t, rep.Problems, "typed_list"); !strings.Contains(p.EN, `5 retrieved entries`) || !strings.Contains(p.EN, `"G3、G4" at row 2, read as G3|G4`) {
		t.Errorf("%+v", p)
	}
	p := find(t, rep.Problems, CodeUnknownRetrievedDoc)
	if !strings.Contains(p.EN, `"GG2" at row 6, nearest guide: G2（事项2）`) || !strings.Contains(p.ZH, "最接近的指南：G2（事项2）") {
		t.Fatalf("%+v", p)
	}
}

// 10. A small GBK CSV pair, as Chinese Excel saves it, reads; a file that
// is half UTF-8 and half GBK is still refused.
func TestSmallGBKCSVPair(t *testing.T) {
	// Short GBK text in which accidental UTF-8 sequences are many: the old
	// count (6 valid to 10 invalid for this title) refused it.
	b := testbook.New()
	b.Sheet("guides", "事项编码", "事项名称", "正文").Row("G1", "营业执照办理", "营业执照办理需要身份证")
	b.Sheet("qa", "问题", "标准文档").Row("营业执照办理需要什么", "G1")
	dir := b.WriteCSVGB18030(t, filepath.Join(t.TempDir(), "csv"))
	wb, rep := open(t, dir, Options{})
	if rep.HasErrors() || len(wb.Guides) != 1 || wb.Guides[0].Title != "营业执照办理" || len(wb.Items) != 1 || wb.Items[0].Question != "营业执照办理需要什么" {
		t.Fatalf("guides %+v items %+v problems %v", wb.Guides, wb.Items, rep.Problems)
	}
	gbk, err := simplifiedchinese.GB18030.NewEncoder().String("护照办理需要身份证和照片，营业执照办理需要身份证")
	if err != nil {
		t.Fatal(err)
	}
	mixed := writeRaw(t, "qa.csv", []byte("问题,标准文档\n营业执照办理需要什么？,G1\n"+gbk+",G2\n"))
	_, rep = open(t, mixed, Options{})
	if p := find(t, rep.Problems, CodeBadEncoding); p.Severity != SeverityError {
		t.Fatalf("%+v", p)
	}
}
