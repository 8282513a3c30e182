package dataset

import (
	"fmt"
	"path/filepath"
	"strings"

	"cubeworkbench/core/text"
)

// Severities of a Problem.
const (
	SeverityError   = "error"   // the row or file cannot be used
	SeverityWarning = "warning" // usable, but the user should know
)

// Problem is one thing wrong with an input the reader (core/ingest)
// found, located as precisely as known. It lives here, beside the
// workbook it was found in, so the front ends read it through core/session
// without importing the reader.
type Problem struct {
	File     string // path of the file
	Sheet    string // sheet name ("" for CSV and JSON files)
	Row      int    // 1-based row (line or record for JSON); 0 = the whole sheet or file
	Column   string // column header as written in the file, or the canonical name
	Code     string // one of ingest's Code constants
	Severity string // SeverityError or SeverityWarning
	EN, ZH   string // what is wrong, one sentence in each language
}

// Message is a full sentence naming file, sheet, row and column, in lang.
func (p Problem) Message(lang text.Lang) string {
	file := filepath.Base(p.File)
	if text.LangOf(string(lang)) == text.ZH {
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

// Error makes a Problem usable as an error (ingest.ReadSheetRows
// returns one for a file it cannot open); the text is the English message.
func (p Problem) Error() string { return p.Message("en") }

// ReadReport lists every problem found while reading.
type ReadReport struct {
	Problems []Problem // everything found, except what Skipped holds
	Skipped  []Problem // errors of rows left out because the reader was told to skip bad rows
}

// HasErrors reports whether any problem in Problems is an error, in which
// case nothing may be evaluated from the workbook.
func (r *ReadReport) HasErrors() bool {
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
func (r *ReadReport) Count(severity string) int {
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
func (r *ReadReport) Codes() []string {
	out := make([]string, 0, len(r.Problems))
	for _, p := range r.Problems {
		out = append(out, p.Code)
	}
	return out
}
