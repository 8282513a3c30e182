package docparse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// Doc is one parsed document.
type Doc struct {
	ID   string // path relative to the folder, with forward slashes
	Path string // path as opened
	Text string
}

// oleMagic starts every OLE compound file: legacy .doc/.xls/.ppt and also
// password-protected Office Open XML files, which Office wraps in OLE.
var oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// Text is Parse with DefaultLimits and no cancellation.
func Text(path string) (string, error) {
	return Parse(context.Background(), path, DefaultLimits)
}

// Parse returns the plain text of the file at path, chosen by its
// extension, within lim (zero fields take DefaultLimits). Errors name the
// file and wrap ErrUnsupported, ErrEncrypted, ErrCorrupt, ErrLimit or
// ErrTruncated, or are ctx's error. With ErrTruncated the text is returned
// too: it is the document up to the cut.
func Parse(ctx context.Context, path string, lim Limits) (string, error) {
	lim = lim.withDefaults()
	if err := ctx.Err(); err != nil {
		return "", err
	}
	var (
		text string
		err  error
	)
	if strings.ToLower(filepath.Ext(path)) == ".pdf" {
		// The PDF parser cannot be bounded from inside (see isolate.go).
		text, err = parseIsolated(ctx, path, lim)
	} else {
		text, err = parseHere(ctx, path, lim)
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ErrTruncated) {
			return "", ctxErr
		}
		return text, fmt.Errorf("docparse %s: %w", path, err)
	}
	return text, nil
}

// parseHere parses in this process. Every parser here reads through caps
// and checks ctx as it goes; pdfFile is only called in the child process.
func parseHere(ctx context.Context, path string, lim Limits) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".txt", ".md", ".markdown", ".csv":
		return plain(path, lim)
	case ".html", ".htm":
		return htmlFile(ctx, path, lim)
	case ".docx":
		return docx(ctx, path, lim)
	case ".pptx":
		return pptx(ctx, path, lim)
	case ".xlsx", ".xlsm":
		return xlsx(ctx, path, lim)
	case ".pdf":
		return pdfFile(path, lim)
	}
	return "", ErrUnsupported
}

// plain reads UTF-8 text, falling back to GB18030 (a superset of GBK and
// GB2312) because Chinese government files saved on Windows often use it.
func plain(path string, lim Limits) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	cr := &capReader{r: f, n: lim.PartBytes}
	b, err := io.ReadAll(cr)
	if err != nil {
		return "", err
	}
	text, err := decodeText(b)
	if err != nil {
		return "", err
	}
	tc := &textCap{max: lim.TextBytes}
	tc.WriteString(text)
	return tc.String(), cutError(cr.cut, tc.full, "", lim)
}

func decodeText(b []byte) (string, error) {
	b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
	if utf8.Valid(b) {
		return string(b), nil
	}
	out, err := simplifiedchinese.GB18030.NewDecoder().Bytes(b)
	if err != nil {
		return "", fmt.Errorf("neither UTF-8 nor GB18030: %w", ErrCorrupt)
	}
	return string(out), nil
}

// cutError reports which limit cut a document (part names the zip part, or
// "" for the file itself), or nil when none did.
func cutError(partCut, textCut bool, part string, lim Limits) error {
	where := part
	if where == "" {
		where = "file"
	}
	switch {
	case partCut:
		n := byteSize(lim.PartBytes)
		return problem(ErrTruncated, "%s 解压后超过 %s，只读取了前 %s", "%s is over %s uncompressed, only the first %s were read", where, n, n)
	case textCut:
		n := byteSize(int64(lim.TextBytes))
		return problem(ErrTruncated, "文本超过 %s，只保留了前 %s", "the text is over %s, only the first %s were kept", n, n)
	}
	return nil
}

// byteSize writes n in the largest binary unit that divides it.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// Folder parses every file under dir with DefaultLimits; see FolderLimits.
func Folder(ctx context.Context, dir string) ([]Doc, []error) {
	return FolderLimits(ctx, dir, DefaultLimits)
}

// FolderLimits parses every file under dir (recursively, in lexical order)
// and goes on past files it cannot read, returning their errors beside the
// documents it could. Files whose extension is not a document type at all
// (no parser) are reported too, so that a user sees what was skipped. A
// document cut at a limit is returned and its cut reported. When ctx ends
// it stops at once and returns ctx's error last.
func FolderLimits(ctx context.Context, dir string, lim Limits) ([]Doc, []error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "~$") {
			return nil // hidden files and Office lock files
		}
		paths = append(paths, p)
		return nil
	})
	var errs []error
	if err != nil && ctx.Err() == nil {
		errs = append(errs, fmt.Errorf("docparse: walk %s: %w", dir, err))
	}
	sort.Strings(paths)
	var docs []Doc
	for _, p := range paths {
		if ctx.Err() != nil {
			break
		}
		text, err := Parse(ctx, p, lim)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			errs = append(errs, err)
			if !errors.Is(err, ErrTruncated) {
				continue
			}
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil {
			rel = p
		}
		docs = append(docs, Doc{ID: filepath.ToSlash(rel), Path: p, Text: text})
	}
	if ctx.Err() != nil {
		errs = append(errs, ctx.Err())
	}
	return docs, errs
}
