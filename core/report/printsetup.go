package report

import (
	"fmt"
	"slices"

	"github.com/xuri/excelize/v2"
)

// How the report prints (issue 15). The Summary is one A4 portrait page.
// The analysis sheets print landscape, one page wide, their first row
// repeated on every page, with a manual page break before a table that
// would otherwise be cut. The data sheets (guides, qa, scores, human) stay
// in the workbook — re-opening the report must evaluate again with zero
// endpoint calls, and core/ingest leaves hidden sheets unread, so they can
// be neither hidden nor moved to a second file without breaking that — but
// their print area is their header row alone, under a page header saying
// they are data: printing the whole workbook adds one short page per data
// sheet instead of hundreds.

// A4 in points and the margins every sheet uses, in inches.
const (
	a4Short, a4Long                 = A4WidthPt, A4HeightPt
	marginSide, marginEnd, marginHF = 0.4, 0.5, 0.25
	// The Summary's top and bottom margins: a little narrower, for one
	// more reason on the page.
	marginEndSummary = 0.4
)

// printable is the area inside the margins, in points, of a page of an
// analysis sheet (landscape) or of the Summary (portrait).
func printable(landscape bool) (wd, ht float64) {
	if landscape {
		return a4Long - 2*marginSide*72, a4Short - 2*marginEnd*72
	}
	return a4Short - 2*marginSide*72, a4Long - 2*marginEndSummary*72
}

// pageSetup sets a sheet's paper, orientation, fit, margins and titles.
func (w *writer) pageSetup(name string) error {
	landscape := name != SheetSummary
	orient := "portrait"
	if landscape {
		orient = "landscape"
	}
	size := paperA4
	opt := &excelize.PageLayoutOptions{Orientation: &orient, Size: &size}
	one, auto := 1, 0
	yes := true
	opt.FitToWidth, opt.FitToHeight = &one, &auto
	if name == SheetSummary {
		opt.FitToHeight = &one
	}
	wrap := func(err error) error {
		if err != nil {
			return fmt.Errorf("report: sheet %q: %w", name, err)
		}
		return nil
	}
	props := &excelize.SheetPropsOptions{FitToPage: &yes}
	if isDataSheet(name) {
		grey := "FF808080"
		props.TabColorRGB = &grey
	}
	if err := wrap(w.f.SetSheetProps(name, props)); err != nil {
		return err
	}
	if err := wrap(w.f.SetPageLayout(name, opt)); err != nil {
		return err
	}
	side, end, hf := marginSide, marginEnd, marginHF
	if name == SheetSummary {
		end = marginEndSummary
	}
	if err := wrap(w.f.SetPageMargins(name, &excelize.PageLayoutMarginsOptions{Left: &side, Right: &side, Top: &end, Bottom: &end, Header: &hf, Footer: &hf})); err != nil {
		return err
	}
	hdr := &excelize.HeaderFooterOptions{OddFooter: "&L&8" + w.say(printCuBEEvaluationReport) + " · &A&R&8&P / &N"}
	if name == SheetSummary {
		hdr.OddFooter = "&L&8" + w.say(printMethodEveryJudge)
	}
	if isDataSheet(name) {
		hdr.OddHeader = "&L&9" + w.say(printDataSheetRe)
	}
	if err := wrap(w.f.SetHeaderFooter(name, hdr)); err != nil {
		return err
	}
	if name != SheetSummary {
		// Print titles: the first row (the sheet's title, or the header
		// of a table sheet) on every page.
		if err := wrap(w.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", Scope: name,
			RefersTo: fmt.Sprintf("'%s'!$1:$1", name)})); err != nil {
			return err
		}
	}
	return nil
}

// dataPrintAreas limits each data sheet's print area to its header row:
// set once the sheet is written, when its last column is known.
func (w *writer) dataPrintArea(name string, cols int) error {
	if err := w.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area", Scope: name,
		RefersTo: fmt.Sprintf("'%s'!$A$1:$%s$1", name, colName(max(cols, 1)))}); err != nil {
		return fmt.Errorf("report: sheet %q: %w", name, err)
	}
	return nil
}

// defaultRowPt is Excel's default row height.
const defaultRowPt = 15.0

// colPoints converts a column width in characters to points by Excel's
// pixel rule for its 11 pt Calibri (7 px a character + 5, 96 px per inch):
// the narrowest a column is drawn.
func colPoints(chars float64) float64 { return float64(int(chars*7+5)) * 0.75 }

// colPointsWidest is the widest a column is drawn: LibreOffice without
// Carlito, Calibri's metric twin, takes about 9 px a character (DejaVu
// Sans). A page that fits at this width prints at 100 % everywhere.
func colPointsWidest(chars float64) float64 { return chars * 9 * 0.75 }

// paginate puts a manual page break before every table of an analysis
// sheet that would cross the end of a page, when the table fits one page.
// The page height is measured at the scale fit-to-width prints at.
func (w *writer) paginate() error {
	names := make([]string, 0, len(w.blocks))
	for n := range w.blocks {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		rows, err := w.f.GetRows(name)
		if err != nil {
			return fmt.Errorf("report: sheet %q: %w", name, err)
		}
		cols := 0
		for _, r := range rows {
			cols = max(cols, len(r))
		}
		sheetW := 0.0
		for c := 1; c <= max(cols, 1); c++ {
			wd, err := w.f.GetColWidth(name, colName(c))
			if err != nil {
				return fmt.Errorf("report: sheet %q: %w", name, err)
			}
			sheetW += colPoints(wd)
		}
		pageW, pageH := printable(true)
		avail := pageH / min(1, pageW/sheetW)
		height := func(from, to int) float64 {
			sum := 0.0
			for r := from; r < to; r++ {
				h, _ := w.f.GetRowHeight(name, r)
				sum += h
			}
			return sum
		}
		titleH := height(1, 2)
		starts := w.blocks[name]
		ends := append(slices.Clone(starts[1:]), max(len(rows), starts[len(starts)-1])+1)
		pos := height(1, starts[0])
		for i, b := range starts {
			size := height(b, ends[i])
			switch {
			case pos+size <= avail:
				pos += size
			case size <= avail-titleH && pos > titleH:
				if err := w.f.InsertPageBreak(name, fmt.Sprintf("A%d", b)); err != nil {
					return fmt.Errorf("report: sheet %q: %w", name, err)
				}
				pos = titleH + size
			default: // taller than a page: it runs on
				pos = titleH + mathMod(pos+size-avail, avail-titleH)
			}
		}
	}
	return nil
}

func mathMod(a, b float64) float64 {
	for a > b && b > 0 {
		a -= b
	}
	return a
}

// SummaryOnly copies the report at src to dst with the Summary sheet
// alone: what "print the first page" gives, for a PDF of that page with
// any converter (LibreOffice prints every sheet of a file it converts).
func SummaryOnly(src, dst string) error {
	f, err := excelize.OpenFile(src)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	for _, name := range f.GetSheetList() {
		if name == SheetSummary {
			continue
		}
		if err := f.DeleteSheet(name); err != nil {
			return fmt.Errorf("report: sheet %q: %w", name, err)
		}
	}
	if err := f.SaveAs(dst); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
