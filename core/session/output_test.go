package session

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"cubeworkbench/internal/testbook"
)

// fullDisk lets n bytes through, then fails as a full disk does.
type fullDisk struct {
	w io.Writer
	n int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) <= d.n {
		d.n -= len(p)
		return d.w.Write(p)
	}
	k, _ := d.w.Write(p[:d.n])
	d.n = 0
	return k, syscall.ENOSPC
}

// A write that fails part way (a full disk) leaves the previous file
// whole and no temporary file behind; a write that succeeds replaces it.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, SummaryFile)
	old := []byte(`{"previous": "valid"}` + "\n")
	cases := []struct {
		name    string
		hook    func(io.Writer) io.Writer
		wantErr bool
		want    string
	}{
		{"disk fills after 10 bytes", func(w io.Writer) io.Writer { return &fullDisk{w: w, n: 10} }, true, string(old)},
		{"disk full at once", func(w io.Writer) io.Writer { return &fullDisk{w: w} }, true, string(old)},
		{"room enough", nil, false, `{"new": "also valid", "longer": true}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(path, old, 0o644); err != nil {
				t.Fatal(err)
			}
			if c.hook != nil {
				saved := writeHook
				writeHook = c.hook
				defer func() { writeHook = saved }()
			}
			err := WriteFileAtomic(path, []byte(`{"new": "also valid", "longer": true}`), 0o644)
			if (err != nil) != c.wantErr || c.wantErr && !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			got, err := os.ReadFile(path)
			if err != nil || string(got) != c.want {
				t.Errorf("file holds %q (%v), want %q", got, err, c.want)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".tmp") {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
		})
	}
}

// CheckOutputs names every output that cannot be written and passes the
// ones that can (a missing folder is created, as writing would).
func TestCheckOutputs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		out Output
		ok  bool
	}{
		{File(filepath.Join(dir, "new", "report.xlsx")), true},
		{Folder(filepath.Join(dir, "charts")), true},
		{File(""), true},
		{File(filepath.Join(file, "report.xlsx")), false},
		{File(dir), false},
		{Folder(file), false},
	}
	for _, c := range cases {
		err := CheckOutputs(c.out)
		if (err == nil) != c.ok || err != nil && (!strings.Contains(err.Error(), c.out.Path) || !strings.Contains(err.Error(), "无法写入")) {
			t.Errorf("CheckOutputs(%+v) = %v, want ok %v", c.out, err, c.ok)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "new"))
	if len(entries) != 0 {
		t.Errorf("the check left %v", entries)
	}
}

// Export checks every output before it writes the first: a charts "folder"
// that is a file stops it with nothing written.
func TestExportChecksFirst(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, testbook.Sample(t, t.TempDir()), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Evaluate(ctx, lexicalProfile(), EvalOptions{Offline: true}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ChartsDir), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	written, err := s.Export(ctx, dir, "en", ExportJSON, ExportCharts)
	if err == nil || !strings.Contains(err.Error(), ChartsDir) || len(written) != 0 {
		t.Fatalf("Export = %v, %v", written, err)
	}
	if _, err := os.Stat(filepath.Join(dir, SummaryFile)); !os.IsNotExist(err) {
		t.Errorf("SUMMARY.json was written before the charts folder was found unusable (%v)", err)
	}
}
