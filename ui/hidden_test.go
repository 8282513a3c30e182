package ui

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/internal/testbook"
)

// TestReadHiddenSheetsCheck: the open tab's 读取隐藏工作表 reopens the
// workbook with its very hidden scores sheet read (session.OpenOptions).
func TestReadHiddenSheetsCheck(t *testing.T) {
	b := testbook.New()
	b.Sheet("qa", "id", "question", "answer").Row("a", "看得见的问题", "回答")
	b.Sheet("scores", "id", "set", "judge", "dimension", "score").Row("a", "rag", "j", "relevance", 10)
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "hidden.xlsx"))
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetSheetVisible("scores", false, true); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	w, loop := newTestWindow(t, "zh", nil)
	w.openAsync(path)
	loop.runUntil(t, time.Minute, "the workbook", func() bool { return w.workbook() != nil })
	if n := len(w.workbook().Scores); n != 0 {
		t.Fatalf("hidden sheet read without asking: %d scores", n)
	}
	first := w.sess
	w.open.readHidden.SetChecked(true)
	loop.runUntil(t, time.Minute, "the reopened workbook", func() bool { return w.sess != first })
	if n := len(w.workbook().Scores); n != 1 {
		t.Errorf("with 读取隐藏工作表: %d scores, want 1", n)
	}
}
