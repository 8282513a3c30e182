package docparse

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// openZip opens an Office Open XML package, telling an encrypted file (which
// Office stores as an OLE compound file, not a zip) from a damaged one.
func openZip(path string) (*zip.ReadCloser, error) {
	zr, err := zip.OpenReader(path)
	if err == nil {
		return zr, nil
	}
	var perr *os.PathError
	if errors.As(err, &perr) {
		return nil, err
	}
	head := make([]byte, len(oleMagic))
	if f, ferr := os.Open(path); ferr == nil {
		_, _ = io.ReadFull(f, head)
		f.Close()
	}
	if bytes.Equal(head, oleMagic) {
		return nil, ErrEncrypted
	}
	return nil, fmt.Errorf("%w (%v)", ErrCorrupt, err)
}

func readZipFile(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w (%v)", f.Name, ErrCorrupt, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (%v)", f.Name, ErrCorrupt, err)
	}
	return b, nil
}

// ooxmlText collects the text runs of a WordprocessingML or DrawingML part:
// textTag elements hold text, paraTag ends a paragraph (a newline), tabs and
// breaks become whitespace. Namespaces are matched by local name because
// producers use different prefixes.
func ooxmlText(b []byte, textTag, paraTag string) (string, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	var sb strings.Builder
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("%w (%v)", ErrCorrupt, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case textTag:
				inText = true
			case "tab":
				sb.WriteByte('\t')
			case "br", "cr":
				sb.WriteByte('\n')
			}
		case xml.EndElement:
			switch t.Name.Local {
			case textTag:
				inText = false
			case paraTag:
				sb.WriteByte('\n')
			}
		case xml.CharData:
			if inText {
				sb.Write(t)
			}
		}
	}
	return tidyLines(sb.String()), nil
}

func docx(path string) (string, error) {
	zr, err := openZip(path)
	if err != nil {
		return "", err
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			b, err := readZipFile(f)
			if err != nil {
				return "", err
			}
			return ooxmlText(b, "t", "p")
		}
	}
	return "", fmt.Errorf("no word/document.xml: %w", ErrCorrupt)
}

var slideName = regexp.MustCompile(`^ppt/slides/slide(\d+)\.xml$`)

// pptx reads the slides in their number order (slide10 after slide9), which
// is the order of the file names, not of the zip entries.
func pptx(path string) (string, error) {
	zr, err := openZip(path)
	if err != nil {
		return "", err
	}
	defer zr.Close()
	type slide struct {
		n int
		f *zip.File
	}
	var slides []slide
	for _, f := range zr.File {
		if m := slideName.FindStringSubmatch(f.Name); m != nil {
			n, _ := strconv.Atoi(m[1])
			slides = append(slides, slide{n, f})
		}
	}
	if len(slides) == 0 {
		return "", fmt.Errorf("no ppt/slides/slideN.xml: %w", ErrCorrupt)
	}
	sort.Slice(slides, func(i, j int) bool { return slides[i].n < slides[j].n })
	var parts []string
	for _, s := range slides {
		b, err := readZipFile(s.f)
		if err != nil {
			return "", err
		}
		text, err := ooxmlText(b, "t", "p")
		if err != nil {
			return "", fmt.Errorf("%s: %w", s.f.Name, err)
		}
		if text != "" {
			parts = append(parts, text)
		}
	}
	return strings.Join(parts, "\n"), nil
}
