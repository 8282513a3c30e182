package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"cubeworkbench/core/kbexport"
)

// TestExportFolder: exports go to Documents/CuBE/<workbook> unless the
// officer picks the workbook's folder or one of their own; the choice is
// remembered by the next window; the result is one line; 打开文件夹
// reports a folder that does not exist and an opener that fails.
func TestExportFolder(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DOCUMENTS_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config")) // no user-dirs.dirs of the machine's
	if err := os.MkdirAll(filepath.Join(home, "Documents"), 0o755); err != nil {
		t.Fatal(err)
	}
	w, loop := newTestWindow(t, "zh", nil)
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil })
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if want := filepath.Join(home, "Documents", "CuBE", name); w.export.dir.Text != want {
		t.Errorf("default folder %q, want %q", w.export.dir.Text, want)
	}

	var opened []string
	w.export.openDir = func(dir string) error { opened = append(opened, dir); return errors.New("no file manager") }
	test.Tap(w.export.show)
	if !strings.Contains(w.export.status.Text, w.export.dir.Text) || len(opened) != 0 {
		t.Errorf("a folder not yet written: %q (opened %v)", w.export.status.Text, opened)
	}

	w.export.where.SetSelected(tr("export.beside_workbook"))
	if want := filepath.Join(filepath.Dir(path), name+"-"+tr("export.suffix")); w.export.dir.Text != want {
		t.Errorf("beside the workbook %q, want %q", w.export.dir.Text, want)
	}
	mine := filepath.Join(t.TempDir(), "我的导出")
	w.export.chosen(mine)

	test.Tap(w.eval.start)
	loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running })
	test.Tap(w.export.all)
	loop.runUntil(t, 5*time.Minute, "the export", func() bool { return !w.export.busy })
	if _, err := os.Stat(filepath.Join(mine, "report.xlsx")); err != nil {
		t.Fatalf("no report in the chosen folder: %v (%q)", err, w.export.status.Text)
	}
	if got := w.export.status.Text; strings.Contains(got, "\n") || !strings.Contains(got, mine) {
		t.Errorf("export result %q, want one line naming %s", got, mine)
	}
	test.Tap(w.export.show)
	loop.runUntil(t, time.Minute, "the opener", func() bool { return len(opened) == 1 && strings.Contains(w.export.status.Text, "no file manager") })

	// The next window remembers the chosen folder.
	w2 := New(w.app)
	w2.do = loop.do
	w2.setSession(path, w.sess, nil, false)
	if w2.export.dir.Text != mine {
		t.Errorf("next window's folder %q, want the chosen %q", w2.export.dir.Text, mine)
	}
}

// TestKBExportButton: the export tab writes one document per guide and the
// manifest, as `cubectl kb export` does, and says so in one message.
func TestKBExportButton(t *testing.T) {
	w, loop := newTestWindow(t, "en", nil)
	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil })
	dir := t.TempDir()
	w.export.dir.SetText(dir)
	if w.export.kb.Disabled() {
		t.Fatal("the kb export needs a workbook, not a result")
	}
	test.Tap(w.export.kb)
	loop.runUntil(t, time.Minute, "the kb export", func() bool { return !w.export.busy })
	out := filepath.Join(dir, tr("export.kb_folder"))
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatalf("%v (%q)", err, w.export.status.Text)
	}
	if _, err := os.Stat(filepath.Join(out, kbexport.ManifestName)); err != nil {
		t.Errorf("no manifest: %v", err)
	}
	if n := len(w.workbook().Guides); len(entries) != n+1 {
		t.Errorf("%d files for %d guides (+ manifest)", len(entries), n)
	}
	if !strings.Contains(w.export.status.Text, out) {
		t.Errorf("status %q does not name %s", w.export.status.Text, out)
	}
}
