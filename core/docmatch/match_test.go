package docmatch

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/target"
	"cubeworkbench/core/text"
)

func TestNormalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"食品经营许可办理指南.pdf", "食品经营许可"},
		{"食品经营许可", "食品经营许可"},
		{"食品经营许可（办事指南）.docx", "食品经营许可"},
		{"《食品经营许可》服务指南.PDF", "食品经营许可"},
		{"ＹＣ－０００１.txt", "yc0001"},
		{"YC-0001", "yc0001"},
		{"公共场所 卫生许可　指南.md", "公共场所卫生许可"},
		{"第1.5版说明", "第15版"}, // ".5版说明" is not an extension
		{"指南", "指南"},        // a name that is only a guide word keeps it
		{"3f2a9c1e5b7d4e8f9a0b1c2d3e4f5a6b", "3f2a9c1e5b7d4e8f9a0b1c2d3e4f5a6b"},
	}
	for _, c := range cases {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

var guides = []dataset.Guide{
	{ID: "YC-0001", Title: "食品经营许可"},
	{ID: "YC-0002", Title: "公共场所卫生许可", TargetDoc: "7b6a5c4d3e2f1a0b9c8d7e6f5a4b3c2d"},
	{ID: "YC-0003", Title: "户口迁移", TargetDoc: "0b9e4c2a-6f1d-4d8e-9a3b-5c7e1f2a4b6d; 户口迁移（市内）.docx"},
	{ID: "YC-0004", Title: "社保转移（城区）"},
	{ID: "YC-0005", Title: "社保转移(城区)指南"},
}

// Each way a real knowledge base names a document, and what today's exact
// match (id, name, name without extension) made of it.
func TestResolve(t *testing.T) {
	cases := []struct {
		name      string
		doc       target.Doc
		want      string
		method    Method
		ambiguous int
	}{
		{"RAGFlow 32-hex id + uploaded file name", target.Doc{ID: "3f2a9c1e5b7d4e8f9a0b1c2d3e4f5a6b", Name: "食品经营许可办理指南.pdf"}, "YC-0001", ByName, 0},
		{"id in the target_doc column", target.Doc{ID: "7b6a5c4d3e2f1a0b9c8d7e6f5a4b3c2d", Name: "卫生许可.pdf"}, "YC-0002", ByTargetDoc, 0},
		{"Dify UUID in target_doc, one of two names", target.Doc{ID: "0b9e4c2a-6f1d-4d8e-9a3b-5c7e1f2a4b6d", Name: "x.docx"}, "YC-0003", ByTargetDoc, 0},
		{"file name in target_doc, full-width brackets", target.Doc{ID: "u", Name: "户口迁移(市内).DOCX"}, "YC-0003", ByTargetDoc, 0},
		{"exact guide id", target.Doc{ID: "YC-0001"}, "YC-0001", ByID, 0},
		{"id with its extension", target.Doc{Name: "YC-0001.txt"}, "YC-0001", ByID, 0},
		{"full-width id", target.Doc{Name: "ＹＣ－０００１.txt"}, "YC-0001", ByName, 0},
		{"exact title", target.Doc{Name: "公共场所卫生许可"}, "YC-0002", ByTitle, 0},
		{"two guides normalize alike: ambiguous, not guessed", target.Doc{Name: "社保转移【城区】办事指南.pdf"}, "", "", 2},
		{"unknown", target.Doc{ID: "ffff", Name: "其他.pdf"}, "", "", 0},
	}
	m := New(guides)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := m.Resolve(c.doc)
			if r.GuideID != c.want || r.Method != c.method || len(r.Ambiguous) != c.ambiguous {
				t.Fatalf("Resolve(%+v) = %+v, want %s by %s (%d ambiguous)", c.doc, r, c.want, c.method, c.ambiguous)
			}
		})
	}
}

func TestTallyReport(t *testing.T) {
	var warned []string
	tl := NewTally(New(guides), func(w target.Warning) { warned = append(warned, w.Code) })
	got := tl.Map(target.Answer{Retrieved: []target.Doc{
		{ID: "3f2a", Name: "食品经营许可办理指南.pdf"}, {ID: "zz", Name: "停车场.pdf"}}})
	if got.Retrieved[0].ID != "YC-0001" || got.Retrieved[0].Name != "食品经营许可办理指南.pdf" || got.Retrieved[1].ID != "zz" {
		t.Fatalf("mapped = %+v", got.Retrieved)
	}
	noRef := target.Warning{Code: target.WarnNoReference, Message: text.New("引用关了", "quote off")}
	tl.Map(target.Answer{Warnings: []target.Warning{noRef}})
	tl.Map(target.Answer{Warnings: []target.Warning{noRef}, Retrieved: []target.Doc{{Name: "停车场.pdf"}}})
	r := tl.Report()
	if r.Answers != 3 || r.NoDocs != 1 || r.Retrieved != 3 || r.Resolved != 1 || len(r.Unmatched) != 2 ||
		r.WarningCounts[target.WarnNoReference] != 2 || len(r.Warnings) != 1 || len(warned) != 1 {
		t.Fatalf("report = %+v, warned %v", r, warned)
	}
	if !r.Loud() || r.RecallMissing() {
		t.Errorf("1 of 3 resolved: loud %v, recall missing %v", r.Loud(), r.RecallMissing())
	}
	msgs := strings.Join(r.Messages("zh", 1), "\n")
	for _, want := range []string{"警告", "target_doc", "引用关了", "未对应", "另有 1 个"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("messages lack %q:\n%s", want, msgs)
		}
	}
	if s := (Report{}).Share(); s != nil {
		t.Errorf("share of nothing = %v, want nil", *s)
	}
	none := ReportFor(New(guides), target.Answer{})
	if none.RecallMissing() || !none.Loud() || !strings.Contains(none.Messages("en", 0)[0], "guide recall@k is 0") {
		t.Errorf("nothing retrieved: %+v %v", none, none.Messages("en", 0))
	}
	off := ReportFor(New(guides), target.Answer{Warnings: []target.Warning{noRef}})
	if !off.RecallMissing() || !strings.Contains(off.Messages("en", 0)[0], "cannot be computed") {
		t.Errorf("quote off: %+v %v", off, off.Messages("en", 0))
	}
}

// Every line of the mapping report names the metric by the glossary's
// term (指南召回率@k, guide recall@k), never by a second wording such as
// "Recall@k" (issue 21).
func TestMessagesNameGuideRecallAsTheGlossary(t *testing.T) {
	noRef := target.Warning{Code: target.WarnNoReference, Message: text.New("引用关了", "quote off")}
	reports := map[string]Report{
		"recall missing":    ReportFor(New(guides), target.Answer{Warnings: []target.Warning{noRef}}),
		"nothing retrieved": ReportFor(New(guides), target.Answer{}),
		"most unmatched":    ReportFor(New(guides), target.Answer{Retrieved: []target.Doc{{Name: "停车场.pdf"}, {Name: "其他.pdf"}}}),
	}
	for name, r := range reports {
		for _, lang := range []text.Lang{text.ZH, text.EN} {
			msgs := strings.Join(r.Messages(lang, 0), "\n")
			if term := glossary.Term(glossary.GuideRecall, lang); !strings.Contains(msgs, term) || strings.Contains(msgs, "Recall@") {
				t.Errorf("%s, %s: want the metric named %q only:\n%s", name, lang, term, msgs)
			}
		}
	}
}

// The guides sheet's optional column naming the target's document is read
// under its English and Chinese names (core/ingest/alias.go).
func TestTargetDocColumnIngested(t *testing.T) {
	for _, header := range []string{"target_doc", "知识库文件名", "Target Document"} {
		path := filepath.Join(t.TempDir(), "wb.xlsx")
		f := excelize.NewFile()
		f.SetSheetName("Sheet1", "guides")
		_ = f.SetSheetRow("guides", "A1", &[]any{"doc_id", "title", "text", header})
		_ = f.SetSheetRow("guides", "A2", &[]any{"YC-0001", "食品经营许可", "材料：营业执照", "食品经营许可办理指南.pdf"})
		f.NewSheet("qa")
		_ = f.SetSheetRow("qa", "A1", &[]any{"id", "question", "doc_id"})
		_ = f.SetSheetRow("qa", "A2", &[]any{"q1", "开餐馆要什么", "YC-0001"})
		if err := f.SaveAs(path); err != nil {
			t.Fatal(err)
		}
		wb, _, err := ingest.Open(context.Background(), path, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(wb.Guides) != 1 || wb.Guides[0].TargetDoc != "食品经营许可办理指南.pdf" {
			t.Errorf("%s: guides = %+v", header, wb.Guides)
		}
	}
}
