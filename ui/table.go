package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// rowsUpdated counts the list rows and table cells the window has filled
// (UI thread only). The responsiveness test reads it around every UI task:
// a task must fill about what is on screen, not every row of the data.
var rowsUpdated int

// column is one column of a sliceTable: a header and a cell reader.
type column struct {
	title string
	width float32
	cell  func(row int) string
}

// sliceTable is a widget.Table over a slice the caller owns: Length, Create
// and Update callbacks only, uniform row height, so 100k rows cost nothing
// until they scroll into view.
type sliceTable struct {
	*widget.Table
	cols []column
	rows func() int
}

func newSliceTable(cols []column, rows func() int) *sliceTable {
	t := &sliceTable{cols: cols, rows: rows}
	t.Table = widget.NewTableWithHeaders(
		func() (int, int) { return t.rows(), len(t.cols) },
		func() fyne.CanvasObject {
			return widget.NewLabel("") // cut to its cell by fitting (update)
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			rowsUpdated++
			l := o.(*widget.Label)
			if id.Row < 0 || id.Row >= t.rows() || id.Col < 0 || id.Col >= len(t.cols) {
				l.SetText("")
				return
			}
			// The cell is already sized to its column, which the user may have
			// dragged wider; Fyne's own ellipsis shapes the whole text at
			// every refresh (fittext.go).
			l.SetText(ellipsize(oneLine(t.cols[id.Col].cell(id.Row)), l.Size().Width-labelPadding(), runeAdvance(l.TextStyle)))
		})
	t.ShowHeaderColumn = false
	t.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		if id.Row == -1 && id.Col >= 0 && id.Col < len(t.cols) {
			l.SetText(t.cols[id.Col].title)
		} else {
			l.SetText("")
		}
	}
	for i, c := range cols {
		t.SetColumnWidth(i, c.width)
	}
	return t
}

// oneLine keeps a cell to one line and a bounded length, so that a 10 kB
// guide text does not cost a layout of 10 kB per visible cell.
func oneLine(s string) string {
	out := make([]rune, 0, 64)
	for _, r := range s {
		if r == '\n' || r == '\r' || r == '\t' {
			r = ' '
		}
		out = append(out, r)
		if len(out) >= 160 {
			out = append(out, '…')
			break
		}
	}
	return string(out)
}

// fmtNum formats a possibly undefined number; n/a, never 0, when undefined.
func fmtNum(v *float64, prec int) string {
	if v == nil {
		return tr("na")
	}
	return fmt.Sprintf("%.*f", prec, *v)
}

func fmtPct(v *float64) string {
	if v == nil {
		return tr("na")
	}
	return fmt.Sprintf("%.2f %%", 100**v)
}
