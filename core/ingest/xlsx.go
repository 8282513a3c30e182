package ingest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/xuri/excelize/v2"
)

// OLE2 compound files hold encrypted OOXML packages and legacy .xls books.
var oleMagic = []byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}

// encryptedMarker is the stream name "EncryptedPackage" in UTF-16LE, present
// in every password-protected OOXML file and in no legacy .xls.
var encryptedMarker = utf16le("EncryptedPackage")

func utf16le(s string) []byte {
	b := make([]byte, 0, 2*len(s))
	for _, r := range s {
		b = append(b, byte(r), 0)
	}
	return b
}

// openXLSX opens a workbook for streaming. A file that cannot be used as a
// workbook yields a Problem (encrypted, corrupt, not_xlsx — saying what the
// file really is —, too_large); err is only for a file that cannot be read
// at all.
func openXLSX(path string, opt Options) (*xlsxBook, *Problem, error) {
	opt = opt.withDefaults()
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("ingest: %w", err)
	}
	fileProblem := func(code, en, zh string) *Problem {
		return &Problem{File: path, Code: code, Severity: SeverityError, EN: en, ZH: zh}
	}
	if st.Size() > opt.UnzipSizeLimit {
		return nil, tooLarge(path, st.Size(), opt.UnzipSizeLimit), nil
	}
	kind, detail, err := sniffFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("ingest: %w", err)
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("ingest: %w", err)
	}
	switch kind {
	case kindOLE:
		enc, err := containsMarker(fh, encryptedMarker)
		fh.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("ingest: %w", err)
		}
		if !enc {
			en, zh := whatItIs(kind, detail)
			return nil, fileProblem(CodeNotXLSX, en, zh), nil
		}
		if opt.Password == "" {
			return nil, fileProblem(CodeEncrypted,
				"the workbook is password-protected; remove the password in Excel (File → Info → Protect Workbook) or supply it, and try again.",
				"工作簿设有打开密码；请在 Excel 中取消密码（文件 → 信息 → 保护工作簿）或提供密码后重试。"), nil
		}
		wrong := fileProblem(CodeEncrypted,
			"the workbook is password-protected and the password given does not open it (or its encryption is not supported).",
			"工作簿设有打开密码，所给密码无法打开它（或其加密方式不受支持）。")
		var decryptFailed bool
		b, p, err := openBook(path, func() ([]byte, error) {
			raw, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("ingest: %w", err)
			}
			out, err := excelize.Decrypt(raw, &excelize.Options{Password: opt.Password})
			if err != nil {
				decryptFailed = true
				return nil, nil
			}
			return out, nil
		}, opt, 0, nil)
		if decryptFailed || p != nil && p.Code == CodeCorrupt {
			// A wrong password decrypts to noise, which is no zip package.
			return nil, wrong, nil
		}
		return b, p, err
	case kindXLSX, kindZip:
		return openBook(path, nil, opt, st.Size(), fh)
	}
	fh.Close()
	en, zh := whatItIs(kind, detail)
	return nil, fileProblem(CodeNotXLSX, en, zh), nil
}

func tooLarge(path string, size, limit int64) *Problem {
	p := &Problem{File: path, Code: CodeTooLarge, Severity: SeverityError}
	if size >= 0 {
		p.EN = fmt.Sprintf("the file is %s, over the limit of %s; split it or raise the limit.", humanBytes(size), humanBytes(limit))
		p.ZH = fmt.Sprintf("文件大小为 %s，超过上限 %s；请拆分文件或调高上限。", humanBytes(size), humanBytes(limit))
	} else {
		p.EN = fmt.Sprintf("the workbook unpacks to more than the limit of %s; split it or raise the limit.", humanBytes(limit))
		p.ZH = fmt.Sprintf("工作簿解压后超过上限 %s；请拆分文件或调高上限。", humanBytes(limit))
	}
	return p
}

func corrupt(path string, err error) *Problem {
	return &Problem{File: path, Code: CodeCorrupt, Severity: SeverityError,
		EN: fmt.Sprintf("the file is damaged and cannot be read (%v); open it in Excel, save it again, and retry.", err),
		ZH: fmt.Sprintf("文件已损坏，无法读取（%v）；请用 Excel 打开后重新保存再试。", err)}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

// containsMarker scans the rest of r for marker without holding the file.
func containsMarker(r io.Reader, marker []byte) (bool, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	buf := make([]byte, 0, 1<<16+len(marker))
	chunk := make([]byte, 1<<16)
	for {
		n, err := br.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if bytes.Contains(buf, marker) {
			return true, nil
		}
		if len(buf) > len(marker) { // keep a tail so a marker across chunks is seen
			buf = append(buf[:0], buf[len(buf)-len(marker):]...)
		}
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	}
}

func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// ReadSheetRows streams the rows of any sheet of an .xlsx file (or of a CSV
// file, whose sheet name is ignored) to fn, skipping blank rows; row is the
// 1-based row number, header included. The sheet name matches exactly or,
// failing that, ignoring case, spaces and underscores. A file that cannot
// be opened returns a Problem as the error; fn's error stops the reading and
// is returned as is.
//
// A cell that cannot be read as it is (bad encoding) stops the reading with
// a Problem naming its row and column; cut cells and uncached formulas are
// read as the loader reads them (cut, empty). Damage is a Problem naming
// the sheet and the row where reading stopped.
func ReadSheetRows(ctx context.Context, path, sheet string, fn func(row int, cells []string) error) error {
	each := func(file, sheetName string) rowFunc {
		return func(row int, cells []string, issues []cellIssue) error {
			for _, is := range issues {
				if is.severity == SeverityError {
					col, _ := excelize.ColumnNumberToName(is.col + 1)
					return Problem{File: file, Sheet: sheetName, Row: row, Column: col, Code: is.code, Severity: is.severity, EN: is.en, ZH: is.zh}
				}
			}
			return fn(row, cells)
		}
	}
	located := func(file, sheetName string, err error) error {
		var re *readError
		if errors.As(err, &re) {
			p := Problem{File: file, Sheet: sheetName, Row: re.row, Code: re.code, Severity: SeverityError, EN: re.en, ZH: re.zh}
			if re.col >= 0 {
				p.Column, _ = excelize.ColumnNumberToName(re.col + 1)
			}
			return p
		}
		return err
	}
	if isCSV(path) {
		t, p, err := csvTable(path, Options{}.withDefaults())
		if err != nil {
			return err
		}
		if p != nil {
			return *p
		}
		return located(path, "", t.rows(ctx, each(path, "")))
	}
	b, p, err := openXLSX(path, Options{})
	if err != nil {
		return err
	}
	if p != nil {
		return *p
	}
	defer b.Close()
	var names []string
	found := -1
	for i, s := range b.sheets {
		names = append(names, s.name)
		if s.name == sheet {
			found = i
			break
		}
		if found < 0 && normalize(s.name) == normalize(sheet) {
			found = i
		}
	}
	if found < 0 {
		return fmt.Errorf("ingest: %s: no sheet %q (sheets: %s)", path, sheet, strings.Join(names, ", "))
	}
	s := b.sheets[found]
	return located(path, s.name, b.rows(ctx, s, each(path, s.name), nil))
}
