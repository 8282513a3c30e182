package docparse

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"cubeworkbench/core/xlsxcell"
)

// maxCellChars is Excel's own limit on the text of a cell; anything longer
// was not written by Excel and is cut (and reported) when read.
const maxCellChars = 32767

// xlsx writes every sheet's rows as tab-separated lines, sheet by sheet,
// each sheet headed by its name so a chunk keeps the table's context. It
// streams every part itself rather than using excelize, which holds the
// whole shared-string table and every cell in memory (a 900 MiB shared
// string reaches 5.7 GB).
func xlsx(ctx context.Context, path string, lim Limits) (string, error) {
	zr, err := openZip(path) // tells an encrypted file from a damaged one
	if err != nil {
		return "", err
	}
	defer zr.Close()
	x := &xlsxReader{ctx: ctx, lim: lim, files: map[string]*zip.File{}, tc: &textCap{max: lim.TextBytes}}
	for _, f := range zr.File {
		x.files[f.Name] = f
	}
	if x.files["xl/workbook.xml"] == nil {
		return "", fmt.Errorf("no xl/workbook.xml: %w", ErrCorrupt)
	}
	for _, step := range []func() error{x.readWorkbook, x.readRels, x.readStyles, x.readStrings} {
		if err := step(); err != nil {
			return "", err
		}
	}
	for _, s := range x.sheets {
		if x.tc.full {
			break
		}
		if err := x.readSheet(s); err != nil {
			return "", err
		}
	}
	text := strings.TrimSuffix(x.tc.String(), "\n")
	if x.cut != nil {
		return text, x.cut
	}
	return text, cutError(false, x.tc.full, "", lim)
}

type sheetRef struct{ name, rid, part string }

type xlsxReader struct {
	ctx   context.Context
	lim   Limits
	files map[string]*zip.File
	tc    *textCap
	cut   error // the first cut, reported with the text

	sheets  []sheetRef
	formats xlsxcell.Formats // how each cell style shows numbers
	// Shared strings live in one buffer with their end offsets, so that
	// millions of tiny strings cost 4 bytes each, not a string header.
	sst     []byte
	sstEnds []uint32
	sstCut  bool // the table was cut at the part cap
}

func (x *xlsxReader) noteCut(err error) {
	if x.cut == nil {
		x.cut = err
	}
}

// walk streams the part name through fn, token by token; a missing part
// is not an error when optional. A cut part is reported and ends the walk.
func (x *xlsxReader) walk(name string, optional bool, fn func(xml.Token) error) error {
	_, err := x.walkCut(name, optional, fn)
	return err
}

// walkCut is walk that also tells whether the part was cut.
func (x *xlsxReader) walkCut(name string, optional bool, fn func(xml.Token) error) (cut bool, err error) {
	f := x.files[name]
	if f == nil {
		if optional {
			return false, nil
		}
		return false, fmt.Errorf("no %s: %w", name, ErrCorrupt)
	}
	p, err := openPart(f, x.lim)
	if err != nil {
		return false, err
	}
	defer p.Close()
	for n := 0; ; n++ {
		if n%4096 == 0 && x.ctx.Err() != nil {
			return false, x.ctx.Err()
		}
		tok, err := p.token()
		if err == io.EOF {
			return false, nil
		}
		if err == errPartCut {
			x.noteCut(cutError(true, false, name, x.lim))
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if err := fn(tok); err != nil {
			return false, err
		}
	}
}

func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

func (x *xlsxReader) readWorkbook() error {
	return x.walk("xl/workbook.xml", false, func(tok xml.Token) error {
		e, ok := tok.(xml.StartElement)
		if !ok {
			return nil
		}
		switch e.Name.Local {
		case "sheet":
			x.sheets = append(x.sheets, sheetRef{name: attr(e, "name"), rid: attr(e, "id")})
		case "workbookPr":
			v := attr(e, "date1904")
			x.formats.Date1904 = v == "1" || v == "true"
		}
		return nil
	})
}

func (x *xlsxReader) readRels() error {
	targets := map[string]string{}
	err := x.walk("xl/_rels/workbook.xml.rels", false, func(tok xml.Token) error {
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "Relationship" {
			t := attr(e, "Target")
			if strings.HasPrefix(t, "/") {
				t = strings.TrimPrefix(t, "/")
			} else {
				t = path.Join("xl", t)
			}
			targets[attr(e, "Id")] = t
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := range x.sheets {
		x.sheets[i].part = targets[x.sheets[i].rid]
	}
	return nil
}

// readStyles reads the number format of every cell style, for the cell
// reader to tell dates and percentages from plain numbers.
func (x *xlsxReader) readStyles() error {
	inXfs := false
	return x.walk("xl/styles.xml", true, func(tok xml.Token) error {
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "numFmt":
				id, _ := strconv.Atoi(attr(e, "numFmtId"))
				x.formats.NumFmt(id, attr(e, "formatCode"))
			case "cellXfs":
				inXfs = true
			case "xf":
				if inXfs {
					id, _ := strconv.Atoi(attr(e, "numFmtId"))
					x.formats.Style(id)
				}
			}
		case xml.EndElement:
			if e.Name.Local == "cellXfs" {
				inXfs = false
			}
		}
		return nil
	})
}

// readStrings reads the shared-string table. Phonetic runs (rPh) are not
// text. Each string is cut at Excel's cell limit and the table at the
// document's text limit, and the first cut is reported.
func (x *xlsxReader) readStrings() error {
	const name = "xl/sharedStrings.xml"
	var cur []byte
	in, inT, phonetic := false, false, 0
	tooLong := -1
	full := false
	add := func() {
		if c := cutRunes(cur, maxCellChars); len(c) < len(cur) {
			cur = c
			if tooLong < 0 {
				tooLong = len(x.sstEnds)
				x.noteCut(problem(ErrTruncated, "共享字符串 %d 超过 %d 个字符（Excel 单元格上限），已截断",
					"shared string %d is over %d characters (Excel's cell limit) and was cut", tooLong, maxCellChars))
			}
		}
		if !full && len(x.sst)+len(cur) > x.lim.TextBytes {
			full = true
			x.noteCut(problem(ErrTruncated, "%s 的文本超过 %s，其后的字符串读作空白",
				"the text of %s is over %s, later strings read as blank", name, byteSize(int64(x.lim.TextBytes))))
		}
		if !full {
			x.sst = append(x.sst, cur...)
		}
		x.sstEnds = append(x.sstEnds, uint32(len(x.sst)))
	}
	cut, err := x.walkCut(name, true, func(tok xml.Token) error {
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "si":
				in, cur = true, cur[:0]
			case "t":
				inT = in
			case "rPh":
				phonetic++
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "t":
				inT = false
			case "rPh":
				phonetic--
			case "si":
				in = false
				add()
			}
		case xml.CharData:
			// Keep one rune more than the limit so that a cut is seen.
			if inT && phonetic == 0 && len(cur) <= 4*maxCellChars+4 {
				cur = append(cur, e...)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if cut {
		if in {
			add() // the string the cut fell in, as far as it was read
		}
		// Strings after the cut were never read: cells that use them are
		// blank, and the cut is reported once, not as damage per cell.
		x.sstCut = true
	}
	return nil
}

// cutRunes returns b cut to at most n runes.
func cutRunes(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	for i := range string(b) {
		if n == 0 {
			return b[:i]
		}
		n--
	}
	return b
}

func (x *xlsxReader) sharedString(i int) (string, bool) {
	if i >= len(x.sstEnds) && x.sstCut {
		return "", true
	}
	if i < 0 || i >= len(x.sstEnds) {
		return "", false
	}
	start := uint32(0)
	if i > 0 {
		start = x.sstEnds[i-1]
	}
	return string(x.sst[start:x.sstEnds[i]]), true
}

// colIndex is the zero-based column of a cell reference such as "AB12".
func colIndex(ref string) int {
	c := 0
	for _, r := range ref {
		if r < 'A' || r > 'Z' {
			break
		}
		c = c*26 + int(r-'A'+1)
	}
	return c - 1
}

const maxColumns = 16384 // XFD, Excel's last column

func (x *xlsxReader) readSheet(s sheetRef) error {
	if s.part == "" || x.files[s.part] == nil {
		return fmt.Errorf("sheet %q: no part for relationship %q: %w", s.name, s.rid, ErrCorrupt)
	}
	x.tc.WriteString(s.name)
	x.tc.WriteByte('\n')
	type cell struct {
		col  int
		text string
	}
	var (
		row          []cell
		next         int // column of a cell without a reference
		ref, typ     string
		style        int
		val          []byte
		inV, inIS    bool
		inT, phon    int
		cellTooLong  bool
		reportedLong bool
	)
	err := x.walk(s.part, false, func(tok xml.Token) error {
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "row":
				row, next = row[:0], 0
			case "c":
				ref, typ, val, cellTooLong = attr(e, "r"), attr(e, "t"), val[:0], false
				style, _ = strconv.Atoi(attr(e, "s"))
			case "v":
				inV = true
			case "is":
				inIS = true
			case "t":
				if inIS {
					inT++
				}
			case "rPh":
				phon++
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "v":
				inV = false
			case "is":
				inIS = false
			case "t":
				if inT > 0 {
					inT--
				}
			case "rPh":
				phon--
			case "c":
				col := next
				if ref != "" {
					col = colIndex(ref)
				}
				if col < 0 || col >= maxColumns {
					return fmt.Errorf("sheet %q cell %q: %w (column outside A:XFD)", s.name, ref, ErrCorrupt)
				}
				next = col + 1
				text, err := x.cellText(typ, style, val)
				if err != nil {
					return fmt.Errorf("sheet %q cell %s: %w", s.name, ref, err)
				}
				if c := cutRunes([]byte(text), maxCellChars); len(c) < len(text) || cellTooLong {
					text = string(c)
					if !reportedLong {
						reportedLong = true
						x.noteCut(problem(ErrTruncated, "工作表 %q 单元格 %s 超过 %d 个字符（Excel 单元格上限），已截断",
							"sheet %q cell %s is over %d characters (Excel's cell limit) and was cut", s.name, ref, maxCellChars))
					}
				}
				if strings.TrimSpace(text) != "" {
					row = append(row, cell{col, text})
				}
			case "row":
				if len(row) == 0 {
					return nil
				}
				// Cells are written in column order; gaps become empty
				// columns as in the sheet, blanks at the end are dropped.
				at := 0
				for i, c := range row {
					if i > 0 {
						x.tc.WriteByte('\t')
						at++
					}
					for ; at < c.col; at++ {
						x.tc.WriteByte('\t')
					}
					x.tc.WriteString(c.text)
				}
				x.tc.WriteByte('\n')
				if x.tc.full {
					return errTextFull
				}
			}
		case xml.CharData:
			if (inV || inT > 0) && phon == 0 {
				if len(val) <= 4*maxCellChars+4 {
					val = append(val, e...)
				} else {
					cellTooLong = true
				}
			}
		}
		return nil
	})
	if err == errTextFull {
		return nil // reported by the caller as a text cut
	}
	return err
}

var errTextFull = errors.New("text limit reached")

// cellText is a cell's text as the one cell reader (core/xlsxcell) reads
// it for core/ingest too; a shared string is looked up and decoded here.
func (x *xlsxReader) cellText(typ string, style int, val []byte) (string, error) {
	v := string(val)
	if typ == "s" {
		i, err := strconv.Atoi(strings.TrimSpace(v))
		s, ok := x.sharedString(i)
		if err != nil || !ok {
			return "", fmt.Errorf("%w (shared string %q does not exist)", ErrCorrupt, v)
		}
		v = xlsxcell.Unescape(s)
	}
	return x.formats.Cell(typ, v, style), nil
}
