package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Excel's sheet size.
const (
	maxRows = 1048576
	maxCols = 16384
)

// sheetNote is a problem of a whole sheet found while reading it (merged
// ranges filled, rows missing against the sheet's own dimension).
type sheetNote struct {
	row            int
	code, severity string
	en, zh         string
}

// cellRef parses "B7" into 1-based column and row.
func cellRef(ref string) (col, row int, ok bool) {
	i := 0
	for i < len(ref) && (ref[i] >= 'A' && ref[i] <= 'Z' || ref[i] >= 'a' && ref[i] <= 'z') {
		c := ref[i]
		if c >= 'a' {
			c -= 'a' - 'A'
		}
		col = col*26 + int(c-'A'+1)
		if col > maxCols {
			return 0, 0, false
		}
		i++
	}
	if i == 0 {
		return 0, 0, false
	}
	if i == len(ref) {
		return col, 0, true // a column alone, as in a dimension "A:C"
	}
	r, err := strconv.Atoi(ref[i:])
	if err != nil || r < 1 || r > maxRows {
		return 0, 0, false
	}
	return col, r, true
}

func cellName(col, row int) string {
	n, _ := excelize.CoordinatesToCellName(col, row)
	return n
}

// mergeRange is a merged range, 1-based and inclusive.
type mergeRange struct{ c1, r1, c2, r2 int }

// maxMerges bounds the merged ranges read from one sheet.
const maxMerges = 1 << 20

// readMerges finds the sheet's <mergeCells>, which Excel writes after the
// data: one more pass over the part that only decompresses and searches
// bytes, so the rows can be filled as they stream.
func (b *xlsxBook) readMerges(part string) ([]mergeRange, error) {
	rc, ok, err := b.openPart(part)
	if err != nil || !ok {
		return nil, err
	}
	defer rc.Close()
	const key = "mergeCells"
	buf := make([]byte, 1<<16)
	keep := 0
	for {
		n, err := io.ReadFull(rc, buf[keep:])
		data := buf[:keep+n]
		if i := indexMergeStart(data); i >= 0 {
			rest := io.MultiReader(bytes.NewReader(append([]byte(nil), data[i:]...)), rc)
			return parseMerges(rest)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		keep = copy(buf, data[len(data)-len(key)-16:])
	}
}

// indexMergeStart finds "<mergeCells" or "<x:mergeCells".
func indexMergeStart(data []byte) int {
	for off := 0; ; {
		j := bytes.Index(data[off:], []byte("mergeCells"))
		if j < 0 {
			return -1
		}
		j += off
		k := j - 1
		for k >= 0 && j-k < 16 && data[k] != '<' && data[k] != '>' && data[k] != ' ' {
			k--
		}
		if k >= 0 && data[k] == '<' && (k == j-1 || data[j-1] == ':') {
			return k
		}
		off = j + 1
	}
}

func parseMerges(r io.Reader) ([]mergeRange, error) {
	d := xml.NewDecoder(newCapReader(bufio.NewReader(r)))
	var out []mergeRange
	for {
		tok, err := d.RawToken()
		if err != nil {
			return out, nil // the rest of the part is read by the row pass, which reports damage
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "mergeCell" || len(out) >= maxMerges {
				continue
			}
			for _, a := range t.Attr {
				if a.Name.Local != "ref" {
					continue
				}
				from, to, _ := strings.Cut(a.Value, ":")
				c1, r1, ok1 := cellRef(from)
				c2, r2, ok2 := cellRef(to)
				if ok1 && ok2 && r1 > 0 && r2 >= r1 && c2 >= c1 && (r2 > r1 || c2 > c1) {
					out = append(out, mergeRange{c1, r1, c2, r2})
				}
			}
		case xml.EndElement:
			if t.Name.Local == "mergeCells" {
				return out, nil
			}
		}
	}
}

// cellVal is one non-empty cell of a row.
type cellVal struct {
	col int // 1-based
	val string
}

// sheetReader streams one worksheet's rows.
type sheetReader struct {
	b      *xlsxBook
	sheet  bookSheet
	d      *xml.Decoder
	cr     *capReader
	merges []mergeRange
	// Merged ranges whose first cell has been read, with its value.
	active   []activeMerge
	nextM    int // merges sorted by r1: the next to activate
	maxCol   int // widest non-empty column so far: fills stop there
	filled   int
	firstRef string
	// Rows hidden by a filter or by hand, left unread (Options.ReadHiddenSheets
	// reads them): how many and the first few, for the warning.
	hiddenRows  int
	hiddenFirst []int
	keepHidden  bool
	issues      []cellIssue
	cells       []cellVal
	taken       []bool // columns of the current row that have a value
}

type activeMerge struct {
	mergeRange
	val string
}

// damaged builds the error for a sheet that cannot be read to the end.
func damaged(row int, cause string, causeZH string) *readError {
	if row > 0 {
		return &readError{row: row, col: -1, code: CodeCorrupt,
			en: fmt.Sprintf("the sheet is damaged here (%s); reading stopped at this row, so the rows from here on are missing. Open the file in Excel, save it again, and retry.", cause),
			zh: fmt.Sprintf("该表在此处损坏（%s），读取在此行停止，此后的行缺失。请用 Excel 打开后重新保存再试。", causeZH)}
	}
	return &readError{row: 0, col: -1, code: CodeCorrupt,
		en: fmt.Sprintf("the sheet is damaged before its first row (%s); nothing of it can be read. Open the file in Excel, save it again, and retry.", cause),
		zh: fmt.Sprintf("该表在第一行之前即已损坏（%s），无法读取。请用 Excel 打开后重新保存再试。", causeZH)}
}

// xmlCause words a decoder error for users.
func xmlCause(err error) (string, string) {
	var se *xml.SyntaxError
	switch {
	case errors.As(err, &se) && strings.Contains(se.Msg, "illegal character"):
		return fmt.Sprintf("a control character that XML cannot hold: %s", se.Msg), fmt.Sprintf("含有 XML 不允许的控制字符：%s", se.Msg)
	case errors.As(err, &se) && strings.Contains(se.Msg, "unexpected EOF"):
		return "the sheet's data is cut short", "工作表数据被截断"
	case errors.As(err, &se):
		return fmt.Sprintf("malformed XML at line %d: %s", se.Line, se.Msg), fmt.Sprintf("第 %d 行 XML 格式错误：%s", se.Line, se.Msg)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the sheet's data is cut short", "工作表数据被截断"
	case errors.Is(err, errTagTooLong):
		return err.Error(), "XML 标签过长，任何表格软件都不会写出"
	}
	return err.Error(), err.Error()
}

// rows streams the non-blank rows of a sheet to fn, 1-based, with the
// issues of their cells. Damage is a *readError naming the row where
// reading stopped; notes gets the sheet's other findings after a full read.
func (b *xlsxBook) rows(ctx context.Context, sheet bookSheet, fn rowFunc, notes func(sheetNote)) error {
	merges, err := b.readMerges(sheet.part)
	if err != nil {
		if errors.Is(err, errPartTooLarge) {
			return &readError{col: -1, code: CodeTooLarge,
				en: fmt.Sprintf("the sheet unpacks to more than the limit of %s; split the workbook or raise the limit.", humanBytes(b.opt.UnzipSizeLimit)),
				zh: fmt.Sprintf("该表解压后超过上限 %s；请拆分工作簿或调高上限。", humanBytes(b.opt.UnzipSizeLimit))}
		}
		cause, causeZH := xmlCause(err)
		return damaged(0, cause, causeZH)
	}
	sortMerges(merges)
	rc, ok, err := b.openPart(sheet.part)
	if err != nil {
		cause, causeZH := xmlCause(err)
		return damaged(0, cause, causeZH)
	}
	if !ok {
		return damaged(0, "its part "+sheet.part+" is missing from the package", "缺少部件 "+sheet.part)
	}
	defer rc.Close()
	cr := newCapReader(bufio.NewReaderSize(rc, 1<<16))
	s := &sheetReader{b: b, sheet: sheet, d: xml.NewDecoder(cr), cr: cr, merges: merges,
		// The loader's read (with notes) leaves hidden rows out; a raw read
		// (ReadSheetRows, the header sniff) sees every row.
		keepHidden: notes == nil || b.opt.ReadHiddenSheets}
	if notes == nil || !pipeSheets {
		return s.run(ctx, fn, notes) // a sniff stops after a row or two: no read-ahead
	}
	return s.runPiped(ctx, fn, notes)
}

// pipeSheets: the loader's reads of whole sheets are piped (runPiped); a
// test turns it off to compare with the plain read.
var pipeSheets = true

// pipedRow is a row on its way from the reading goroutine to fn.
type pipedRow struct {
	row    int
	cells  []string
	issues []cellIssue
}

// pipeBatch is how many rows go from the reader to fn at a time.
const pipeBatch = 256

// runPiped is run with the XML read on a goroutine of its own and fn
// called on the caller's, one batch of rows behind: decoding the sheet and
// building items from its rows each took a core's share of a 100,000-
// question workbook's open (issue 27). What fn and notes see is what run
// gives them, in the same order, on the caller's goroutine: every row
// before the reader's error or stop, then the notes of a full read. When
// fn fails, its error is returned and the reader is stopped, as run stops
// at fn's error; rows read ahead are dropped.
func (s *sheetReader) runPiped(ctx context.Context, fn rowFunc, notes func(sheetNote)) error {
	batches := make(chan []pipedRow, 4)
	stop := make(chan struct{})
	var kept []sheetNote
	var readErr error
	go func() {
		defer close(batches)
		var batch []pipedRow
		send := func() error {
			select {
			case batches <- batch:
				batch = make([]pipedRow, 0, pipeBatch)
				return nil
			case <-stop:
				return errStop
			}
		}
		readErr = s.run(ctx, func(row int, cells []string, issues []cellIssue) error {
			batch = append(batch, pipedRow{row, cells, issues})
			if len(batch) < pipeBatch {
				return nil
			}
			return send()
		}, func(n sheetNote) { kept = append(kept, n) })
		if len(batch) > 0 && send() != nil {
			readErr = errStop
		}
	}()
	defer func() { // also when fn panics: the reader ends before its part is closed
		close(stop)
		for range batches {
		}
	}()
	for batch := range batches {
		for _, r := range batch {
			if err := fn(r.row, r.cells, r.issues); err != nil {
				return err
			}
		}
	}
	// batches is closed: readErr and kept are the reader's last words.
	if readErr != nil {
		return readErr
	}
	for _, n := range kept {
		notes(n)
	}
	return nil
}

func sortMerges(m []mergeRange) {
	sort.SliceStable(m, func(i, j int) bool { return m[i].r1 < m[j].r1 })
}

func (s *sheetReader) run(ctx context.Context, fn rowFunc, notes func(sheetNote)) error {
	var (
		inData, ended bool
		row, lastRow  int
		dimRow        int
		rows          int
		emitted       int
	)
	for {
		tok, err := s.d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, errPartTooLarge) {
				return &readError{row: lastRow + 1, col: -1, code: CodeTooLarge,
					en: fmt.Sprintf("the sheet unpacks to more than the limit of %s; split the workbook or raise the limit.", humanBytes(s.b.opt.UnzipSizeLimit)),
					zh: fmt.Sprintf("该表解压后超过上限 %s；请拆分工作簿或调高上限。", humanBytes(s.b.opt.UnzipSizeLimit))}
			}
			cause, causeZH := xmlCause(err)
			return damaged(lastRow+1, cause, causeZH)
		}
		switch t := tok.(type) {
		case xml.Directive:
			if isDoctype(t) {
				return damaged(lastRow+1, "it declares a DOCTYPE with entity definitions, which no spreadsheet writer emits", "声明了 DOCTYPE 实体定义，任何表格软件都不会写出")
			}
		case xml.StartElement:
			switch t.Name.Local {
			case "dimension":
				for _, a := range t.Attr {
					if a.Name.Local == "ref" {
						_, last, _ := strings.Cut(a.Value, ":")
						if last == "" {
							last = a.Value
						}
						_, dimRow, _ = cellRef(last)
					}
				}
			case "sheetData":
				inData = true
			case "row":
				if !inData {
					continue
				}
				row = lastRow + 1
				hidden := false
				for _, a := range t.Attr {
					if a.Name.Local == "hidden" {
						hidden = a.Value == "1" || strings.EqualFold(a.Value, "true")
					}
					if a.Name.Local == "r" {
						r, err := strconv.Atoi(a.Value)
						if err != nil || r < 1 || r > maxRows {
							return damaged(lastRow+1, fmt.Sprintf("a row numbered %q", a.Value), fmt.Sprintf("行号“%s”无效", a.Value))
						}
						row = r
					}
				}
				if row <= lastRow {
					return damaged(row, fmt.Sprintf("row %d comes after row %d", row, lastRow), fmt.Sprintf("第 %d 行出现在第 %d 行之后", row, lastRow))
				}
				if err := s.readRow(row, t); err != nil {
					return err
				}
				lastRow = row
				rows++
				if rows&1023 == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				cells, issues := s.finishRow(row)
				if blank(cells) && len(issues) == 0 {
					continue
				}
				if hidden && s.skipHidden(row, emitted) {
					continue
				}
				emitted++
				if err := fn(row, cells, issues); err != nil {
					return err
				}
			}
		case xml.EndElement:
			if t.Name.Local == "sheetData" {
				ended = true
			}
		}
		if ended {
			break
		}
	}
	if !ended {
		if inData {
			return damaged(lastRow+1, "the sheet's data is cut short", "工作表数据被截断")
		}
		return damaged(0, "the sheet has no data section", "工作表缺少数据部分")
	}
	if notes == nil {
		return nil
	}
	if s.filled > 0 {
		notes(sheetNote{code: CodeMergedCells, severity: SeverityWarning,
			en: fmt.Sprintf("%d merged range(s) were filled from their first cell (first: %s), so every row they cover has the value.", s.filled, s.firstRef),
			zh: fmt.Sprintf("有 %d 个合并单元格区域按其首个单元格的值填充（首个：%s），所覆盖的每一行都取该值。", s.filled, s.firstRef)})
	}
	if s.hiddenRows > 0 {
		notes(s.hiddenNote())
	}
	if dimRow > lastRow {
		notes(sheetNote{row: lastRow + 1, code: CodeCorrupt, severity: SeverityWarning,
			en: fmt.Sprintf("the sheet says it reaches row %d, but its data ends at row %d; rows may be missing. Check the file in Excel.", dimRow, lastRow),
			zh: fmt.Sprintf("该表声明数据到第 %d 行，但实际数据止于第 %d 行，可能缺行；请在 Excel 中检查该文件。", dimRow, lastRow)})
	}
	return nil
}

// skipHidden says whether a hidden row is left unread: a row filtered out
// or hidden by hand is not seen by the officer, so it must not decide the
// verdict, exactly like a hidden sheet. The header row (the first row read)
// is read even when hidden, since without it nothing can be.
func (s *sheetReader) skipHidden(row, emitted int) bool {
	if s.keepHidden || emitted == 0 {
		return false
	}
	s.hiddenRows++
	if len(s.hiddenFirst) < maxListedRows {
		s.hiddenFirst = append(s.hiddenFirst, row)
	}
	return true
}

// maxListedRows bounds the rows a warning lists by number.
const maxListedRows = 10

func (s *sheetReader) hiddenNote() sheetNote {
	list := make([]string, len(s.hiddenFirst))
	for i, r := range s.hiddenFirst {
		list[i] = strconv.Itoa(r)
	}
	rows := strings.Join(list, ", ")
	if s.hiddenRows > len(s.hiddenFirst) {
		rows += ", …"
	}
	return sheetNote{row: s.hiddenFirst[0], code: CodeHiddenRows, severity: SeverityWarning,
		en: fmt.Sprintf("%d row(s) are hidden by a filter or by hand (rows %s), so they are not read: rows nobody sees must not decide the verdict. Clear the filter or unhide them in Excel, or choose to read hidden sheets and rows, if they belong to the evaluation.", s.hiddenRows, rows),
		zh: fmt.Sprintf("有 %d 行被筛选或手动隐藏（第 %s 行），未被读取：看不见的行不应左右评估结论。如这些行属于评估内容，请在 Excel 中清除筛选或取消隐藏，或选择读取隐藏的工作表和行。", s.hiddenRows, rows)}
}

// readRow reads the cells of one <row>.
func (s *sheetReader) readRow(row int, start xml.StartElement) error {
	s.cells, s.issues = s.cells[:0], nil
	col := 0
	for {
		tok, err := s.d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			cause, causeZH := xmlCause(err)
			return damaged(row, cause, causeZH)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "c" {
				if err := s.d.Skip(); err != nil {
					cause, causeZH := xmlCause(err)
					return damaged(row, cause, causeZH)
				}
				continue
			}
			c, err := s.readCell(row, col, t)
			if err != nil {
				return err
			}
			col = c
		case xml.EndElement:
			if t.Name.Local == "row" {
				return nil
			}
		}
	}
}

// readCell reads one <c> and returns its column.
func (s *sheetReader) readCell(row, prevCol int, start xml.StartElement) (int, error) {
	col := prevCol + 1
	var typ, ref string
	style := 0
	for _, a := range start.Attr {
		switch a.Name.Local {
		case "r":
			c, r, ok := cellRef(a.Value)
			if !ok || r != 0 && r != row {
				return 0, damaged(row, fmt.Sprintf("a cell named %q in row %d", a.Value, row), fmt.Sprintf("第 %d 行中的单元格名“%s”无效", row, a.Value))
			}
			col, ref = c, a.Value
		case "t":
			typ = a.Value
		case "s":
			style, _ = strconv.Atoi(a.Value)
		}
	}
	if col > maxCols {
		return 0, damaged(row, "a cell beyond column XFD", "单元格超出 XFD 列")
	}
	if ref == "" {
		ref = cellName(col, row)
	}
	var (
		v, inline       []byte
		hasV, hasF      bool
		where, phonetic int // 1 in <v>, 2 in <is><t>
		cuts            = s.cr.cuts
	)
	for depth := 1; depth > 0; {
		tok, err := s.d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			cause, causeZH := xmlCause(err)
			return 0, damaged(row, cause+" (cell "+ref+")", causeZH+"（单元格 "+ref+"）")
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch t.Name.Local {
			case "v":
				hasV, where = true, 1
			case "f":
				hasF = true
			case "rPh":
				phonetic++
			case "t":
				if phonetic == 0 {
					where = 2
				}
			}
		case xml.EndElement:
			depth--
			switch t.Name.Local {
			case "v", "t":
				where = 0
			case "rPh":
				phonetic--
			}
		case xml.CharData:
			switch where {
			case 1:
				v = appendCapped(v, t)
			case 2:
				inline = appendCapped(inline, t)
			}
		}
	}
	long := s.cr.cuts > cuts
	var val string
	switch typ {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(string(v)))
		if !hasV {
			break
		}
		if err != nil || s.b.sst == nil {
			return 0, damaged(row, fmt.Sprintf("cell %s names shared string %q, which does not exist", ref, v), fmt.Sprintf("单元格 %s 引用的共享文本“%s”不存在", ref, v))
		}
		str, cut, err := s.b.sst.get(i)
		if err != nil {
			if strings.HasPrefix(err.Error(), "ingest:") {
				return 0, err
			}
			return 0, damaged(row, "cell "+ref+" "+err.Error(), "单元格 "+ref+" 引用的共享文本不存在")
		}
		val, long = str, long || cut
	case "inlineStr":
		val = s.b.cells.Cell(typ, string(inline), style)
	default:
		val = s.b.cells.Cell(typ, string(v), style)
	}
	if v2, cut := capCell(val); cut {
		val, long = v2, true
	}
	if long {
		s.issues = append(s.issues, tooLongIssue(col-1, ref))
	}
	if hasF && !hasV {
		s.issues = append(s.issues, cellIssue{col: col - 1, code: CodeUncachedFormula, severity: SeverityWarning,
			en: fmt.Sprintf("cell %s holds a formula saved without its value (the file was written by a program that does not calculate), so it reads as empty; open the file in Excel, let it calculate, and save it.", ref),
			zh: fmt.Sprintf("单元格 %s 含公式但未保存计算结果（文件由不计算公式的程序写出），读作空值；请用 Excel 打开、待其计算后保存。", ref)})
	}
	if strings.TrimSpace(val) != "" {
		s.cells = append(s.cells, cellVal{col: col, val: val})
		if col > s.maxCol {
			s.maxCol = col
		}
	}
	return col, nil
}

// finishRow fills merged ranges and lays the row out by column. Blank
// cells (empty or whitespace) are not laid out, so a row whose only cell is
// a blank at XFD costs nothing.
func (s *sheetReader) finishRow(row int) ([]string, []cellIssue) {
	// Activate the ranges starting on this row: their first cell is here.
	for s.nextM < len(s.merges) && s.merges[s.nextM].r1 <= row {
		m := s.merges[s.nextM]
		s.nextM++
		if m.r1 != row {
			continue // its first row had no cells: nothing to fill with
		}
		for _, c := range s.cells {
			if c.col == m.c1 {
				s.active = append(s.active, activeMerge{m, c.val})
				if s.filled == 0 {
					s.firstRef = cellName(m.c1, m.r1) + ":" + cellName(m.c2, m.r2)
				}
				s.filled++
			}
		}
	}
	keep := s.active[:0]
	if len(s.active) > 0 {
		if len(s.taken) < s.maxCol+1 {
			s.taken = make([]bool, s.maxCol+1)
		}
		for _, c := range s.cells {
			s.taken[c.col] = true
		}
		for _, m := range s.active {
			if m.r2 < row {
				continue
			}
			keep = append(keep, m)
			for c := m.c1; c <= m.c2 && c <= s.maxCol; c++ {
				if !s.taken[c] {
					s.taken[c] = true
					s.cells = append(s.cells, cellVal{col: c, val: m.val})
				}
			}
		}
		for _, c := range s.cells {
			s.taken[c.col] = false
		}
	}
	s.active = keep
	last := 0
	for _, c := range s.cells {
		last = max(last, c.col)
	}
	out := make([]string, last)
	for _, c := range s.cells {
		out[c.col-1] = c.val
	}
	return out, s.issues
}
