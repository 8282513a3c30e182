package ingest

import (
	"archive/zip"
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
// workbook yields a Problem (encrypted, corrupt, not_xlsx, too_large); err is
// only for a file that cannot be read at all.
func openXLSX(path string, opt Options) (*excelize.File, *Problem, error) {
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
	head := make([]byte, 8)
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("ingest: %w", err)
	}
	n, _ := io.ReadFull(fh, head)
	head = head[:n]
	if bytes.Equal(head, oleMagic) {
		enc, err := containsMarker(fh, encryptedMarker)
		fh.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("ingest: %w", err)
		}
		if !enc {
			return nil, fileProblem(CodeNotXLSX,
				"this is an old-format Excel (.xls) or other Office file, not an .xlsx workbook; save it as .xlsx (Excel Workbook) and try again.",
				"这是旧版 Excel（.xls）或其他 Office 文件，不是 .xlsx 工作簿；请在 Excel 中另存为 .xlsx（Excel 工作簿）后重试。"), nil
		}
		if opt.Password == "" {
			return nil, fileProblem(CodeEncrypted,
				"the workbook is password-protected; remove the password in Excel (File → Info → Protect Workbook) or supply it, and try again.",
				"工作簿设有打开密码；请在 Excel 中取消密码（文件 → 信息 → 保护工作簿）或提供密码后重试。"), nil
		}
	} else {
		fh.Close()
		if n < 4 || !bytes.Equal(head[:2], []byte("PK")) {
			return nil, fileProblem(CodeNotXLSX,
				"the file is not an .xlsx workbook (it is not a zip package); perhaps another file was renamed to .xlsx.",
				"该文件不是 .xlsx 工作簿（不是 zip 压缩包），可能是其他文件被改名为 .xlsx。"), nil
		}
	}
	f, err := excelize.OpenFile(path, excelize.Options{
		Password:          opt.Password,
		UnzipSizeLimit:    opt.UnzipSizeLimit,
		UnzipXMLSizeLimit: opt.UnzipXMLSizeLimit,
	})
	if err != nil {
		if f != nil {
			f.Close()
		}
		switch {
		case strings.Contains(err.Error(), "unzip size exceeds"):
			return nil, tooLarge(path, -1, opt.UnzipSizeLimit), nil
		case errors.Is(err, excelize.ErrWorkbookFileFormat), errors.Is(err, excelize.ErrWorkbookPassword):
			return nil, fileProblem(CodeEncrypted,
				"the workbook is password-protected and the password given does not open it (or its encryption is not supported).",
				"工作簿设有打开密码，所给密码无法打开它（或其加密方式不受支持）。"), nil
		case errors.Is(err, zip.ErrFormat), errors.Is(err, zip.ErrAlgorithm), errors.Is(err, zip.ErrChecksum), errors.Is(err, io.ErrUnexpectedEOF):
			return nil, corrupt(path, err), nil
		default:
			return nil, corrupt(path, err), nil
		}
	}
	if len(f.GetSheetList()) == 0 {
		f.Close()
		return nil, fileProblem(CodeNotXLSX,
			"the file is a zip package but holds no worksheets; it is not an Excel workbook.",
			"该文件是 zip 压缩包但不含任何工作表，不是 Excel 工作簿。"), nil
	}
	return f, nil, nil
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

// sheetRows streams the non-empty rows of one sheet; row is 1-based.
func sheetRows(ctx context.Context, f *excelize.File, sheet string, fn func(row int, cells []string) error) error {
	rows, err := f.Rows(sheet)
	if err != nil {
		return err
	}
	defer rows.Close()
	row := 0
	for rows.Next() {
		row++
		if row&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		cells, err := rows.Columns()
		if err != nil {
			return fmt.Errorf("row %d: %w", row, err)
		}
		if blank(cells) {
			continue
		}
		if err := fn(row, cells); err != nil {
			return err
		}
	}
	if err := rows.Error(); err != nil {
		return err
	}
	return rows.Close()
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
func ReadSheetRows(ctx context.Context, path, sheet string, fn func(row int, cells []string) error) error {
	if isCSV(path) {
		t, p, err := csvTable(path, Options{}.withDefaults())
		if err != nil {
			return err
		}
		if p != nil {
			return *p
		}
		return t.rows(ctx, fn)
	}
	f, p, err := openXLSX(path, Options{})
	if err != nil {
		return err
	}
	if p != nil {
		return *p
	}
	defer f.Close()
	name := ""
	for _, s := range f.GetSheetList() {
		if s == sheet {
			name = s
			break
		}
		if name == "" && normalize(s) == normalize(sheet) {
			name = s
		}
	}
	if name == "" {
		return fmt.Errorf("ingest: %s: no sheet %q (sheets: %s)", path, sheet, strings.Join(f.GetSheetList(), ", "))
	}
	return sheetRows(ctx, f, name, fn)
}
