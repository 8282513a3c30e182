package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/internal/testbook"
)

// hiddenScoresBook has a visible qa sheet and a very hidden scores sheet.
func hiddenScoresBook(t *testing.T) string {
	t.Helper()
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
	return path
}

// validate reads hidden sheets only with --read-hidden-sheets.
func TestValidateReadHiddenSheets(t *testing.T) {
	path := hiddenScoresBook(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", path, "--lang", "en"}, "1 questions, 0 scores"},
		{[]string{"validate", path, "--lang", "en", "--read-hidden-sheets"}, "1 questions, 1 scores"},
	} {
		code, out, errOut := run(t, c.args...)
		if code != ExitOK || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, output %q %q; want %q", c.args, code, out, errOut, c.want)
		}
	}
}
