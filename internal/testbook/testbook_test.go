package testbook

import (
	"context"
	"path/filepath"
	"testing"

	"cubeworkbench/core/ingest"
)

// A book written either way reads back as the same workbook.
func TestWritesReadBack(t *testing.T) {
	b := New()
	b.Sheet("guides", "doc_id", "title", "text").Row("G1", "营业执照", "材料：身份证").Row("G2", "护照", "材料：户口簿")
	b.Sheet("qa", "id", "question", "doc_id", "answer").Row("q1", "怎么办营业执照？", "G1", "带身份证").Row("q2", "护照要多久？", "G2", nil)
	dir := t.TempDir()
	for name, path := range map[string]string{
		"xlsx": b.WriteXLSX(t, filepath.Join(dir, "book.xlsx")),
		"csv":  b.WriteCSV(t, filepath.Join(dir, "csv")),
	} {
		wb, rep, err := ingest.Open(context.Background(), path, ingest.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.HasErrors() || len(wb.Guides) != 2 || len(wb.Items) != 2 || wb.Items[0].Answer("rag") != "带身份证" || wb.Items[1].Answer("rag") != "" {
			t.Fatalf("%s: %d guides, %d items, problems %v", name, len(wb.Guides), len(wb.Items), rep.Problems)
		}
	}
}
