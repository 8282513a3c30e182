package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
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
	rows        func(ctx context.Context, fn func(row int, cells []string) error) error
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

// csvTable prepares a CSV file: it checks the size limit and detects the
// encoding once (a full pass, so a file whose first megabyte is ASCII and
// whose Chinese comes later is still detected), then streams on demand.
func csvTable(path string, opt Options) (*table, *Problem, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("ingest: %w", err)
	}
	if st.Size() > opt.MaxCSVBytes {
		return nil, tooLarge(path, st.Size(), opt.MaxCSVBytes), nil
	}
	enc, err := detectEncoding(path)
	if err != nil {
		return nil, nil, fmt.Errorf("ingest: %w", err)
	}
	t := &table{file: path}
	t.rows = func(ctx context.Context, fn func(row int, cells []string) error) error {
		return csvRows(ctx, path, enc, fn)
	}
	return t, nil, nil
}

// detectEncoding tells UTF-8 (with or without BOM) and UTF-16 (with BOM, as
// Excel's "Unicode text" saves) from GB18030/GBK, which Chinese Excel writes
// for "CSV (comma delimited)": any invalid UTF-8 means GB18030.
func detectEncoding(path string) (int, error) {
	fh, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 1<<16)
	if bom, _ := br.Peek(2); len(bom) == 2 && (bom[0] == 0xff && bom[1] == 0xfe || bom[0] == 0xfe && bom[1] == 0xff) {
		return encUTF16, nil
	}
	buf := make([]byte, 1<<16)
	carry := 0
	for {
		n, err := br.Read(buf[carry:])
		data := buf[:carry+n]
		// Hold back an incomplete rune at the end for the next read.
		cut := len(data)
		for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
			if utf8.RuneStart(data[i]) {
				if !utf8.FullRune(data[i:]) {
					cut = i
				}
				break
			}
		}
		if err == io.EOF {
			cut = len(data)
		}
		if !utf8.Valid(data[:cut]) {
			return encGB18030, nil
		}
		carry = copy(buf, data[cut:])
		if err == io.EOF {
			return encUTF8, nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// csvRows streams the records of a CSV file; row is the 1-based record
// number, as the row number Excel shows when it opens the file.
func csvRows(ctx context.Context, path string, enc int, fn func(row int, cells []string) error) error {
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
	cr := csv.NewReader(br)
	cr.Comma = sniffDelimiter(br)
	cr.LazyQuotes = true // Excel and hand-made files put bare quotes inside fields
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	row := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		row++
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return fmt.Errorf("record %d (line %d): %w", row, pe.Line, pe.Err)
			}
			return err
		}
		if row&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if blank(rec) {
			continue
		}
		if err := fn(row, rec); err != nil {
			return err
		}
	}
}

// sniffDelimiter picks tab when the first line has tabs and no commas.
func sniffDelimiter(br *bufio.Reader) rune {
	head, _ := br.Peek(br.Size())
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	if bytes.IndexByte(head, '\t') >= 0 && bytes.IndexByte(head, ',') < 0 {
		return '\t'
	}
	return ','
}
