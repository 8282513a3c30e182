package ingest

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"cubeworkbench/core/xlsxcell"
)

// xlsxBook is an .xlsx package opened for streaming by our own reader.
// excelize's row iterator drops XML errors (a damaged sheet reads as a
// shorter one), reads a shared string or a whitespace run whole, pads a
// row to its last cell and cannot say which sheets are hidden without
// reading them whole; reading the parts ourselves bounds every one of those
// and reports damage where it is. excelize still decrypts; what a cell
// says is read by core/xlsxcell, as core/docparse reads it.
type xlsxBook struct {
	path   string
	opt    Options
	zr     *zip.Reader
	closer io.Closer
	files  map[string]*zip.File
	sheets []bookSheet
	sst    *sharedStrings
	cells  *xlsxcell.Formats // the one cell reader's view of the styles
	tmp    *scratch

	unpacked int64            // bytes unpacked so far, against Options.UnzipSizeLimit
	seen     map[string]int64 // bytes counted per part: a part read twice counts once
}

// bookSheet is one worksheet of the workbook, in tab order.
type bookSheet struct {
	name  string
	state string // "", "visible", "hidden" or "veryHidden"
	part  string // zip entry of its XML
}

func (s bookSheet) hidden() bool { return s.state == "hidden" || s.state == "veryHidden" }

func (b *xlsxBook) Close() error {
	if b.sst != nil {
		b.sst.close()
	}
	if b.tmp != nil {
		b.tmp.remove()
	}
	if b.closer != nil {
		return b.closer.Close()
	}
	return nil
}

// errPartTooLarge: a part unpacks to more than the limit.
var errPartTooLarge = errors.New("unpacks over the size limit")

// limitedPart counts the bytes unpacked from one part against the book's
// limit: zip headers may lie about sizes, so the count is of real bytes.
type limitedPart struct {
	rc   io.ReadCloser
	b    *xlsxBook
	name string
	n    int64
}

func (p *limitedPart) Read(buf []byte) (int, error) {
	n, err := p.rc.Read(buf)
	p.n += int64(n)
	if seen := p.b.seen[p.name]; p.n > seen {
		p.b.unpacked += p.n - seen
		p.b.seen[p.name] = p.n
	}
	if p.b.unpacked > p.b.opt.UnzipSizeLimit {
		return n, errPartTooLarge
	}
	return n, err
}

func (p *limitedPart) Close() error { return p.rc.Close() }

// openPart opens a zip entry; ok is false when there is none.
func (b *xlsxBook) openPart(name string) (io.ReadCloser, bool, error) {
	f := b.files[name]
	if f == nil {
		return nil, false, nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil, true, err
	}
	return &limitedPart{rc: rc, b: b, name: name}, true, nil
}

// maxStructurePart bounds a relationships, workbook or styles part (large
// workbooks have styles of a few MiB).
const maxStructurePart = 64 << 20

// decodePart reads a small part (relationships, workbook, styles) into v.
func (b *xlsxBook) decodePart(name string, v any) (bool, error) {
	rc, ok, err := b.openPart(name)
	if !ok || err != nil {
		return ok, err
	}
	defer rc.Close()
	if err := refuseDoctype(name, newCapReader(io.LimitReader(rc, maxStructurePart+1)), v); err != nil {
		return true, err
	}
	return true, nil
}

// refuseDoctype decodes a part, refusing a DOCTYPE (entity definitions:
// no spreadsheet writer emits one; they serve entity bombs).
func refuseDoctype(name string, r io.Reader, v any) error {
	d := xml.NewDecoder(r)
	for {
		tok, err := d.Token()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			if isDoctype(t) {
				return fmt.Errorf("%s: declares a DOCTYPE", name)
			}
		case xml.StartElement:
			return d.DecodeElement(v, &t)
		}
	}
}

func isDoctype(d xml.Directive) bool {
	return len(d) >= 7 && strings.EqualFold(string(d[:7]), "DOCTYPE")
}

type xRels struct {
	Rel []struct {
		ID     string `xml:"Id,attr"`
		Type   string `xml:"Type,attr"`
		Target string `xml:"Target,attr"`
	} `xml:"Relationship"`
}

type xWorkbook struct {
	Pr struct {
		Date1904 string `xml:"date1904,attr"`
	} `xml:"workbookPr"`
	Sheets []struct {
		Name  string     `xml:"name,attr"`
		State string     `xml:"state,attr"`
		Attrs []xml.Attr `xml:",any,attr"`
	} `xml:"sheets>sheet"`
}

type xStyles struct {
	NumFmts []struct {
		ID   int    `xml:"numFmtId,attr"`
		Code string `xml:"formatCode,attr"`
	} `xml:"numFmts>numFmt"`
	Xfs []struct {
		NumFmtID int `xml:"numFmtId,attr"`
	} `xml:"cellXfs>xf"`
}

// relTarget resolves a relationship target against the part that owns it.
func relTarget(owner, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(target, "/")
	}
	return path.Join(path.Dir(owner), target)
}

func relsOf(part string) string {
	return path.Join(path.Dir(part), "_rels", path.Base(part)+".rels")
}

// openBook opens an .xlsx package (decrypting it with the password when
// it is an encrypted OOXML file) and reads its workbook, sheet list, styles
// and shared strings. A package that is damaged yields a Problem.
func openBook(path string, raw func() ([]byte, error), opt Options, size int64, fh *os.File) (*xlsxBook, *Problem, error) {
	b := &xlsxBook{path: path, opt: opt, files: map[string]*zip.File{}, seen: map[string]int64{}, tmp: &scratch{root: opt.TempDir}}
	if raw != nil {
		data, err := raw()
		if err != nil {
			return nil, nil, err
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, corrupt(path, err), nil
		}
		b.zr = zr
	} else {
		zr, err := zip.NewReader(fh, size)
		if err != nil {
			fh.Close()
			return nil, corrupt(path, err), nil
		}
		b.zr, b.closer = zr, fh
	}
	for _, f := range b.zr.File {
		b.files[f.Name] = f
	}
	if kind, detail, _ := sniffZip(b.zr); kind != kindXLSX {
		b.Close()
		en, zh := whatItIs(kind, detail)
		return nil, &Problem{File: path, Code: CodeNotXLSX, Severity: SeverityError, EN: en, ZH: zh}, nil
	}
	if p := b.readStructure(); p != nil {
		b.Close()
		return nil, p, nil
	}
	return b, nil, nil
}

// partProblem reports a damaged or oversized part of the package.
func (b *xlsxBook) partProblem(err error) *Problem {
	if errors.Is(err, errPartTooLarge) {
		return tooLarge(b.path, -1, b.opt.UnzipSizeLimit)
	}
	return corrupt(b.path, err)
}

func (b *xlsxBook) readStructure() *Problem {
	wbPart := "xl/workbook.xml"
	var root xRels
	if ok, err := b.decodePart("_rels/.rels", &root); err != nil {
		return b.partProblem(err)
	} else if ok {
		for _, r := range root.Rel {
			if strings.HasSuffix(r.Type, "/officeDocument") {
				wbPart = relTarget("", r.Target)
			}
		}
	}
	var wb xWorkbook
	if ok, err := b.decodePart(wbPart, &wb); err != nil {
		return b.partProblem(err)
	} else if !ok {
		return &Problem{File: b.path, Code: CodeNotXLSX, Severity: SeverityError,
			EN: "the file is a zip package but holds no workbook part; it is not an Excel workbook.",
			ZH: "该文件是 zip 压缩包但不含工作簿部件，不是 Excel 工作簿。"}
	}
	var rels xRels
	if _, err := b.decodePart(relsOf(wbPart), &rels); err != nil {
		return b.partProblem(err)
	}
	targets := map[string]string{}
	var sstPart, stylesPart string
	for _, r := range rels.Rel {
		t := relTarget(wbPart, r.Target)
		switch {
		case strings.HasSuffix(r.Type, "/worksheet"):
			targets[r.ID] = t
		case strings.HasSuffix(r.Type, "/sharedStrings"):
			sstPart = t
		case strings.HasSuffix(r.Type, "/styles"):
			stylesPart = t
		}
	}
	for _, s := range wb.Sheets {
		for _, a := range s.Attrs {
			if a.Name.Local == "id" && targets[a.Value] != "" {
				b.sheets = append(b.sheets, bookSheet{name: s.Name, state: s.State, part: targets[a.Value]})
			}
		}
	}
	if len(b.sheets) == 0 {
		return &Problem{File: b.path, Code: CodeNotXLSX, Severity: SeverityError,
			EN: "the file is a zip package but holds no worksheets; it is not an Excel workbook.",
			ZH: "该文件是 zip 压缩包但不含任何工作表，不是 Excel 工作簿。"}
	}
	b.cells = &xlsxcell.Formats{Date1904: wb.Pr.Date1904 == "1" || wb.Pr.Date1904 == "true"}
	if stylesPart != "" {
		var st xStyles
		if _, err := b.decodePart(stylesPart, &st); err != nil {
			return b.partProblem(err)
		}
		for _, f := range st.NumFmts {
			b.cells.NumFmt(f.ID, f.Code)
		}
		for _, x := range st.Xfs {
			b.cells.Style(x.NumFmtID)
		}
	}
	if sstPart != "" {
		sst, err := b.readSharedStrings(sstPart)
		if err != nil {
			if errors.Is(err, errPartTooLarge) {
				return tooLarge(b.path, -1, b.opt.UnzipSizeLimit)
			}
			return &Problem{File: b.path, Code: CodeCorrupt, Severity: SeverityError,
				EN: fmt.Sprintf("the workbook's shared text table (%s) is damaged (%v); open the file in Excel, save it again, and retry.", sstPart, err),
				ZH: fmt.Sprintf("工作簿的共享文本表（%s）已损坏（%v）；请用 Excel 打开后重新保存再试。", sstPart, err)}
		}
		b.sst = sst
	}
	return nil
}

// sharedStrings is the shared string table: in memory while small, then
// in a temporary file with an offset per string, so a table of millions
// of strings costs eight bytes a string.
type sharedStrings struct {
	mem   []string
	size  int64
	limit int64
	tmp   *scratch
	file  *os.File
	w     *bufio.Writer
	off   []int64 // start of string i in file; len = count+1
	long  map[int]bool
	count int
}

func (s *sharedStrings) add(v string) error {
	s.count++
	if s.file == nil {
		s.mem = append(s.mem, v)
		s.size += int64(len(v)) + 16
		if s.size <= s.limit {
			return nil
		}
		f, err := s.tmp.create("sharedstrings-")
		if err != nil {
			return err
		}
		s.file, s.w, s.off = f, bufio.NewWriterSize(f, 1<<16), []int64{0}
		mem := s.mem
		s.mem = nil
		for _, m := range mem {
			if err := s.write(m); err != nil {
				return err
			}
		}
		return nil
	}
	return s.write(v)
}

func (s *sharedStrings) write(v string) error {
	if _, err := s.w.WriteString(v); err != nil {
		return fmt.Errorf("ingest: temporary file: %w", err)
	}
	s.off = append(s.off, s.off[len(s.off)-1]+int64(len(v)))
	return nil
}

func (s *sharedStrings) done() error {
	if s.w != nil {
		if err := s.w.Flush(); err != nil {
			return fmt.Errorf("ingest: temporary file: %w", err)
		}
	}
	return nil
}

// get returns string i; long is true when it was cut at MaxCellChars.
func (s *sharedStrings) get(i int) (string, bool, error) {
	if i < 0 || i >= s.count {
		return "", false, fmt.Errorf("names shared string %d, but the table has %d", i, s.count)
	}
	if s.file == nil {
		return s.mem[i], s.long[i], nil
	}
	buf := make([]byte, s.off[i+1]-s.off[i])
	if _, err := s.file.ReadAt(buf, s.off[i]); err != nil {
		return "", false, fmt.Errorf("ingest: temporary file: %w", err)
	}
	return string(buf), s.long[i], nil
}

func (s *sharedStrings) close() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
		s.file = nil
	}
}

// readSharedStrings streams the shared string table, each string cut at
// MaxCellChars (and remembered as cut, so the cells using it say so).
func (b *xlsxBook) readSharedStrings(part string) (*sharedStrings, error) {
	s := &sharedStrings{limit: b.opt.UnzipXMLSizeLimit, tmp: b.tmp, long: map[int]bool{}}
	rc, ok, err := b.openPart(part)
	if err != nil {
		return nil, err
	}
	if !ok {
		return s, nil
	}
	defer rc.Close()
	cr := newCapReader(bufio.NewReaderSize(rc, 1<<16))
	d := xml.NewDecoder(cr)
	var (
		buf         []byte
		inSI, inT   bool
		phonetic    int
		cutsAtStart int
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, errPartTooLarge) {
				return nil, err
			}
			return nil, fmt.Errorf("at string %d: %w", s.count+1, err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			if isDoctype(t) {
				return nil, errors.New("it declares a DOCTYPE, which no spreadsheet writer emits")
			}
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				inSI, buf, cutsAtStart = true, buf[:0], cr.cuts
			case "rPh":
				phonetic++
			case "t":
				inT = inSI && phonetic == 0
			}
		case xml.CharData:
			if inT {
				buf = appendCapped(buf, t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inT = false
			case "rPh":
				phonetic--
			case "si":
				inSI = false
				v, long := capCell(xlsxcell.Unescape(string(buf)))
				if long || cr.cuts > cutsAtStart {
					s.long[s.count] = true
				}
				if err := s.add(v); err != nil {
					s.close()
					return nil, err
				}
			}
		}
	}
	if err := s.done(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// appendCapped appends text, keeping at most maxCellBytes plus a character.
func appendCapped(buf, text []byte) []byte {
	if room := maxCellBytes + utf8Max - len(buf); room > 0 {
		if len(text) > room {
			text = text[:room]
		}
		buf = append(buf, text...)
	}
	return buf
}

const utf8Max = 4

// capCell cuts a value at MaxCellChars; long reports a cut.
func capCell(s string) (string, bool) {
	if len(s) <= MaxCellChars {
		return s, false
	}
	cut := cutChars(s, MaxCellChars)
	if len(cut) == len(s) {
		return s, false
	}
	return strings.ToValidUTF8(cut, ""), true
}
