package ingest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode/utf8"
)

// What a file really is, told from its content rather than its name.
const (
	kindXLSX    = "xlsx"
	kindODS     = "ods"
	kindOLE     = "ole" // legacy .xls/.doc/.ppt, or an encrypted OOXML package
	kindPDF     = "pdf"
	kindHTML    = "html"
	kindXML2003 = "xml2003" // Excel 2003 XML Spreadsheet
	kindText    = "text"
	kindZip     = "zip" // a zip package of something else
	kindDocx    = "docx"
	kindPptx    = "pptx"
	kindODF     = "odf" // another OpenDocument file (text, presentation)
	kindBinary  = "binary"
)

// sniffFile tells what a file holds from its first bytes and, for a zip,
// its entry names. detail lists a zip's first entries for the message.
func sniffFile(path string) (kind, detail string, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer fh.Close()
	head := make([]byte, 1024)
	n, _ := io.ReadFull(fh, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, oleMagic):
		return kindOLE, "", nil
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return kindPDF, "", nil
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		st, err := fh.Stat()
		if err != nil {
			return "", "", err
		}
		zr, err := zip.NewReader(fh, st.Size())
		if err != nil {
			return kindZip, "", nil // damaged; the xlsx reader says how
		}
		return sniffZip(zr)
	}
	if bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}) {
		return kindText, "", nil // UTF-16, as Excel's "Unicode text" saves
	}
	text := bytes.TrimPrefix(head, []byte{0xef, 0xbb, 0xbf})
	lower := strings.ToLower(strings.TrimSpace(string(text)))
	switch {
	case strings.Contains(lower, "urn:schemas-microsoft-com:office:spreadsheet"):
		return kindXML2003, "", nil
	case strings.HasPrefix(lower, "<!doctype html") || strings.HasPrefix(lower, "<html") || strings.Contains(lower, "<table"):
		return kindHTML, "", nil
	}
	if looksLikeText(head) {
		return kindText, "", nil
	}
	return kindBinary, "", nil
}

func sniffZip(zr *zip.Reader) (string, string, error) {
	names := map[string]*zip.File{}
	var list []string
	for _, f := range zr.File {
		names[f.Name] = f
		list = append(list, f.Name)
	}
	if f := names["mimetype"]; f != nil {
		if rc, err := f.Open(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(rc, 200))
			rc.Close()
			mt := string(b)
			if strings.HasPrefix(mt, "application/vnd.oasis.opendocument.spreadsheet") {
				return kindODS, "", nil
			}
			if strings.HasPrefix(mt, "application/vnd.oasis.opendocument") {
				return kindODF, mt, nil
			}
		}
	}
	switch {
	case names["xl/workbook.xml"] != nil || names["[Content_Types].xml"] != nil && hasPrefix(list, "xl/"):
		return kindXLSX, "", nil
	case names["word/document.xml"] != nil:
		return kindDocx, "", nil
	case names["ppt/presentation.xml"] != nil:
		return kindPptx, "", nil
	}
	sort.Strings(list)
	if len(list) > 5 {
		list = append(list[:5], "…")
	}
	return kindZip, strings.Join(list, ", "), nil
}

func hasPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// looksLikeText: no NUL bytes and mostly printable (UTF-8 or a legacy
// Chinese encoding), as a CSV or text file.
func looksLikeText(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	ctl := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			ctl++
		}
	}
	return ctl*20 < len(b) || utf8.Valid(b)
}

// whatItIs describes a sniffed kind in both languages, with what to do.
func whatItIs(kind, detail string) (en, zh string) {
	switch kind {
	case kindODS:
		return "the file is an OpenDocument spreadsheet (.ods, e.g. from LibreOffice or WPS), renamed; open it and save it as an Excel workbook (.xlsx).",
			"该文件实为 OpenDocument 电子表格（.ods，如 LibreOffice 或 WPS 所存），被改了扩展名；请打开后另存为 Excel 工作簿（.xlsx）。"
	case kindOLE:
		return "this is an old-format Excel (.xls) or other Office file, not an .xlsx workbook; save it as .xlsx (Excel Workbook) and try again.",
			"这是旧版 Excel（.xls）或其他 Office 文件，不是 .xlsx 工作簿；请在 Excel 中另存为 .xlsx（Excel 工作簿）后重试。"
	case kindPDF:
		return "the file is a PDF document, not a workbook; export the table to Excel (.xlsx) or CSV first.",
			"该文件是 PDF 文档，不是工作簿；请先将表格导出为 Excel（.xlsx）或 CSV。"
	case kindHTML:
		return "the file is a web page (HTML), as some systems export \"Excel\" files; open it in Excel and save it as an Excel workbook (.xlsx).",
			"该文件是网页（HTML），部分系统导出的“Excel”文件即是如此；请用 Excel 打开后另存为 Excel 工作簿（.xlsx）。"
	case kindXML2003:
		return "the file is an Excel 2003 XML spreadsheet; open it in Excel and save it as an Excel workbook (.xlsx).",
			"该文件是 Excel 2003 XML 表格；请用 Excel 打开后另存为 Excel 工作簿（.xlsx）。"
	case kindText:
		return "the file is plain text (perhaps CSV), not an .xlsx workbook; give it the .csv extension, or save it from Excel as .xlsx.",
			"该文件是纯文本（可能是 CSV），不是 .xlsx 工作簿；请将扩展名改为 .csv，或在 Excel 中另存为 .xlsx。"
	case kindDocx:
		return "the file is a Word document (.docx), not a workbook.", "该文件是 Word 文档（.docx），不是工作簿。"
	case kindPptx:
		return "the file is a PowerPoint presentation (.pptx), not a workbook.", "该文件是 PowerPoint 演示文稿（.pptx），不是工作簿。"
	case kindODF:
		return fmt.Sprintf("the file is an OpenDocument file of type %s, not a spreadsheet.", detail),
			fmt.Sprintf("该文件是类型为 %s 的 OpenDocument 文件，不是电子表格。", detail)
	case kindZip:
		if detail == "" {
			return "the file is a zip package but not an Excel workbook.", "该文件是 zip 压缩包，但不是 Excel 工作簿。"
		}
		return fmt.Sprintf("the file is a zip package of something else (it holds %s), not an Excel workbook.", detail),
			fmt.Sprintf("该文件是其他内容的 zip 压缩包（包含 %s），不是 Excel 工作簿。", detail)
	case kindXLSX:
		return "the file is an Excel workbook (.xlsx), not CSV text; name it .xlsx.",
			"该文件是 Excel 工作簿（.xlsx），不是 CSV 文本；请将扩展名改为 .xlsx。"
	}
	return "the file is not an .xlsx workbook (it is neither a zip package nor text); perhaps another file was renamed to .xlsx.",
		"该文件不是 .xlsx 工作簿（既不是 zip 压缩包也不是文本），可能是其他文件被改名为 .xlsx。"
}

// notText refuses a CSV that is really a workbook, a PDF or other binary.
func notText(path string) (*Problem, error) {
	kind, detail, err := sniffFile(path)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	switch kind {
	case kindText:
		return nil, nil
	}
	en, zh := whatItIs(kind, detail)
	if kind == kindBinary {
		en, zh = "the file is binary data, not CSV text.", "该文件是二进制数据，不是 CSV 文本。"
	}
	return &Problem{File: path, Code: CodeNotXLSX, Severity: SeverityError, EN: en, ZH: zh}, nil
}
