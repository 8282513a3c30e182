package ingest

import (
	"fmt"
	"strings"
)

// excelErrors are the values Excel shows for a formula that failed (a
// VLOOKUP that found nothing is #N/A). A saved workbook keeps them as error
// cells (t="e"); a CSV saved from Excel keeps their text. Either way the
// cell holds no value: read as text, "#N/A" would be judged as the
// system's answer or matched as a document id.
var excelErrors = map[string]bool{
	"#N/A": true, "#VALUE!": true, "#REF!": true, "#DIV/0!": true, "#NAME?": true,
	"#NULL!": true, "#NUM!": true, "#GETTING_DATA": true, "#SPILL!": true, "#CALC!": true,
	"#FIELD!": true, "#BLOCKED!": true, "#CONNECT!": true, "#BUSY!": true, "#UNKNOWN!": true,
}

// isExcelError reports whether a cell holds an Excel error value.
func isExcelError(v string) bool {
	v = strings.TrimSpace(v)
	return len(v) > 1 && v[0] == '#' && excelErrors[strings.ToUpper(v)]
}

// maxErrorWarnings bounds the error cells warned about one by one in a
// sheet; the rest are counted in one warning.
const maxErrorWarnings = 20

// errorValues empties the error cells of a sheet's rows, each with a
// warning naming its cell, so a missing value stays missing.
type errorValues struct {
	n, first int
}

// clear empties cells holding an Excel error value and warns about each.
func (e *errorValues) clear(row int, cells []string, colName func(int) string, c *collector) {
	for i, v := range cells {
		if v == "" || v[0] != '#' && strings.TrimSpace(v) == v || !isExcelError(v) {
			continue
		}
		cells[i] = ""
		e.n++
		if e.n == 1 {
			e.first = row
		}
		if e.n > maxErrorWarnings {
			continue
		}
		v = strings.TrimSpace(v)
		c.rowProblem(row, colName(i), CodeErrorValue, SeverityWarning,
			fmt.Sprintf("the cell holds the Excel error %s (a formula that failed, e.g. a VLOOKUP that found nothing), so it is read as empty, not as text. Fix the formula or fill the value in Excel if it matters.", v),
			fmt.Sprintf("该单元格为 Excel 错误值 %s（公式出错，例如 VLOOKUP 未找到），按空值读取，不作为文本。如该值重要，请在 Excel 中修正公式或填入数值。", v))
	}
}

// finish says how many error cells were not warned about one by one.
func (e *errorValues) finish(c *collector) {
	if e.n <= maxErrorWarnings {
		return
	}
	c.sheetProblem(0, "", CodeErrorValue, SeverityWarning,
		fmt.Sprintf("%d cells hold Excel error values (#N/A, #VALUE!, …; first at row %d); all are read as empty, the first %d are named above.", e.n, e.first, maxErrorWarnings),
		fmt.Sprintf("共有 %d 个单元格为 Excel 错误值（#N/A、#VALUE! 等；首个在第 %d 行），均按空值读取，上面列出了前 %d 个。", e.n, e.first, maxErrorWarnings))
}
