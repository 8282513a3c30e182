package ingest

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// MaxCellChars is Excel's limit on the characters of one cell. Longer
// cells are cut at read time (and reported), so a hostile file cannot make
// one guide or question cost gigabytes downstream.
const MaxCellChars = 32767

// maxCellBytes bounds the UTF-8 bytes of a cell before its characters are
// counted: four bytes per character at most.
const maxCellBytes = 4 * MaxCellChars

// csvReader parses RFC 4180 CSV as Excel writes it, strictly where
// leniency loses data: a quoted field must end with a quote followed by the
// delimiter or a line end, so an unbalanced quote is reported where it
// starts instead of swallowing the rows after it. A bare quote inside an
// unquoted field is kept as text, as hand-made files have them. Lines end
// with LF, CRLF or a bare CR (old Mac Excel).
type csvReader struct {
	br    *bufio.Reader
	comma byte
	enc   int
	row   int // records read so far: the 1-based number of the last one
	field []byte
	rec   []string
}

func newCSVReader(br *bufio.Reader, comma byte, enc int) *csvReader {
	return &csvReader{br: br, comma: comma, enc: enc}
}

// read returns the next record and the issues of its cells; io.EOF at the
// end, a *readError for a quoting error.
func (r *csvReader) read() ([]string, []cellIssue, error) {
	var issues []cellIssue
	r.rec = r.rec[:0]
	c, err := r.br.ReadByte()
	if err == io.EOF {
		return nil, nil, io.EOF
	}
	if err != nil {
		return nil, nil, err
	}
	r.row++
	for {
		r.field = r.field[:0]
		over := false
		add := func(b byte) {
			if len(r.field) < maxCellBytes+utf8.UTFMax {
				r.field = append(r.field, b)
			} else {
				over = true
			}
		}
		endRecord := false
		if c == '"' {
			startRow, col := r.row, len(r.rec)
			for {
				c, err = r.br.ReadByte()
				if err == io.EOF {
					return nil, nil, &readError{row: startRow, col: col, code: CodeBadQuote,
						en: "a quoted cell starts here and its closing quote is missing, so it would swallow every row after it; close the quote (a quote inside a cell is written as two quotes).",
						zh: "此处的单元格以引号开头但缺少结束引号，会吞掉其后所有行；请补上结束引号（单元格内的引号应写作两个引号）。"}
				}
				if err != nil {
					return nil, nil, err
				}
				if c == '"' {
					n, err := r.br.ReadByte()
					switch {
					case err == io.EOF:
						endRecord = true
					case err != nil:
						return nil, nil, err
					case n == '"':
						add('"')
						continue
					case n == r.comma:
					case n == '\n':
						endRecord = true
					case n == '\r':
						r.skipLF()
						endRecord = true
					default:
						return nil, nil, &readError{row: startRow, col: col, code: CodeBadQuote,
							en: fmt.Sprintf("the quoted cell that starts here has a quote followed by %q (at record %d) that is neither doubled nor the end of the cell; quotes inside a cell must be written as two quotes.", rune(n), r.row),
							zh: fmt.Sprintf("此处开始的带引号单元格中有一个引号后跟 %q（第 %d 条记录），既不是成对引号也不是单元格结尾；单元格内的引号须写作两个引号。", rune(n), r.row)}
					}
					break
				}
				if c == '\r' {
					r.skipLF()
					c = '\n'
				}
				add(c)
			}
		} else {
			for {
				if c == r.comma {
					break
				}
				if c == '\n' {
					endRecord = true
					break
				}
				if c == '\r' {
					r.skipLF()
					endRecord = true
					break
				}
				add(c)
				c, err = r.br.ReadByte()
				if err == io.EOF {
					endRecord = true
					break
				}
				if err != nil {
					return nil, nil, err
				}
			}
		}
		r.rec = append(r.rec, r.cellValue(over, &issues))
		if endRecord {
			return r.rec, issues, nil
		}
		c, err = r.br.ReadByte()
		if err == io.EOF { // a trailing delimiter: one more empty cell
			r.rec = append(r.rec, "")
			return r.rec, issues, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if c == '\n' || c == '\r' {
			if c == '\r' {
				r.skipLF()
			}
			r.rec = append(r.rec, "")
			return r.rec, issues, nil
		}
	}
}

func (r *csvReader) skipLF() {
	if b, err := r.br.Peek(1); err == nil && b[0] == '\n' {
		r.br.Discard(1)
	}
}

// cellValue turns the field's bytes into a cell, reporting bytes that are
// not text and cutting it at MaxCellChars.
func (r *csvReader) cellValue(over bool, issues *[]cellIssue) string {
	col := len(r.rec)
	b := r.field
	if !utf8.Valid(b) || (r.enc != encUTF8 && strings.ContainsRune(string(b), utf8.RuneError)) {
		pos, bad := badBytePos(b, r.enc)
		enc := "UTF-8"
		if r.enc == encGB18030 {
			enc = "GB18030"
		}
		*issues = append(*issues, cellIssue{col: col, code: CodeBadEncoding, severity: SeverityError,
			en: fmt.Sprintf("character %d of the cell is %s, which is not %s text like the rest of the file; retype the cell or save the file again as \"CSV UTF-8\".", pos, bad, enc),
			zh: fmt.Sprintf("该单元格第 %d 个字符处为 %s，不是与文件其余部分一致的 %s 文本；请重新输入该单元格，或将文件另存为“CSV UTF-8”。", pos, bad, enc)})
		b = []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
	}
	s := string(b)
	if over || utf8.RuneCountInString(s) > MaxCellChars {
		s = cutChars(s, MaxCellChars)
		*issues = append(*issues, tooLongIssue(col, ""))
	}
	return s
}

// badBytePos names the first undecodable spot of a cell: its 1-based
// character position and the byte (or the replacement the decoder made).
func badBytePos(b []byte, enc int) (int, string) {
	pos := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		pos++
		if r == utf8.RuneError {
			if size == 1 && enc == encUTF8 {
				return pos, fmt.Sprintf("the byte 0x%02X", b[i])
			}
			return pos, "an undecodable byte sequence"
		}
		i += size
	}
	return pos, "an undecodable byte sequence"
}

// cutChars keeps the first n characters of s.
func cutChars(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// tooLongIssue reports a cell cut at MaxCellChars; ref names the cell (B7)
// when known.
func tooLongIssue(col int, ref string) cellIssue {
	where, whereZH := "the cell", "该单元格"
	if ref != "" {
		where, whereZH = "cell "+ref, "单元格 "+ref+" "
	}
	return cellIssue{col: col, code: CodeCellTooLong, severity: SeverityWarning,
		en: fmt.Sprintf("%s holds more than %d characters, Excel's limit for a cell; only the first %d are read.", where, MaxCellChars, MaxCellChars),
		zh: fmt.Sprintf("%s超过 Excel 单元格上限 %d 个字符，只读取前 %d 个字符。", whereZH, MaxCellChars, MaxCellChars)}
}
