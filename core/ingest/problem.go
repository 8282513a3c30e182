package ingest

import (
	"fmt"

	"cubeworkbench/core/dataset"
)

// Severities of a Problem (dataset's, where the front ends read them).
const (
	SeverityError   = dataset.SeverityError   // the row or file cannot be used
	SeverityWarning = dataset.SeverityWarning // usable, but the user should know
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

// Problem is one thing wrong with an input, located as precisely as known
// (dataset.Problem: the front ends read it through core/session).
type Problem = dataset.Problem

// Report lists every problem found while reading (dataset.ReadReport).
type Report = dataset.ReadReport

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
