package report

// Print setup helpers (issue 15): A4, orientation, fit, print titles, print
// area and margins for one sheet, and the page arithmetic that tells whether
// an anchored chart or picture would be cut by a page break. They take a
// bare *excelize.File and a sheet name, so any sheet writer can use them.

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/text"
)

// A4 in points (1/72 inch), portrait.
const (
	A4WidthPt  = 595.28
	A4HeightPt = 841.89
	paperA4    = 9 // ECMA-376 §18.3.1.63 paperSize: 9 = A4 210 × 297 mm
)

// Margins of a printed page, in inches as OOXML stores them. Header and
// Footer are where the header and footer text sit, inside Top and Bottom.
type Margins struct {
	Top, Bottom, Left, Right, Header, Footer float64
}

// DefaultMargins are narrow but printable on office printers (≈ 12.7 mm top
// and bottom, 10 mm left and right).
var DefaultMargins = Margins{Top: 0.5, Bottom: 0.5, Left: 0.4, Right: 0.4, Header: 0.25, Footer: 0.25}

// Fit is how a sheet is scaled to the paper.
type Fit int

const (
	FitNone  Fit = iota // print at 100 %
	FitWidth            // all columns on one page wide, as many pages down as needed
	FitPage             // the whole sheet (or print area) on one page
)

// PrintSetup is everything SetPrint applies to one sheet.
type PrintSetup struct {
	Landscape bool
	Fit       Fit
	// TitleRows are the first and last (1-based) rows repeated at the top of
	// every printed page; {0, 0} repeats none.
	TitleRows [2]int
	// Area is the print area, e.g. "A1:H60"; "" prints the used range.
	Area    string
	Margins *Margins // nil: DefaultMargins
}

// SetPrint applies s to sheet: A4, orientation, fit, margins, print titles
// and print area.
func SetPrint(f *excelize.File, sheet string, s PrintSetup) error {
	m := DefaultMargins
	if s.Margins != nil {
		m = *s.Margins
	}
	if err := SetA4(f, sheet, s.Landscape); err != nil {
		return err
	}
	if err := SetFit(f, sheet, s.Fit); err != nil {
		return err
	}
	if err := SetMargins(f, sheet, m); err != nil {
		return err
	}
	if s.TitleRows != [2]int{} {
		if err := SetPrintTitles(f, sheet, s.TitleRows[0], s.TitleRows[1]); err != nil {
			return err
		}
	}
	if s.Area != "" {
		if err := SetPrintArea(f, sheet, s.Area); err != nil {
			return err
		}
	}
	return nil
}

func printErr(sheet, what string, err error) error {
	return text.NewError(text.New(fmt.Sprintf("工作表 %q 的打印设置（%s）失败", sheet, what),
		fmt.Sprintf("report: print setup (%s) of sheet %q failed", what, sheet)), err)
}

// SetA4 sets the paper to A4 in the given orientation.
func SetA4(f *excelize.File, sheet string, landscape bool) error {
	size, o := paperA4, "portrait"
	if landscape {
		o = "landscape"
	}
	if err := f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Size: &size, Orientation: &o}); err != nil {
		return printErr(sheet, "A4", err)
	}
	return nil
}

// SetFit scales the sheet to the paper. Excel and LibreOffice honour
// fitToWidth/fitToHeight only with sheetPr/pageSetUpPr fitToPage set; 0 pages
// means "automatic" (as many as needed).
func SetFit(f *excelize.File, sheet string, fit Fit) error {
	on := fit != FitNone
	if err := f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &on}); err != nil {
		return printErr(sheet, "fit", err)
	}
	if !on {
		return nil
	}
	w, h := 1, 1
	if fit == FitWidth {
		h = 0
	}
	if err := f.SetPageLayout(sheet, &excelize.PageLayoutOptions{FitToWidth: &w, FitToHeight: &h}); err != nil {
		return printErr(sheet, "fit", err)
	}
	return nil
}

// SetMargins sets the page margins (inches).
func SetMargins(f *excelize.File, sheet string, m Margins) error {
	if m.Header > m.Top || m.Footer > m.Bottom || m.Top < 0 || m.Bottom < 0 || m.Left < 0 || m.Right < 0 {
		return printErr(sheet, "margins", fmt.Errorf("header/footer must sit inside non-negative margins: %+v", m))
	}
	if err := f.SetPageMargins(sheet, &excelize.PageLayoutMarginsOptions{
		Top: &m.Top, Bottom: &m.Bottom, Left: &m.Left, Right: &m.Right, Header: &m.Header, Footer: &m.Footer,
	}); err != nil {
		return printErr(sheet, "margins", err)
	}
	return nil
}

// quoteSheet is sheet as a formula reference needs it: always quoted, with
// quotes doubled (our sheet names hold spaces and Han).
func quoteSheet(sheet string) string { return "'" + strings.ReplaceAll(sheet, "'", "''") + "'" }

// SetPrintTitles repeats rows first..last (1-based) at the top of every page.
func SetPrintTitles(f *excelize.File, sheet string, first, last int) error {
	if first < 1 || last < first {
		return printErr(sheet, "print titles", fmt.Errorf("rows %d–%d", first, last))
	}
	return setSheetName(f, sheet, "_xlnm.Print_Titles", fmt.Sprintf("%s!$%d:$%d", quoteSheet(sheet), first, last))
}

// SetPrintArea limits printing to ref ("A1:H60").
func SetPrintArea(f *excelize.File, sheet, ref string) error {
	c1, c2, ok := strings.Cut(ref, ":")
	if !ok {
		c2 = c1
	}
	x1, y1, err1 := excelize.CellNameToCoordinates(c1)
	x2, y2, err2 := excelize.CellNameToCoordinates(c2)
	if err1 != nil || err2 != nil || x2 < x1 || y2 < y1 {
		return printErr(sheet, "print area", fmt.Errorf("not a range: %q", ref))
	}
	abs := func(x, y int) string {
		n, _ := excelize.ColumnNumberToName(x)
		return fmt.Sprintf("$%s$%d", n, y)
	}
	return setSheetName(f, sheet, "_xlnm.Print_Area", fmt.Sprintf("%s!%s:%s", quoteSheet(sheet), abs(x1, y1), abs(x2, y2)))
}

// setSheetName sets a sheet-scoped defined name, replacing an earlier one.
func setSheetName(f *excelize.File, sheet, name, refersTo string) error {
	dn := &excelize.DefinedName{Name: name, RefersTo: refersTo, Scope: sheet}
	_ = f.DeleteDefinedName(&excelize.DefinedName{Name: name, Scope: sheet}) // absent is fine
	if err := f.SetDefinedName(dn); err != nil {
		return printErr(sheet, name, err)
	}
	return nil
}

// PrintableHeight is the height in points left for rows on an A4 page with
// margins m (header and footer sit inside the top and bottom margins).
func PrintableHeight(landscape bool, m Margins) float64 {
	h := A4HeightPt
	if landscape {
		h = A4WidthPt
	}
	return h - (m.Top+m.Bottom)*72
}

// PrintableWidth is the width in points left for columns.
func PrintableWidth(landscape bool, m Margins) float64 {
	w := A4WidthPt
	if landscape {
		w = A4HeightPt
	}
	return w - (m.Left+m.Right)*72
}

// ColWidthPt converts an Excel column width (in characters) to points the
// way excelize does when it turns a chart's or picture's pixel size into the
// cells of its anchor (8 px per character at 96 px per inch). Renderers
// differ: Excel with Calibri draws about 7 px per character + 5, LibreOffice
// without Carlito about 9; an anchor stays on its cells in all of them, and
// fit-to-page absorbs the rest.
func ColWidthPt(chars float64) float64 { return math.Trunc(chars*8+0.5) * 0.75 }

// PxToPt converts excelize's chart and picture pixels (96 per inch) to points.
func PxToPt(px float64) float64 { return px * 0.75 }

// RowHeights returns the heights in points of rows 1..n of sheet, the
// default height for rows never set.
func RowHeights(f *excelize.File, sheet string, n int) ([]float64, error) {
	hs := make([]float64, n)
	for r := 1; r <= n; r++ {
		h, err := f.GetRowHeight(sheet, r)
		if err != nil {
			return nil, printErr(sheet, "row heights", err)
		}
		hs[r-1] = h
	}
	return hs, nil
}

// PageStarts splits rows into printed pages as Excel and LibreOffice do
// without manual breaks: whole rows, as many as fit in pageHeight points
// (already divided by the print scale), the pages after the first losing
// titleHeight to the repeated title rows. heights[i] is row i+1; the result
// lists the 1-based first row of every page, starting with 1. A row taller
// than a page gets a page of its own.
func PageStarts(heights []float64, pageHeight, titleHeight float64) []int {
	starts := []int{1}
	room := pageHeight
	used := 0.0
	for i, h := range heights {
		if used > 0 && used+h > room+1e-9 {
			starts = append(starts, i+1)
			room, used = pageHeight-titleHeight, 0
		}
		used += h
	}
	return starts
}

// Anchor is where a chart or picture sits: its top-left cell (1-based row
// and column), its offsets from that cell's top-left corner and its size, in
// points (PxToPt converts excelize's pixels).
type Anchor struct {
	Row, Col        int
	OffsetY, Height float64
	OffsetX, Width  float64
}

// FitsColumns reports whether the object ends within the columns whose
// widths (points, ColWidthPt) are given: the print area's columns, so the
// printout does not clip it and fit-to-page does not shrink the page for it.
func (a Anchor) FitsColumns(widths []float64) bool {
	left, total := 0.0, 0.0
	for i, w := range widths {
		if i < a.Col-1 {
			left += w
		}
		total += w
	}
	return left+a.OffsetX+a.Width <= total+1e-9
}

// rowPx is a row's height in pixels as excelize counts it when it turns an
// object's pixel height into the rows of its anchor (rows.go,
// convertRowHeightToPixels: ceil(4/3.4 × points)); the object is then
// stretched over those rows by Excel and LibreOffice.
func rowPx(pt float64) float64 {
	if pt == 0 {
		return 0
	}
	return math.Ceil(4.0 / 3.4 * pt)
}

// Span returns the 1-based first and last rows the anchored object covers,
// counted as excelize anchors it: the object's pixels (Height / 0.75) laid
// over the rows' pixels. A last row past len(heights) means it runs off the
// rows given. Choose row heights whose pixels add up to the object's height
// (e.g. 18 pt rows are 22 px), or the object spills into the next row.
func (a Anchor) Span(heights []float64) (first, last int) {
	top := a.OffsetY / 0.75
	for i := 0; i < a.Row-1 && i < len(heights); i++ {
		top += rowPx(heights[i])
	}
	bottom := top + math.Round(a.Height/0.75)
	first, last = a.Row, a.Row
	y := 0.0
	for i, h := range heights {
		px := rowPx(h)
		if y <= top && top < y+px {
			first = i + 1
		}
		if y < bottom {
			last = i + 1
		}
		y += px
	}
	if bottom > y {
		last = len(heights) + 1
	}
	return first, last
}

// CrossesPageBreak reports whether the object would be cut: a page other
// than the first of its rows starts inside its span. An object running past
// the rows given counts as cut, since where those rows break is unknown.
func (a Anchor) CrossesPageBreak(heights []float64, starts []int) bool {
	first, last := a.Span(heights)
	if last > len(heights) {
		return true
	}
	for _, s := range starts {
		if s > first && s <= last {
			return true
		}
	}
	return false
}

// FitScale is the scale a fit-to-page printer applies to content of
// width × height points on a page of pageW × pageH: never above 1, never
// below Excel's 10 %.
func FitScale(width, height, pageW, pageH float64) float64 {
	s := 1.0
	if width > 0 {
		s = math.Min(s, pageW/width)
	}
	if height > 0 {
		s = math.Min(s, pageH/height)
	}
	return math.Max(s, 0.10)
}

// flatTxPr is a title's text properties as excelize 2.11.1 writes them
// beside the rich text's rot="-5400000": an empty txPr with rot="0", which
// LibreOffice obeys, so the y-axis title lies flat and wraps ("截尾均值（0–" /
// "10）", issue 15).
var flatTxPr = regexp.MustCompile(`<txPr><a:bodyPr([^>]*?) rot="0"([^>]*)>`)

// RotateValueAxisTitle returns a chart part (xl/charts/chartN.xml) whose
// value-axis title is rotated in its txPr too, so every reader draws it
// upright along the axis, unwrapped. Only the first title inside <valAx> is
// touched (not the chart's title, the category axis or the tick labels); a
// part without one is returned unchanged.
func RotateValueAxisTitle(chartXML []byte) []byte {
	s := string(chartXML)
	ax := strings.Index(s, "<valAx>")
	if ax < 0 {
		return chartXML
	}
	end := strings.Index(s[ax:], "</valAx>")
	open := strings.Index(s[ax:], "<title>")
	if end < 0 || open < 0 || open > end {
		return chartXML
	}
	open += ax
	closing := strings.Index(s[open:], "</title>")
	if closing < 0 {
		return chartXML
	}
	closing += open
	title := flatTxPr.ReplaceAllStringFunc(s[open:closing], func(m string) string {
		sub := flatTxPr.FindStringSubmatch(m)
		rest := sub[2]
		if !strings.Contains(rest, "vert=") {
			rest += ` vert="horz"`
		}
		return "<txPr><a:bodyPr" + sub[1] + ` rot="-5400000"` + rest + ">"
	})
	return []byte(s[:open] + title + s[closing:])
}
