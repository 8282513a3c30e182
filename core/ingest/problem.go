package ingest

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Severities of a Problem.
const (
	SeverityError   = "error"   // the row or file cannot be used
	SeverityWarning = "warning" // usable, but the user should know
)

// Problem codes: stable machine names, one per kind of problem.
const (
	CodeMissingColumn       = "missing_column"        // a required column is absent
	CodeDuplicateColumn     = "duplicate_column"      // two columns mean the same thing; the first is used
	CodeMissingSheet        = "missing_sheet"         // a sheet named in Options.Sheets does not exist
	CodeDuplicateSheet      = "duplicate_sheet"       // two sheets mean the same thing; the first is used
	CodeDuplicateID         = "duplicate_id"          // an id (or title used as id) repeats
	CodeDuplicateScore      = "duplicate_score"       // the same judgement appears twice; the first is used
	CodeMissingValue        = "missing_value"         // a required cell is empty
	CodeIDFromTitle         = "id_from_title"         // guides with an empty id use their title
	CodeUnknownGoldDoc      = "unknown_gold_doc"      // a gold document is not among the guides
	CodeUnknownRetrievedDoc = "unknown_retrieved_doc" // retrieved entries not among the guides (kept)
	CodeUnknownItem         = "unknown_item"          // a score or rating names a question not in the QA set
	CodeBadList             = "bad_list"              // a list cell is malformed JSON
	CodeBadScore            = "bad_score"             // a score is not a number or out of range
	CodeBadRepeat           = "bad_repeat"            // a repeat is not a positive integer
	CodeBadStatus           = "bad_status"            // a status is neither ok nor unscorable
	CodeBadJSON             = "bad_json"              // a JSON record cannot be parsed
	CodeEmptySheet          = "empty_sheet"           // a sheet or file has no data rows
	CodeNoData              = "no_data"               // nothing usable was found at all
	CodeSheetByHeader       = "sheet_by_header"       // a sheet was recognised by its columns, not its name
	CodeEncrypted           = "encrypted"             // a password-protected workbook
	CodeCorrupt             = "corrupt"               // a damaged file
	CodeNotXLSX             = "not_xlsx"              // not an .xlsx file (e.g. renamed, or legacy .xls)
	CodeTooLarge            = "too_large"             // over a size limit
	CodeUnsupported         = "unsupported_file"      // a file type ingest does not read
	CodeBadQuote            = "bad_quote"             // a CSV quoted field that is never closed or has a stray quote
	CodeBadEncoding         = "bad_encoding"          // bytes that are not text in the file's encoding
	CodeHiddenSheet         = "hidden_sheet"          // a hidden sheet left unread (Options.ReadHiddenSheets reads it)
	CodeHiddenRows          = "hidden_rows"           // rows hidden by a filter or by hand, left unread (Options.ReadHiddenSheets reads them)
	CodeErrorValue          = "error_value"           // an Excel error value (#N/A, #VALUE!, …) read as a missing value
	CodeSeveralSheets       = "several_sheets"        // several sheets of one kind, read together
	CodeScoreRange          = "score_range"           // an imported score outside its dimension's scale
	CodeAmbiguousTitle      = "ambiguous_title"       // a title several guides share names a guide
	CodeTypedList           = "typed_list"            // retrieved entries read after splitting or width folding
	CodeLikelyColumn        = "likely_column"         // an unread column that looks like a known one
	CodeMergedCells         = "merged_cells"          // merged ranges filled from their first cell
	CodeUncachedFormula     = "uncached_formula"      // a formula saved without its value: the cell reads as empty
	CodeCellTooLong         = "cell_too_long"         // a cell over Excel's 32,767 characters, cut at read time
)

// Problem is one thing wrong with an input, located as precisely as known.
type Problem struct {
	File     string // path of the file
	Sheet    string // sheet name ("" for CSV and JSON files)
	Row      int    // 1-based row (line or record for JSON); 0 = the whole sheet or file
	Column   string // column header as written in the file, or the canonical name
	Code     string // one of the Code constants
	Severity string // SeverityError or SeverityWarning
	EN, ZH   string // what is wrong, one sentence in each language
}

// Message is a full sentence naming file, sheet, row and column, in Chinese
// when lang starts with "zh" and in English otherwise.
func (p Problem) Message(lang string) string {
	file := filepath.Base(p.File)
	if strings.HasPrefix(strings.ToLower(lang), "zh") {
		parts := []string{file}
		if p.Sheet != "" {
			parts = append(parts, "工作表“"+p.Sheet+"”")
		}
		if p.Row > 0 {
			parts = append(parts, fmt.Sprintf("第 %d 行", p.Row))
		}
		if p.Column != "" {
			parts = append(parts, "“"+p.Column+"”列")
		}
		level := "错误"
		if p.Severity == SeverityWarning {
			level = "提示"
		}
		return level + "：" + strings.Join(parts, "，") + "：" + p.ZH
	}
	parts := []string{file}
	if p.Sheet != "" {
		parts = append(parts, fmt.Sprintf("sheet %q", p.Sheet))
	}
	if p.Row > 0 {
		parts = append(parts, fmt.Sprintf("row %d", p.Row))
	}
	if p.Column != "" {
		parts = append(parts, fmt.Sprintf("column %q", p.Column))
	}
	level := "Error"
	if p.Severity == SeverityWarning {
		level = "Warning"
	}
	return level + ": " + strings.Join(parts, ", ") + ": " + p.EN
}

// Error makes a Problem usable as an error (ReadSheetRows returns one for a
// file it cannot open); the text is the English message.
func (p Problem) Error() string { return p.Message("en") }

// Report lists every problem found while reading.
type Report struct {
	Problems []Problem // everything found, except what Skipped holds
	Skipped  []Problem // errors of rows left out because Options.SkipBadRows was set
}

// HasErrors reports whether any problem in Problems is an error, in which
// case nothing may be evaluated from the workbook.
func (r *Report) HasErrors() bool {
	if r == nil {
		return false
	}
	for _, p := range r.Problems {
		if p.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Count returns how many problems of a severity Problems holds.
func (r *Report) Count(severity string) int {
	n := 0
	if r != nil {
		for _, p := range r.Problems {
			if p.Severity == severity {
				n++
			}
		}
	}
	return n
}

// Codes returns the codes of Problems in order, for tests and summaries.
func (r *Report) Codes() []string {
	out := make([]string, 0, len(r.Problems))
	for _, p := range r.Problems {
		out = append(out, p.Code)
	}
	return out
}

// collector gathers problems for one table. Row problems are buffered until
// the row ends so that a bad row is either reported or skipped as a whole.
type collector struct {
	rep   *Report
	skip  bool
	file  string
	sheet string
	row   []Problem
}

// problem builds a Problem located in the collector's table.
func (c *collector) problem(row int, col, code, sev, en, zh string) Problem {
	return Problem{File: c.file, Sheet: c.sheet, Row: row, Column: col, Code: code, Severity: sev, EN: en, ZH: zh}
}

// sheetProblem records a problem that concerns the whole table.
func (c *collector) sheetProblem(row int, col, code, sev, en, zh string) {
	c.rep.Problems = append(c.rep.Problems, c.problem(row, col, code, sev, en, zh))
}

// rowProblem buffers a problem of the current row.
func (c *collector) rowProblem(row int, col, code, sev, en, zh string) {
	c.row = append(c.row, c.problem(row, col, code, sev, en, zh))
}

// endRow flushes the current row's problems and reports whether the row is
// usable (has no errors). Errors of a bad row go to Skipped when skipping.
func (c *collector) endRow() bool {
	ok := true
	for _, p := range c.row {
		if p.Severity == SeverityError {
			ok = false
		}
	}
	for _, p := range c.row {
		if !ok && c.skip && p.Severity == SeverityError {
			c.rep.Skipped = append(c.rep.Skipped, p)
		} else {
			c.rep.Problems = append(c.rep.Problems, p)
		}
	}
	c.row = c.row[:0]
	return ok
}

// cellIssue is something wrong with one cell, found while reading a row:
// the loader turns it into a Problem of that row, named by its column.
type cellIssue struct {
	col            int // 0-based column
	code, severity string
	en, zh         string
}

// readError stops the reading of a sheet or file at a known place: the
// loader reports it as an error naming the row (and column, when known).
type readError struct {
	row    int // 1-based row where reading stopped; 0 = before any row
	col    int // 0-based column, -1 when unknown
	code   string
	en, zh string
}

func (e *readError) Error() string {
	if e.row > 0 {
		return fmt.Sprintf("row %d: %s", e.row, e.en)
	}
	return e.en
}

// rowFunc receives one non-blank row with the issues of its cells.
type rowFunc func(row int, cells []string, issues []cellIssue) error
