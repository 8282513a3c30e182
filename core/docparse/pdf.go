package docparse

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/ledongthuc/pdf"
)

// pdfFile extracts the text layer of a PDF. A scanned PDF has none and
// yields ""; the caller decides whether an empty document is an error.
// The parser panics on some malformed input, so panics become ErrCorrupt.
func pdfFile(path string) (text string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	defer func() {
		if r := recover(); r != nil {
			text, err = "", fmt.Errorf("%w (%v)", ErrCorrupt, r)
		}
	}()
	rd, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		if errors.Is(err, pdf.ErrInvalidPassword) || strings.Contains(err.Error(), "encrypt") {
			return "", ErrEncrypted
		}
		return "", fmt.Errorf("%w (%v)", ErrCorrupt, err)
	}
	var sb strings.Builder
	for i := 1; i <= rd.NumPage(); i++ {
		p := rd.Page(i)
		if p.V.IsNull() {
			continue
		}
		// Fonts per page: two pages may give the same resource name (F1)
		// to different fonts, so a document-wide cache by name can garble text.
		fonts := map[string]*pdf.Font{}
		for _, name := range p.Fonts() {
			f := p.Font(name)
			fonts[name] = &f
		}
		t, err := p.GetPlainText(fonts)
		if err != nil {
			return "", fmt.Errorf("page %d: %w (%v)", i, ErrCorrupt, err)
		}
		sb.WriteString(t)
		sb.WriteByte('\n')
	}
	return tidyLines(sb.String()), nil
}
