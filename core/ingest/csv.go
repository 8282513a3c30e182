package ingest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// table is one sheet or CSV file, read as a stream of non-empty rows.
type table struct {
	file, sheet string
	rows        func(ctx context.Context, fn rowFunc) error
	// full, when set, reads like rows and also reports the sheet's notes
	// (merged ranges filled, rows missing against its dimension).
	full func(ctx context.Context, fn rowFunc, notes func(sheetNote)) error
}

// Text encodings a CSV file may come in.
const (
	encUTF8 = iota
	encGB18030
	encUTF16
)

func isCSV(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".csv" || ext == ".tsv" || ext == ".txt"
}

// csvTable prepares a CSV file: it checks the size limit and what the file
// really is, decides the encoding from the whole file's bytes, then streams
// on demand.
func csvTable(path string, opt Options) (*table, *Problem, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("ingest: %w", err)
	}
	if st.Size() > opt.MaxCSVBytes {
		return nil, tooLarge(path, st.Size(), opt.MaxCSVBytes), nil
	}
	if p, err := notText(path); err != nil || p != nil {
		return nil, p, err
	}
	ev, err := scanEncoding(path)
	if err != nil {
		return nil, nil, fmt.Errorf("ingest: %w", err)
	}
	enc, p := ev.decide(path)
	if p != nil {
		return nil, p, nil
	}
	t := &table{file: path}
	t.rows = func(ctx context.Context, fn rowFunc) error {
		return csvRows(ctx, path, enc, fn)
	}
	return t, nil, nil
}

// encodingEvidence counts, over a whole file, the multi-byte sequences that
// are valid UTF-8 and the bytes that are not.
type encodingEvidence struct {
	utf16         bool
	valid, broken int
	gbk           gbkScan // the same bytes read as GB18030
}

// gbkScan checks bytes as GB18030: whether every multi-byte sequence is
// well formed, and how many characters are common Chinese (GB2312's
// punctuation and first-level hanzi), which real GBK text almost only holds
// and UTF-8 text misread as GBK almost never does (its lead bytes E4–E9
// fall in the rare second level).
type gbkScan struct {
	state         int  // 0 start, 1 after a lead byte, 2 and 3 inside a 4-byte sequence
	lead          byte // the lead byte of a 2-byte sequence
	chars, common int
	bad           int
}

func (g *gbkScan) add(b byte) {
	switch g.state {
	case 0:
		switch {
		case b < 0x80:
		case b == 0x80 || b == 0xff:
			g.bad++
		default:
			g.state, g.lead = 1, b
		}
	case 1:
		switch {
		case b >= 0x30 && b <= 0x39:
			g.state = 2
		case b >= 0x40 && b <= 0xfe && b != 0x7f:
			g.state = 0
			g.chars++
			if b >= 0xa1 && (g.lead >= 0xa1 && g.lead <= 0xa9 || g.lead >= 0xb0 && g.lead <= 0xd7) {
				g.common++
			}
		default:
			g.state = 0
			g.bad++
		}
	case 2:
		if b >= 0x81 && b <= 0xfe {
			g.state = 3
		} else {
			g.state, g.bad = 0, g.bad+1
		}
	case 3:
		g.state = 0
		if b >= 0x30 && b <= 0x39 {
			g.chars++
		} else {
			g.bad++
		}
	}
}

// plausible says the file reads cleanly as GB18030 and its characters are
// mostly common Chinese (at least 4 in 5).
func (g gbkScan) plausible() bool {
	return g.bad == 0 && g.state == 0 && g.chars > 0 && 5*g.common >= 4*g.chars
}

// decide picks the encoding a file is read in: valid UTF-8 is UTF-8; a file
// that is invalid as UTF-8 but valid and plausible as GB18030 (well-formed
// sequences, mostly common Chinese characters) is GB18030 — Chinese Excel's
// "CSV (comma delimited)" — whatever its size. Counting UTF-8-valid
// sequences alone refused short GBK files, where accidental UTF-8
// sequences can be nearly half (95 valid to 110 invalid in an officer's
// two-file workbook). Otherwise a few bad bytes among many valid sequences
// are damage in a UTF-8 file (reported where they are), mostly-invalid is
// GB18030 (its bad bytes reported by the decoder), and anything in between
// is an error: guessing would turn one half of the file into nonsense.
func (e encodingEvidence) decide(path string) (int, *Problem) {
	switch {
	case e.utf16:
		return encUTF16, nil
	case e.broken == 0:
		return encUTF8, nil
	case e.gbk.plausible():
		// Valid and plausible as GB18030 while invalid as UTF-8: a file
		// saved by Chinese Excel, however few its characters (a short GBK
		// text may hold as many accidental UTF-8 sequences as not).
		return encGB18030, nil
	case e.valid >= 4*e.broken:
		return encUTF8, nil
	case e.broken >= 2*e.valid:
		return encGB18030, nil
	}
	return 0, &Problem{File: path, Code: CodeBadEncoding, Severity: SeverityError,
		EN: fmt.Sprintf("the file mixes text encodings (%d characters are UTF-8, %d bytes are not); save it again as \"CSV UTF-8\" and retry.", e.valid, e.broken),
		ZH: fmt.Sprintf("文件混用了多种文本编码（%d 个字符为 UTF-8，%d 个字节不是）；请重新另存为“CSV UTF-8”后重试。", e.valid, e.broken)}
}

// scanEncoding reads the whole file once (so Chinese after a long ASCII
// prefix still counts) and gathers the evidence for decide.
func scanEncoding(path string) (encodingEvidence, error) {
	var ev encodingEvidence
	fh, err := os.Open(path)
	if err != nil {
		return ev, err
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 1<<16)
	if bom, _ := br.Peek(2); len(bom) == 2 && (bom[0] == 0xff && bom[1] == 0xfe || bom[0] == 0xfe && bom[1] == 0xff) {
		ev.utf16 = true
		return ev, nil
	}
	buf := make([]byte, 1<<16)
	carry := 0
	for {
		n, err := br.Read(buf[carry:])
		for _, b := range buf[carry : carry+n] {
			ev.gbk.add(b)
		}
		data := buf[:carry+n]
		end := len(data)
		if err == nil {
			end -= utf8.UTFMax // an incomplete rune at the end waits for the next read
		}
		i := 0
		for i < end {
			if data[i] < utf8.RuneSelf {
				i++
				continue
			}
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				ev.broken++
			} else {
				ev.valid++
			}
			i += size
		}
		carry = copy(buf, data[i:])
		if err == io.EOF {
			return ev, nil
		}
		if err != nil {
			return ev, err
		}
	}
}

// csvRows streams the records of a CSV file; row is the 1-based record
// number, as the row number Excel shows when it opens the file.
func csvRows(ctx context.Context, path string, enc int, fn rowFunc) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	var r io.Reader = fh
	switch enc {
	case encGB18030:
		r = transform.NewReader(fh, simplifiedchinese.GB18030.NewDecoder())
	case encUTF16:
		r = transform.NewReader(fh, unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder())
	}
	br := bufio.NewReaderSize(r, 1<<16)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte{0xef, 0xbb, 0xbf}) {
		br.Discard(3)
	}
	cr := newCSVReader(br, sniffDelimiter(br), enc)
	for {
		rec, issues, err := cr.read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if cr.row&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if blank(rec) && len(issues) == 0 {
			continue
		}
		if err := fn(cr.row, rec, issues); err != nil {
			return err
		}
	}
}

// sniffDelimiter picks tab when the first line has tabs and no commas.
func sniffDelimiter(br *bufio.Reader) byte {
	head, _ := br.Peek(br.Size())
	if i := bytes.IndexAny(head, "\r\n"); i >= 0 {
		head = head[:i]
	}
	if bytes.IndexByte(head, '\t') >= 0 && bytes.IndexByte(head, ',') < 0 {
		return '\t'
	}
	return ','
}
