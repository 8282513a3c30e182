package ingest

import (
	"context"
	"testing"

	"cubeworkbench/core/dataset"

	"cubeworkbench/internal/shareddata"
)

// sharedData locates ../shared/data beside the repository; a missing
// file fails under CI=true (internal/shareddata).
func sharedData(t *testing.T, parts ...string) string {
	t.Helper()
	return shareddata.Path(t, parts...)
}

// TestCoFEDataset loads CoFE-RAG's Chinese queries; the counts are those of
// the dataset's NOTES.md (2826 examples; 事实类 1340, 分析类 746, 比较类 498,
// 教程类 242; every fine keyword list nested).
func TestCoFEDataset(t *testing.T) {
	path := sharedData(t, "cofe", "rag_dataset_zh.json")
	wb, rep := open(t, path, Options{})
	if len(rep.Problems) != 0 {
		t.Fatalf("problems: %v", codes(rep.Problems[:min(5, len(rep.Problems))]))
	}
	if len(wb.Items) != 2826 {
		t.Fatalf("items = %d, want 2826", len(wb.Items))
	}
	types := map[string]int{}
	docs := map[string]bool{}
	for _, it := range wb.Items {
		types[it.QueryType]++
		docs[it.DocID] = true
		if it.Question == "" || it.Reference == "" || it.DocID == "" {
			t.Fatalf("item %s incomplete: %+v", it.ID, it)
		}
	}
	want := map[string]int{dataset.QueryFactual: 1340, dataset.QueryAnalytical: 746, dataset.QueryComparative: 498, dataset.QueryTutorial: 242}
	for k, v := range want {
		if types[k] != v {
			t.Errorf("%s = %d, want %d (all: %v)", k, types[k], v, types)
		}
	}
	if len(docs) != 564 {
		t.Errorf("distinct file_name = %d, want 564", len(docs))
	}
	first := wb.Items[0]
	if first.ID != "q1" || first.DocID != "2024-04-07_1219528942.pdf" ||
		len(first.Coarse) != 1 || first.Coarse[0] != "国大药房" ||
		len(first.Fine) != 2 || first.Fine[0][0] != "美团门店上线8700+家" || first.Fine[1][0] != "饿了么门店上线7400+家" {
		t.Errorf("first item = %+v", first)
	}
}

// TestGovQA loads MSGABench's gov_qa.xlsx: no sheet is named like ours, so
// the first sheet with a question column (自然语言理解, 233 rows) is the QA
// set; 政务问答 (2081 rows) can be chosen, and read raw by ReadSheetRows.
func TestGovQA(t *testing.T) {
	path := sharedData(t, "msgabench", "gov_qa.xlsx")
	wb, rep := open(t, path, Options{})
	if rep.HasErrors() || len(rep.Problems) != 1 || rep.Problems[0].Code != CodeSheetByHeader || rep.Problems[0].Sheet != "自然语言理解" {
		t.Fatalf("problems: %v", codes(rep.Problems))
	}
	if len(wb.Items) != 233 {
		t.Fatalf("items = %d, want 233", len(wb.Items))
	}
	it := wb.Items[0]
	if it.Question != "中签后可以在外地购买小客车回京上牌吗？" || it.Reference == "" ||
		len(it.Coarse) != 2 || it.Coarse[0] != "回京" || it.Coarse[1] != "上牌" || it.QueryType != "互动咨询" {
		t.Errorf("first item = %+v", it)
	}

	wb, rep = open(t, path, Options{Sheets: map[string]string{SheetQA: "政务问答"}})
	if len(rep.Problems) != 0 || len(wb.Items) != 2081 {
		t.Fatalf("政务问答: %d items, problems %v", len(wb.Items), codes(rep.Problems))
	}

	rows, texts := 0, 0
	err := ReadSheetRows(context.Background(), path, "政务问答", func(row int, cells []string) error {
		rows++
		if row > 1 && cell(cells, 1) != "" {
			texts++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Row 544's 正文内容 is a lone tab, so 2080 of 2081 questions carry text.
	if rows != 2082 || texts != 2080 {
		t.Errorf("ReadSheetRows: %d rows, %d with 正文内容; want 2082 and 2080", rows, texts)
	}
}
