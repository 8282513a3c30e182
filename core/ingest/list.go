package ingest

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"cubeworkbench/core/dataset"
)

// errBadList marks a list cell that looks like JSON but is not a valid list.
var errBadList = errors.New("not a valid JSON list")

// parseList reads a list cell (workbook.md): a JSON array, or entries
// separated by line breaks, `|` or `;` (full-width ｜ and ； too, as Chinese
// input methods type them). One separator is used per cell, the first of
// line break, bar, semicolon present, so that a title containing `;` survives
// in a line-separated list. Empty entries are dropped.
func parseList(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if s[0] == '[' {
		if out, ok := plainJSONList(s); ok {
			return out, nil
		}
		var raw []json.RawMessage
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			return nil, errBadList
		}
		out := make([]string, 0, len(raw))
		for _, r := range raw {
			v, ok := jsonScalar(r)
			if !ok {
				return nil, errBadList
			}
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
		if len(out) == 0 {
			return nil, nil
		}
		return out, nil
	}
	var parts []string
	switch {
	case strings.ContainsAny(s, "\r\n"):
		parts = strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	case strings.ContainsAny(s, "|｜"):
		parts = strings.FieldsFunc(s, func(r rune) bool { return r == '|' || r == '｜' })
	default:
		parts = strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '；' })
	}
	out := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

// plainJSONList reads the JSON list of strings every retrieved-list cell of
// a generated or exported workbook holds (["G0001","G0002"]) without
// encoding/json, which cost a tenth of a 100,000-question open: ok only
// when the whole of s is such a list whose strings hold no escape, no
// control character and only valid UTF-8 (so encoding/json would read each
// byte for byte); anything else is left to it. The entries are trimmed and
// the empty ones dropped, as parseList does with what encoding/json reads.
func plainJSONList(s string) (out []string, ok bool) {
	i := skipJSONSpace(s, 1)
	if i < len(s) && s[i] == ']' {
		return nil, skipJSONSpace(s, i+1) == len(s)
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return nil, false
		}
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if c := s[j]; c == '\\' || c < 0x20 {
				return nil, false
			}
			j++
		}
		if j >= len(s) || !utf8.ValidString(s[i+1:j]) {
			return nil, false
		}
		if v := strings.TrimSpace(s[i+1 : j]); v != "" {
			if out == nil {
				out = make([]string, 0, strings.Count(s[j:], ",")+1)
			}
			out = append(out, v)
		}
		i = skipJSONSpace(s, j+1)
		if i < len(s) && s[i] == ']' {
			if skipJSONSpace(s, i+1) != len(s) {
				return nil, false
			}
			if len(out) == 0 {
				return nil, true
			}
			return out, true
		}
		if i >= len(s) || s[i] != ',' {
			return nil, false
		}
		i = skipJSONSpace(s, i+1)
	}
}

// skipJSONSpace skips JSON's white space (space, tab, line feed, carriage
// return) from s[i].
func skipJSONSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// parseGroups reads fine keywords: a JSON list whose elements are lists of
// keywords (or a lone keyword, a group of one), or groups separated by line
// breaks or `;` with the keywords of a group separated by `|`.
func parseGroups(s string) ([][]string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if s[0] == '[' {
		var raw []json.RawMessage
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			return nil, errBadList
		}
		out := make([][]string, 0, len(raw))
		for _, r := range raw {
			var group []string
			if v, ok := jsonScalar(r); ok {
				group = []string{v}
			} else if err := json.Unmarshal(r, &group); err != nil {
				return nil, errBadList
			}
			if g := trimAll(group); len(g) > 0 {
				out = append(out, g)
			}
		}
		if len(out) == 0 {
			return nil, nil
		}
		return out, nil
	}
	groups := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' || r == ';' || r == '；' })
	out := make([][]string, 0, len(groups))
	for _, g := range groups {
		kws := strings.FieldsFunc(g, func(r rune) bool { return r == '|' || r == '｜' })
		if k := trimAll(kws); len(k) > 0 {
			out = append(out, k)
		}
	}
	return out, nil
}

// jsonScalar returns a JSON string or number as text.
func jsonScalar(r json.RawMessage) (string, bool) {
	var s string
	if err := json.Unmarshal(r, &s); err == nil {
		return s, true
	}
	var n json.Number
	if err := json.Unmarshal(r, &n); err == nil {
		return n.String(), true
	}
	return "", false
}

func trimAll(in []string) []string {
	out := in[:0]
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// canonicalSet lower-cases the reserved set names so `answer:RAG` is rag.
func canonicalSet(name string) string {
	switch l := strings.ToLower(strings.TrimSpace(name)); l {
	case dataset.SetRAG, dataset.SetZero, dataset.SetFull:
		return l
	default:
		return strings.TrimSpace(name)
	}
}
