package docparse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// Sentinel errors; each message is bilingual because it reaches the user.
var (
	ErrUnsupported = errors.New("unsupported document format / 不支持的文档格式")
	ErrEncrypted   = errors.New("document is encrypted or password-protected / 文档已加密或受密码保护")
	ErrCorrupt     = errors.New("document is damaged or not in the format its extension says / 文档已损坏或与扩展名不符")
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

// Text returns the plain text of the file at path, chosen by its extension.
// Errors name the file and wrap ErrUnsupported, ErrEncrypted or ErrCorrupt
// where one of them applies.
func Text(path string) (string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	var (
		text string
		err  error
	)
	switch ext {
	case ".txt", ".md", ".markdown", ".csv":
		text, err = plain(path)
	case ".html", ".htm":
		text, err = htmlFile(path)
	case ".docx":
		text, err = docx(path)
	case ".pptx":
		text, err = pptx(path)
	case ".xlsx", ".xlsm":
		text, err = xlsx(path)
	case ".pdf":
		text, err = pdfFile(path)
	default:
		err = ErrUnsupported
	}
	if err != nil {
		return "", fmt.Errorf("docparse %s: %w", path, err)
	}
	return text, nil
}

// plain reads UTF-8 text, falling back to GB18030 (a superset of GBK and
// GB2312) because Chinese government files saved on Windows often use it.
func plain(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return decodeText(b)
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

// Folder parses every file under dir (recursively, in lexical order) and
// goes on past files it cannot read, returning their errors beside the
// documents it could. Files whose extension is not a document type at all
// (no parser) are reported too, so that a user sees what was skipped.
func Folder(ctx context.Context, dir string) ([]Doc, []error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
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
	if err != nil {
		errs = append(errs, fmt.Errorf("docparse: walk %s: %w", dir, err))
	}
	sort.Strings(paths)
	var docs []Doc
	for _, p := range paths {
		if ctx.Err() != nil {
			errs = append(errs, ctx.Err())
			break
		}
		text, err := Text(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil {
			rel = p
		}
		docs = append(docs, Doc{ID: filepath.ToSlash(rel), Path: p, Text: text})
	}
	return docs, errs
}
