package report

import (
	"fmt"
	"sort"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/chart"
)

// sheetPage is what one sheet of the report holds — its rows of cells with
// their looks, the merged ranges, row heights, the tables pagination keeps
// together, and the charts — built from the summary before a cell is
// written. A sheet is a function from the summary to its page (methodPage,
// judgePage …), which tests read without excelize; writePage lays any page
// out. The Summary has its own richer model (Page), shared with the brief.
// The streamed sheets (Items, Problems and the data sheets) keep their
// row-by-row writers: a model holding 100,000 rows would undo the flat
// memory streaming gives them (doc.go); Items' columns are a model of
// their own (itemsLayout).
type sheetPage struct {
	Name   string
	Widths []float64 // column widths from column A, in characters
	Rows   []pageRow
	// Merges are the merged ranges, in the order they were made.
	Merges [][2]string
	// Heights are the row heights set, in points (at most 409).
	Heights map[int]float64
	// Blocks are the first rows of the tables that pagination keeps on one
	// page when they fit one.
	Blocks   []int
	Drawings []pageDrawing
	// Formats are conditional formats by range ("B5:D7").
	Formats []pageFormat

	st   *styles // the looks cells are styled with
	row  int     // the next row, 1-based
	wrap bool    // wrap the text of the rows added next
}

// pageRow is cells from column Col on row Row: strings, numbers, *float64
// (nil is n/a), pct, int, or styled for a look of their own.
type pageRow struct {
	Row, Col int
	Cells    []any
	Wrap     bool // wrap the row's text
}

// pageFormat is a conditional format over a range of the sheet.
type pageFormat struct {
	Range string
	Opts  []excelize.ConditionalFormatOptions
}

// pageDrawing is a native Excel chart or a core/chart figure placed as a
// picture, at a cell.
type pageDrawing struct {
	Cell  string
	Chart *excelize.Chart
	// ErrBars are the plus and minus ranges spliced into the native chart
	// as custom error bars (errbars.go); empty for none.
	ErrBars [2]string
	Figure  func(chart.Options) (*chart.Figure, error)
	Alt     string
}

// newPage starts a sheet's page.
func (w *writer) newPage(name string, widths ...float64) *sheetPage {
	return &sheetPage{Name: name, Widths: widths, st: &w.st, row: 1}
}

// line adds cells from column A on the next row and returns that row.
func (p *sheetPage) line(cells ...any) int {
	r := p.row
	p.Rows = append(p.Rows, pageRow{Row: r, Col: 1, Cells: cells, Wrap: p.wrap})
	p.row++
	return r
}

// at adds cells from column col on row r, without moving the next row.
func (p *sheetPage) at(r, col int, cells ...any) {
	p.Rows = append(p.Rows, pageRow{Row: r, Col: col, Cells: cells, Wrap: p.wrap})
}

// header adds a header row.
func (p *sheetPage) header(names ...string) int { return p.headerN(len(names)+1, names...) }

// headerN adds a header row whose columns from col on (1-based) stand over
// numbers and are right-aligned like them.
func (p *sheetPage) headerN(col int, names ...string) int {
	cells := make([]any, len(names))
	for i, n := range names {
		st := p.st.header
		if i+1 >= col {
			st = p.st.headerNum
		}
		cells[i] = styled{n, st}
	}
	return p.line(cells...)
}

// title and label add a line of one styled cell.
func (p *sheetPage) title(s string) int { return p.line(styled{s, p.st.title}) }
func (p *sheetPage) label(s string) int { return p.line(styled{s, p.st.label}) }

func (p *sheetPage) skip(n int) { p.row += n }

// widths sets the column widths from column A.
func (p *sheetPage) widths(ws ...float64) { p.Widths = ws }

// format adds a conditional format over rng.
func (p *sheetPage) format(rng string, opts ...excelize.ConditionalFormatOptions) {
	p.Formats = append(p.Formats, pageFormat{Range: rng, Opts: opts})
}

// block marks the next row as the start of a table.
func (p *sheetPage) block() { p.Blocks = append(p.Blocks, p.row) }

// height sets row r's height in points.
func (p *sheetPage) height(r int, pt float64) {
	if p.Heights == nil {
		p.Heights = map[int]float64{}
	}
	p.Heights[r] = min(pt, 409)
}

// merge merges row r from column from to column to ("B", "F").
func (p *sheetPage) merge(r int, from, to string) {
	p.Merges = append(p.Merges, [2]string{fmt.Sprintf("%s%d", from, r), fmt.Sprintf("%s%d", to, r)})
}

// chart places a native chart at cell.
func (p *sheetPage) chart(cell string, c *excelize.Chart) {
	p.Drawings = append(p.Drawings, pageDrawing{Cell: cell, Chart: c})
}

// chartWithErrBars places a native chart at cell whose one series gets the
// plus and minus ranges as custom error bars.
func (p *sheetPage) chartWithErrBars(cell string, c *excelize.Chart, plus, minus string) {
	p.Drawings = append(p.Drawings, pageDrawing{Cell: cell, Chart: c, ErrBars: [2]string{plus, minus}})
}

// picture places a core/chart figure at cell.
func (p *sheetPage) picture(cell string, fig func(chart.Options) (*chart.Figure, error), alt string) {
	p.Drawings = append(p.Drawings, pageDrawing{Cell: cell, Figure: fig, Alt: alt})
}

// text is every string of the page in order, for tests.
func (p *sheetPage) text() []string {
	var out []string
	for _, r := range p.Rows {
		for _, c := range r.Cells {
			if s, ok := c.(styled); ok {
				c = s.v
			}
			if s, ok := c.(string); ok && s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// writePage lays a page out on its sheet.
func (w *writer) writePage(p *sheetPage) error {
	g := w.grid(p.Name)
	g.widths(p.Widths...)
	for _, r := range p.Rows {
		g.wrap = r.Wrap
		g.at(r.Row, r.Col, r.Cells...)
	}
	rows := make([]int, 0, len(p.Heights))
	for r := range p.Heights {
		rows = append(rows, r)
	}
	sort.Ints(rows)
	for _, r := range rows {
		g.height(r, p.Heights[r])
	}
	for _, m := range p.Merges {
		g.err(w.f.MergeCell(p.Name, m[0], m[1]))
	}
	for _, c := range p.Formats {
		g.err(w.f.SetConditionalFormat(p.Name, c.Range, c.Opts))
	}
	if g.first != nil {
		return g.first
	}
	if len(p.Blocks) > 0 {
		if w.blocks == nil {
			w.blocks = map[string][]int{}
		}
		w.blocks[p.Name] = append(w.blocks[p.Name], p.Blocks...)
	}
	for _, d := range p.Drawings {
		if err := w.draw(p.Name, d); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) draw(sheet string, d pageDrawing) error {
	if d.Figure != nil {
		return w.picture(sheet, d.Cell, d.Figure, d.Alt)
	}
	w.charts++
	if err := w.f.AddChart(sheet, d.Cell, d.Chart); err != nil {
		return fmt.Errorf("report: sheet %q: chart at %s: %w", sheet, d.Cell, err)
	}
	if d.ErrBars[0] != "" {
		w.errBars = append(w.errBars, errBars{chart: w.charts, plus: d.ErrBars[0], minus: d.ErrBars[1]})
	}
	return nil
}
