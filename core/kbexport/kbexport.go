// Package kbexport writes a workbook's guides as one document per guide,
// ready to upload to a RAGFlow or Dify knowledge base. Each file is named
// after its guide id, so the document names the system reports back match
// the guides exactly (docmatch resolves "YC-0001.txt" to the guide YC-0001);
// ids that cannot be file names are renamed and listed in the manifest,
// whose target_doc column can be pasted into the guides sheet.
package kbexport

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/text"
)

// ManifestName is the file listing guide id → file name, written beside the documents.
const ManifestName = "manifest.csv"

// Ext is the documents' extension: plain UTF-8 text, parsed as-is by
// RAGFlow's naive/general chunker and by Dify.
const Ext = ".txt"

// maxNameBytes keeps names under the 255-byte limit of common file systems.
const maxNameBytes = 200

// Entry is one exported guide.
type Entry struct {
	GuideID string
	Title   string
	File    string // base name in the output folder
	Renamed bool   // File is not GuideID+Ext: the id had characters a file name cannot hold, was too long or collided
}

// Result lists what was written.
type Result struct {
	Dir     string
	Entries []Entry
	Renamed int
	Empty   int // guides without text, written with their title only
}

// ErrExists marks an output folder that already holds a file we would write.
var ErrExists = text.NewError(text.New("文件已存在", "kbexport: file exists"), nil)

// Write writes one document per guide into dir (created if missing) and the
// manifest. It refuses to overwrite an existing file: an earlier export
// may already be uploaded under those names.
func Write(guides []dataset.Guide, dir string) (*Result, error) {
	if len(guides) == 0 {
		return nil, text.NewError(text.New("评估工作簿中没有办事指南", "kbexport: the workbook has no service guides"), nil)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("kbexport: %w", err)
	}
	res := &Result{Dir: dir}
	taken := map[string]bool{strings.ToLower(ManifestName): true}
	for _, g := range guides {
		name, renamed := fileName(g.ID, taken)
		taken[strings.ToLower(name)] = true
		res.Entries = append(res.Entries, Entry{GuideID: g.ID, Title: g.Title, File: name, Renamed: renamed})
		if renamed {
			res.Renamed++
		}
	}
	paths := append([]string{ManifestName}, func() []string {
		var out []string
		for _, e := range res.Entries {
			out = append(out, e.File)
		}
		return out
	}()...)
	for _, p := range paths {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			path := filepath.Join(dir, p)
			return nil, text.NewError(text.New(
				fmt.Sprintf("%s：%s（请导出到空文件夹）", ErrExists.ZH, path),
				fmt.Sprintf("%s: %s (export into an empty folder)", ErrExists.EN, path)), ErrExists)
		}
	}
	for i, g := range guides {
		body := g.Text
		if strings.TrimSpace(body) == "" {
			body = g.Title
			res.Empty++
		}
		if !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		if err := os.WriteFile(filepath.Join(dir, res.Entries[i].File), []byte(body), 0o644); err != nil {
			return nil, fmt.Errorf("kbexport: %w", err)
		}
	}
	if err := writeManifest(filepath.Join(dir, ManifestName), res.Entries); err != nil {
		return nil, err
	}
	return res, nil
}

// fileName is the guide id made a safe, unique file name. Case-insensitive
// uniqueness: Windows and macOS folders, and people, confuse A and a.
func fileName(id string, taken map[string]bool) (string, bool) {
	base := strings.Map(func(r rune) rune {
		switch {
		case r < 0x20 || r == 0x7f:
			return '_'
		case strings.ContainsRune(`/\:*?"<>|`, r):
			return '_'
		}
		return r
	}, strings.TrimSpace(id))
	base = strings.Trim(base, ". ")
	if base == "" {
		base = "guide"
	}
	if len(base) > maxNameBytes {
		cut := maxNameBytes
		for cut > 0 && !utf8.RuneStart(base[cut]) {
			cut--
		}
		base = base[:cut]
	}
	name := base + Ext
	for n := 2; taken[strings.ToLower(name)]; n++ {
		name = fmt.Sprintf("%s-%d%s", base, n, Ext)
	}
	return name, name != id+Ext
}

func writeManifest(path string, entries []Entry) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("kbexport: %w", err)
	}
	w := csv.NewWriter(f)
	_ = w.Write([]string{"doc_id", "title", "target_doc"})
	for _, e := range entries {
		_ = w.Write([]string{e.GuideID, e.Title, e.File})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return fmt.Errorf("kbexport: %w", err)
	}
	return f.Close()
}
