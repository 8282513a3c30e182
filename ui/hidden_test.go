package ui

import (
	"path/filepath"
	"strings"
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
	if n := w.workbook().Scores.Len(); n != 0 {
		t.Fatalf("hidden sheet read without asking: %d scores", n)
	}
	first := w.sess
	w.open.readHidden.SetChecked(true)
	loop.runUntil(t, time.Minute, "the reopened workbook", func() bool { return w.sess != first })
	if n := w.workbook().Scores.Len(); n != 1 {
		t.Errorf("with 读取隐藏工作表: %d scores, want 1", n)
	}
}

// TestValidationPaneNamesWorkbookDoubts (issue 23): rows hidden by a filter
// and a second question sheet are named in the open tab's problem list in
// the window's language, and 读取隐藏的工作表和行 reads the filtered rows.
func TestValidationPaneNamesWorkbookDoubts(t *testing.T) {
	b := testbook.New()
	b.Sheet("问答集", "问题").Row("一").Row("撤回的问题").Row("三").Filter(3)
	b.Sheet("问答集 (2)", "问题").Row("四")
	path := b.WriteXLSX(t, filepath.Join(t.TempDir(), "filtered.xlsx"))

	w, loop := newTestWindow(t, "zh", nil)
	w.openAsync(path)
	loop.runUntil(t, time.Minute, "the workbook", func() bool { return w.workbook() != nil })
	if n := len(w.workbook().Items); n != 3 {
		t.Fatalf("filtered row read without asking: %d questions", n)
	}
	var shown []string
	for i := range w.open.problemCount() {
		shown = append(shown, w.open.problem(i).Message("zh"))
	}
	all := strings.Join(shown, "\n")
	for _, want := range []string{"被筛选或手动隐藏（第 3 行）", "共读取 2 个问答集工作表并合并：问答集、问答集 (2)"} {
		if !strings.Contains(all, want) {
			t.Errorf("the problem list lacks %q:\n%s", want, all)
		}
	}
	first := w.sess
	w.open.readHidden.SetChecked(true)
	loop.runUntil(t, time.Minute, "the reopened workbook", func() bool { return w.sess != first })
	if n := len(w.workbook().Items); n != 4 {
		t.Errorf("with 读取隐藏的工作表和行: %d questions, want 4", n)
	}
}
