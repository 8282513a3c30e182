package docparse

import (
	"archive/zip"
	"bytes"
	"context"
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

// part is one zip entry being streamed: at most lim.PartBytes of it are
// decompressed, never the whole entry at once (a 1 MiB docx can hold 1 GiB
// of XML).
type part struct {
	name string
	rc   io.ReadCloser
	cr   *capReader
	dec  *xml.Decoder
}

func openPart(f *zip.File, lim Limits) (*part, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w (%v)", f.Name, ErrCorrupt, err)
	}
	cr := &capReader{r: rc, n: lim.PartBytes}
	return &part{name: f.Name, rc: rc, cr: cr, dec: xml.NewDecoder(cr)}, nil
}

func (p *part) Close() error { return p.rc.Close() }

// token returns the next XML token, io.EOF at the end of the part, and
// errPartCut when the part was cut at the cap (a decoder error caused by the
// cut is not damage). A DOCTYPE is refused: OOXML never has one, and
// encoding/xml would otherwise pass unknown entities through.
func (p *part) token() (xml.Token, error) {
	tok, err := p.dec.Token()
	if err != nil {
		if p.cr.cut {
			return nil, errPartCut
		}
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("%s: %w (%v)", p.name, ErrCorrupt, err)
	}
	if d, ok := tok.(xml.Directive); ok && bytes.HasPrefix(bytes.TrimSpace(d), []byte("DOCTYPE")) {
		return nil, fmt.Errorf("%s: %w (DOCTYPE in an OOXML part)", p.name, ErrCorrupt)
	}
	return tok, nil
}

var errPartCut = errors.New("part cut at the cap")

// ooxmlText streams the text runs of a WordprocessingML or DrawingML part
// into tc: textTag elements hold text, paraTag ends a paragraph (a newline),
// tabs and breaks become whitespace. Namespaces are matched by local name
// because producers use different prefixes. It returns cut=true when the part
// was cut at the cap, and stops early once tc is full.
func ooxmlText(ctx context.Context, p *part, tc *textCap, textTag, paraTag string) (cut bool, err error) {
	inText := false
	for n := 0; !tc.full; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return false, ctx.Err()
		}
		tok, err := p.token()
		if err == io.EOF {
			return false, nil
		}
		if err == errPartCut {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case textTag:
				inText = true
			case "tab":
				tc.WriteByte('\t')
			case "br", "cr":
				tc.WriteByte('\n')
			}
		case xml.EndElement:
			switch t.Name.Local {
			case textTag:
				inText = false
			case paraTag:
				tc.WriteByte('\n')
			}
		case xml.CharData:
			if inText {
				tc.Write(t)
			}
		}
	}
	return false, nil
}

func docx(ctx context.Context, path string, lim Limits) (string, error) {
	zr, err := openZip(path)
	if err != nil {
		return "", err
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name != "word/document.xml" {
			continue
		}
		p, err := openPart(f, lim)
		if err != nil {
			return "", err
		}
		defer p.Close()
		tc := &textCap{max: lim.TextBytes}
		cut, err := ooxmlText(ctx, p, tc, "t", "p")
		if err != nil {
			return "", err
		}
		return tidyLines(tc.String()), cutError(cut, tc.full, f.Name, lim)
	}
	return "", fmt.Errorf("no word/document.xml: %w", ErrCorrupt)
}

var slideName = regexp.MustCompile(`^ppt/slides/slide(\d+)\.xml$`)

// pptx reads the slides in their number order (slide10 after slide9), which
// is the order of the file names, not of the zip entries.
func pptx(ctx context.Context, path string, lim Limits) (string, error) {
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
	tc := &textCap{max: lim.TextBytes}
	var cutPart string
	for _, s := range slides {
		p, err := openPart(s.f, lim)
		if err != nil {
			return "", err
		}
		// Slides are paragraphs apart, as tidyLines drops the empty ones.
		cut, err := ooxmlText(ctx, p, tc, "t", "p")
		p.Close()
		if err != nil {
			return "", err
		}
		tc.WriteByte('\n')
		if cut && cutPart == "" {
			cutPart = s.f.Name
		}
		if tc.full {
			break
		}
	}
	return tidyLines(tc.String()), cutError(cutPart != "", tc.full, cutPart, lim)
}

// tidyLines trims every line and drops empty ones.
func tidyLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
