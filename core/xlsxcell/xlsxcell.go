// Package xlsxcell reads one cell of an .xlsx worksheet as text. It is the
// one cell reader behind both readers of workbooks — core/ingest (the
// evaluation workbook: questions, answers, scores) and core/docparse (the
// knowledge base's spreadsheets, as text for retrieval) — so the same
// cell never reads two ways. Each reader streams the package's parts
// itself (they bound memory and report damage differently); what a cell's
// value says is decided here:
//
//   - OOXML's _xHHHH_ escapes (ECMA-376 Part 1, 22.9.2.19 ST_Xstring) are
//     decoded once (Unescape); an escaped carriage return is a line break,
//     other control characters are dropped as invisible junk.
//   - Numbers read as their value in Excel's General form (15 significant
//     digits), not as the format rounds them for display: a score of 4.5
//     shown as "5" by the format "0" reads 4.5. Percent formats read as a
//     percentage of the full value (0.855 → 85.5%).
//   - Dates and times read as ISO dates whatever the format code or the
//     locale (numFmtId 14 is "the system's short date": 3/1/24 in one
//     country, 2024/3/1 in another), so they are never ambiguous.
//   - Booleans read TRUE and FALSE, error values (#N/A) and ISO date cells
//     (t="d") as written, so the readers above can name them.
package xlsxcell

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Formats is what a workbook's styles part says about showing numbers: for
// each cell style (a cell's s attribute, an index into cellXfs) whether its
// numbers are dates, times or percentages. The zero value (and nil) reads
// every number as General, as a workbook without styles does.
type Formats struct {
	// Date1904 is the workbook's date system (workbookPr date1904).
	Date1904 bool
	custom   map[int]string // numFmtId → layout, from styles.xml numFmts
	layouts  []string       // per cell style: a Go time layout, "%" or ""
}

// NumFmt records a custom number format (a <numFmt> of styles.xml); call
// it for every numFmt before Style for the styles using it, as they come
// in the part.
func (f *Formats) NumFmt(id int, code string) {
	if f.custom == nil {
		f.custom = map[int]string{}
	}
	f.custom[id] = layoutOf(code)
}

// Style records the next cell style (an <xf> of cellXfs) and its number
// format id.
func (f *Formats) Style(numFmtID int) {
	layout, ok := f.custom[numFmtID]
	if !ok {
		layout = builtinLayouts[numFmtID]
	}
	f.layouts = append(f.layouts, layout)
}

// Cell is the text of a cell: typ is its t attribute, style its s
// attribute, and v the text of its <v> — for an inline string (t
// "inlineStr") the text of its <is>, and for a shared string (t "s") the
// string it names, already decoded by Unescape when the table was read.
func (f *Formats) Cell(typ, v string, style int) string {
	switch typ {
	case "s":
		return v
	case "inlineStr", "str", "e":
		return Unescape(v)
	case "d":
		return v
	case "b":
		switch strings.TrimSpace(v) {
		case "1":
			return "TRUE"
		case "0":
			return "FALSE"
		}
		return v
	}
	return f.number(strings.TrimSpace(v), style)
}

func (f *Formats) number(raw string, style int) string {
	x, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return raw
	}
	layout := ""
	if f != nil && style >= 0 && style < len(f.layouts) {
		layout = f.layouts[style]
	}
	switch layout {
	case "":
		return General(raw)
	case "%":
		return General(strconv.FormatFloat(x*100, 'g', 15, 64)) + "%"
	}
	if x < 0 || x > 2958465 { // past 9999-12-31: no date Excel can show
		return General(raw)
	}
	epoch := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	if f.Date1904 {
		epoch = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return epoch.Add(time.Duration(math.Round(x*86400)) * time.Second).Format(layout)
}

// General is a number as Excel's General format shows it (and excelize
// reads it): at most 15 significant digits, so 0.30000000000000004 reads
// 0.3, with an exponent only past that. Text that is not a number is
// returned as it is.
func General(raw string) string {
	x, err := strconv.ParseFloat(raw, 64)
	if err != nil || strings.Contains(raw, "_") {
		return raw
	}
	plain := strconv.FormatFloat(x, 'f', -1, 64)
	if len(plain)-strings.Count(plain, ".") > 15 && !wholeWithinPrecision(raw) {
		return strconv.FormatFloat(x, 'G', 15, 64)
	}
	return plain
}

// wholeWithinPrecision: an integer written with at most 15 significant
// digits (trailing zeros aside) is shown whole.
func wholeWithinPrecision(s string) bool {
	if strings.ContainsAny(s, ".Ee") {
		return false
	}
	s = strings.TrimLeft(s, "+-0")
	return len(strings.TrimRight(s, "0")) <= 15
}

// escape is how OOXML writes a character XML cannot hold: _x0007_ is
// U+0007, _x005F_ an underscore (so _x005F_x000D_ is the literal text
// "_x000D_").
var escape = regexp.MustCompile(`_x[0-9A-Fa-f]{4}_`)

// Unescape decodes a string's _xHHHH_ escapes. Excel writes a cell's line
// break CR LF as "_x000D_" and a line feed; a CR, alone or before a line
// feed, reads as one line break. Other control characters but tab and line
// feed are dropped: invisible, they would only make two equal texts
// differ (and cannot be written back into a report's XML).
func Unescape(s string) string {
	if strings.Contains(s, "_x") {
		s = escape.ReplaceAllStringFunc(s, func(m string) string {
			r, _ := strconv.ParseUint(m[2:6], 16, 32)
			if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7F {
				return ""
			}
			return string(rune(r))
		})
	}
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	return s
}

// builtinLayouts are the built-in number formats (ECMA-376 Part 1,
// 18.8.30) that show a date, a time or a percentage.
var builtinLayouts = map[int]string{
	9: "%", 10: "%",
	14: "2006-01-02", 15: "2006-01-02", 16: "2006-01-02", 17: "2006-01-02", 18: "15:04", 19: "15:04:05",
	20: "15:04", 21: "15:04:05", 22: "2006-01-02 15:04", 45: "04:05", 46: "15:04:05", 47: "04:05",
	// East Asian built-ins (27–36, 50–58): era and 年月日 dates, times.
	27: "2006-01-02", 28: "2006-01-02", 29: "2006-01-02", 30: "2006-01-02", 31: "2006-01-02",
	32: "15:04", 33: "15:04:05", 34: "15:04", 35: "15:04:05", 36: "2006-01-02",
	50: "2006-01-02", 51: "2006-01-02", 52: "2006-01-02", 53: "2006-01-02", 54: "2006-01-02",
	55: "15:04", 56: "15:04:05", 57: "2006-01-02", 58: "2006-01-02",
}

// layoutOf tells whether a custom format code shows a date, a time or a
// percentage: only the presence of date and time parts is honoured, so
// 2024年3月1日 and 3/1/2024 both read 2024-03-01. Quoted text and
// bracketed parts ([Red], [$¥-804], [h]) are not parts of the date.
func layoutOf(code string) string {
	var plain strings.Builder
	quoted, bracket := false, false
	for _, r := range strings.ToLower(code) {
		switch {
		case r == '"':
			quoted = !quoted
		case quoted:
		case r == '[':
			bracket = true
		case r == ']':
			bracket = false
		case bracket:
		default:
			plain.WriteRune(r)
		}
	}
	c := plain.String()
	date := strings.ContainsAny(c, "yd") || strings.Contains(c, "mmm")
	tm := strings.ContainsAny(c, "hs")
	switch {
	case date && tm:
		return "2006-01-02 15:04:05"
	case date:
		return "2006-01-02"
	case tm:
		return "15:04:05"
	case strings.Contains(c, "%"):
		return "%"
	}
	return ""
}
