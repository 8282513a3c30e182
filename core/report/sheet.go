package report

import (
	"fmt"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/result"
)

// styles are the cell styles of the report, created once per file.
type styles struct {
	title, subtitle, header, label, text, wrap, num, num1, integer, pct, na, note int
	// headerNum is a header over numbers: right-aligned like them.
	headerNum, headerSmall int
	// The Summary page's own: a loud notice, the headline sentence, small
	// dark text for meanings and the footer, a one-decimal score.
	notice, headline, small, score, labelWrap, body, pageTitle int
	missFmt                                                    int // conditional format: a retrieval miss
	// safeText and safeWrap carry quotePrefix: text that starts like a
	// formula stays text even when a user edits the cell in Excel.
	safeText, safeWrap         int
	sevHigh, sevMedium, sevLow int
	verdict                    map[result.VerdictCode]int // verdict code → style
}

func newStyles(f *excelize.File) (styles, error) {
	var st styles
	var firstErr error
	mk := func(s *excelize.Style) int {
		id, err := f.NewStyle(s)
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("report: style: %w", err)
		}
		return id
	}
	two, one := "0.00", "0.0"
	top := &excelize.Alignment{Vertical: "top"}
	wrap := &excelize.Alignment{Vertical: "top", WrapText: true}
	thin := []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}}
	st.title = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 18, Color: "1F3864"}})
	st.subtitle = mk(&excelize.Style{Font: &excelize.Font{Size: 10, Color: "595959"}})
	st.header = mk(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"D9E1F2"}},
		Border: thin, Alignment: &excelize.Alignment{Vertical: "center", WrapText: true}})
	st.headerNum = mk(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"D9E1F2"}},
		Border: thin, Alignment: &excelize.Alignment{Vertical: "center", Horizontal: "right", WrapText: true}})
	st.headerSmall = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 9}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"D9E1F2"}},
		Border: thin, Alignment: &excelize.Alignment{Vertical: "bottom", Horizontal: "right", WrapText: true}})
	st.notice = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 9.5, Color: "7F3F00"}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFF2CC"}},
		Border:    []excelize.Border{{Type: "left", Color: "E69500", Style: 5}},
		Alignment: &excelize.Alignment{Vertical: "center", WrapText: true, Indent: 1}})
	st.headline = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 11, Color: "1F3864"}, Alignment: &excelize.Alignment{Vertical: "center", WrapText: true}})
	st.small = mk(&excelize.Style{Font: &excelize.Font{Size: 9, Color: "404040"}, Alignment: wrap})
	st.score = mk(&excelize.Style{CustomNumFmt: &one, Font: &excelize.Font{Bold: true}, Alignment: &excelize.Alignment{Vertical: "top", Horizontal: "right"}})
	if id, err := f.NewConditionalStyle(&excelize.Style{Font: &excelize.Font{Color: "9C0006", Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFC7CE"}}}); err == nil {
		st.missFmt = id
	} else if firstErr == nil {
		firstErr = fmt.Errorf("report: style: %w", err)
	}
	st.pageTitle = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 16, Color: "1F3864"}, Alignment: &excelize.Alignment{Vertical: "center", ShrinkToFit: true}})
	st.body = mk(&excelize.Style{Font: &excelize.Font{Size: 9.5}, Alignment: wrap})
	st.labelWrap = mk(&excelize.Style{Font: &excelize.Font{Bold: true}, Alignment: wrap})
	st.label = mk(&excelize.Style{Font: &excelize.Font{Bold: true}, Alignment: top})
	st.text = mk(&excelize.Style{Alignment: top})
	st.wrap = mk(&excelize.Style{Alignment: wrap})
	st.num = mk(&excelize.Style{CustomNumFmt: &two, Alignment: top})
	st.num1 = mk(&excelize.Style{CustomNumFmt: &one, Alignment: top})
	st.integer = mk(&excelize.Style{NumFmt: 1, Alignment: top})
	st.pct = mk(&excelize.Style{NumFmt: 10, Alignment: top})
	st.na = mk(&excelize.Style{Font: &excelize.Font{Italic: true, Color: "808080"}, Alignment: &excelize.Alignment{Vertical: "top", Horizontal: "right"}})
	st.note = mk(&excelize.Style{Font: &excelize.Font{Italic: true, Size: 9, Color: "595959"}, Alignment: wrap})
	sev := func(color string) int {
		return mk(&excelize.Style{Font: &excelize.Font{Bold: true, Color: "FFFFFF"}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}},
			Alignment: &excelize.Alignment{Vertical: "top", Horizontal: "center"}})
	}
	st.sevHigh, st.sevMedium, st.sevLow = sev("C00000"), sev("ED7D31"), sev("70AD47")
	st.verdict = map[result.VerdictCode]int{}
	for code, color := range map[result.VerdictCode]string{result.Deployable: "2E7D32", result.NeedsWork: "E69500", result.NotReady: "C62828", result.Undetermined: "757575"} {
		st.verdict[code] = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 22, Color: "FFFFFF"},
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}},
			Alignment: &excelize.Alignment{Horizontal: "left", Vertical: "center", WrapText: true, Indent: 1}})
	}
	// A Protection block keeps these two apart from text and wrap when
	// excelize de-duplicates styles; quotePrefix is not in excelize.Style,
	// so it is set on the cell format directly.
	locked := &excelize.Protection{Locked: true}
	st.safeText = mk(&excelize.Style{Alignment: top, Protection: locked})
	st.safeWrap = mk(&excelize.Style{Alignment: wrap, Protection: locked})
	if firstErr != nil {
		return st, firstErr
	}
	yes := true
	for _, id := range []int{st.safeText, st.safeWrap} {
		if f.Styles == nil || f.Styles.CellXfs == nil || id >= len(f.Styles.CellXfs.Xf) {
			return st, fmt.Errorf("report: style %d not found for quote prefix", id)
		}
		f.Styles.CellXfs.Xf[id].QuotePrefix = &yes
	}
	return st, nil
}

// pct marks a share in [0, 1] to be shown as a percentage.
type pct struct{ v *float64 }

// styled is a value with an explicit style.
type styled struct {
	v     any
	style int
}

// cell turns a report value into an excelize value and style: nil, a
// string, a float64 or an int. Strings are clipped to the cell limit and,
// when they start like a formula, get the quote-prefix style; nil numbers
// become "n/a". wrapText chooses wrapped text for strings.
func (w *writer) cell(v any, wrapText bool, sheet string, col, row int) (any, int) {
	switch x := v.(type) {
	case nil:
		return nil, 0
	case styled:
		val, st := w.cell(x.v, wrapText, sheet, col, row)
		if x.style != 0 {
			st = x.style
		}
		return val, st
	case rawNumber:
		return float64(x), 0
	case string:
		if x == "" {
			return nil, 0
		}
		return w.textCell(x, wrapText, sheet, col, row)
	case *float64:
		if x == nil {
			return w.na(), w.st.na
		}
		return *x, w.st.num
	case pct:
		if x.v == nil {
			return w.na(), w.st.na
		}
		return *x.v, w.st.pct
	case float64:
		return x, w.st.num
	case int:
		return x, w.st.integer
	}
	return fmt.Sprint(v), w.st.text
}

// textCell is a non-empty string's cell: clipped to the cell limit (noted
// for the Problems sheet), quote-prefixed when it starts like a formula.
func (w *writer) textCell(x string, wrapText bool, sheet string, col, row int) (string, int) {
	s, ok := clip(x)
	if !ok {
		ref, _ := excelize.CoordinatesToCellName(col, row)
		w.truncated = append(w.truncated, clipNote{sheet: sheet, cell: ref, chars: utf8.RuneCountInString(x)})
	}
	switch {
	case formulaLike(s) && wrapText:
		return s, w.st.safeWrap
	case formulaLike(s):
		return s, w.st.safeText
	case wrapText:
		return s, w.st.wrap
	}
	return s, w.st.text
}

// grid writes rows into an ordinary (not streamed) sheet: the small sheets
// with charts, merged cells and mixed layouts.
type grid struct {
	w     *writer
	name  string
	row   int  // next row, 1-based
	wrap  bool // wrap strings
	first error
	// heights are the row heights set, in points.
	heights map[int]float64
}

func (w *writer) grid(name string) *grid { return &grid{w: w, name: name, row: 1} }

// line writes cells from column A on the next row and returns that row.
func (g *grid) line(cells ...any) int {
	r := g.row
	g.at(r, 1, cells...)
	g.row++
	return r
}

// at writes cells from column col on row r.
func (g *grid) at(r, col int, cells ...any) {
	for i, c := range cells {
		if c == nil {
			continue
		}
		ref, _ := excelize.CoordinatesToCellName(col+i, r)
		v, style := g.w.cell(c, g.wrap, g.name, col+i, r)
		g.err(g.w.f.SetCellValue(g.name, ref, v))
		if style != 0 {
			g.err(g.w.f.SetCellStyle(g.name, ref, ref, style))
		}
	}
}

func (g *grid) skip(n int) { g.row += n }

// height sets row r's height in points.
func (g *grid) height(r int, pt float64) {
	pt = min(pt, 409)
	if g.heights == nil {
		g.heights = map[int]float64{}
	}
	g.heights[r] = pt
	g.err(g.w.f.SetRowHeight(g.name, r, pt))
}

// used is the height in points of rows 1..r-1, as set (default rows 15).
func (g *grid) used(r int) float64 {
	sum := 0.0
	for i := 1; i < r; i++ {
		if h, ok := g.heights[i]; ok {
			sum += h
		} else {
			sum += defaultRowPt
		}
	}
	return sum
}

func (g *grid) err(err error) {
	if err != nil && g.first == nil {
		g.first = fmt.Errorf("report: sheet %q: %w", g.name, err)
	}
}

// widths sets column widths from column A.
func (g *grid) widths(ws ...float64) {
	for i, wd := range ws {
		c, _ := excelize.ColumnNumberToName(i + 1)
		g.err(g.w.f.SetColWidth(g.name, c, c, wd))
	}
}

// stream writes rows into a streamed sheet: constant memory per row. The
// sheet's StreamWriter writes its frame (columns, panes, and the filter,
// conditional formats and print setup set on the sheet before); its rows go
// through a rowWriter and are spliced in when the file is saved.
type stream struct {
	w      *writer
	name   string
	sw     *excelize.StreamWriter
	rows   *rowWriter
	row    int // next row, 1-based
	wrap   bool
	height float64 // of the rows written next, in points; 0 for the default
}

// stream opens a sheet for streaming. Filters, conditional formats and
// column widths must be set before (they are written from the sheet's
// settings at the start and end of the stream).
func (w *writer) stream(name string, widths []float64, freeze bool) (*stream, error) {
	sw, err := w.f.NewStreamWriter(name)
	if err != nil {
		return nil, fmt.Errorf("report: sheet %q: %w", name, err)
	}
	for i, wd := range widths {
		if err := sw.SetColWidth(i+1, i+1, wd); err != nil {
			return nil, fmt.Errorf("report: sheet %q: %w", name, err)
		}
	}
	if freeze {
		if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
			return nil, fmt.Errorf("report: sheet %q: %w", name, err)
		}
	}
	rows, err := newRowWriter()
	if err != nil {
		return nil, fmt.Errorf("report: sheet %q: %w", name, err)
	}
	if w.bodies == nil {
		w.bodies = map[string]*rowWriter{}
	}
	w.bodies[sheetPart(sw)] = rows
	return &stream{w: w, name: name, sw: sw, rows: rows, row: 1}, nil
}

// line streams one row.
func (s *stream) line(cells ...any) error {
	s.begin()
	for i, c := range cells {
		col := i + 1
		if x, ok := c.(string); ok { // most cells: no second boxing through cell
			s.text(col, x)
			continue
		}
		switch v, style := s.w.cell(c, s.wrap, s.name, col, s.row); x := v.(type) {
		case nil:
		case string:
			s.rows.text(col, s.row, style, x)
		case float64:
			s.rows.number(col, s.row, style, x)
		case int:
			s.rows.integer(col, s.row, style, x)
		default:
			s.rows.err = fmt.Errorf("no cell for %T", v)
		}
	}
	return s.end()
}

// begin starts a row; text, raw and integer fill its cells in column
// order; end finishes it. For the largest sheets: no []any per row.
func (s *stream) begin() { s.rows.startRow(s.row, s.height) }

// text writes a string cell as cell does (nothing when empty).
func (s *stream) text(col int, x string) {
	if x != "" {
		v, style := s.w.textCell(x, s.wrap, s.name, col, s.row)
		s.rows.text(col, s.row, style, v)
	}
}

// raw writes a data value in General format (rawNum).
func (s *stream) raw(col int, v float64) { s.rows.number(col, s.row, 0, v) }

// integer writes an int as cell does.
func (s *stream) integer(col, v int) { s.rows.integer(col, s.row, s.w.st.integer, v) }

func (s *stream) end() error {
	r := s.row
	s.row++
	s.rows.endRow()
	if r > maxDataRows+1 {
		return fmt.Errorf("report: sheet %q row %d: %w", s.name, r, excelize.ErrMaxRows)
	}
	if s.rows.err != nil {
		return fmt.Errorf("report: sheet %q row %d: %w", s.name, r, s.rows.err)
	}
	return nil
}

func (s *stream) header(names ...string) error {
	cells := make([]any, len(names))
	for i, n := range names {
		cells[i] = styled{n, s.w.st.header}
	}
	return s.line(cells...)
}

func (s *stream) flush() error {
	if err := s.sw.Flush(); err != nil {
		return fmt.Errorf("report: sheet %q: %w", s.name, err)
	}
	if err := s.rows.finish(); err != nil {
		return fmt.Errorf("report: sheet %q: %w", s.name, err)
	}
	return nil
}

// colName is the letter name of a 1-based column.
func colName(c int) string {
	n, _ := excelize.ColumnNumberToName(c)
	return n
}

// ref renders an absolute range on a sheet for chart series.
func ref(sheet string, col1, row1, col2, row2 int) string {
	return fmt.Sprintf("'%s'!$%s$%d:$%s$%d", sheet, colName(col1), row1, colName(col2), row2)
}
