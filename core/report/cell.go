package report

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// cellLimit is Excel's maximum number of characters (UTF-16 units) in a
// cell.
const cellLimit = 32767

// clip cuts s to fit one cell, ending it with a visible marker that says how
// long the text was and where the whole of it is; ok is false when s was cut.
func clip(s string) (string, bool) {
	if utf16Len(s) <= cellLimit {
		return s, true
	}
	marker := fmt.Sprintf("…[截断 truncated: %d chars; 全文见运行记录 full text in the run store]", utf8.RuneCountInString(s))
	budget := cellLimit - utf16Len(marker)
	n, end := 0, 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1 // invalid rune: written as U+FFFD
		}
		if n+w > budget {
			break
		}
		n += w
		end = i + utf8.RuneLen(r)
		if r == utf8.RuneError {
			end = i + 1
		}
	}
	return s[:end] + marker, false
}

func utf16Len(s string) int {
	if len(s) <= cellLimit { // a UTF-8 byte count is never below the UTF-16 count
		return len(s)
	}
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// formulaLike reports whether Excel (or a CSV reader downstream) could take
// s for a formula: it starts with = + - @, a tab or a carriage return.
func formulaLike(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}
