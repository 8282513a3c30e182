package docmatch

import (
	"path"
	"strings"
	"unicode"
)

// docExtensions are the file types people upload to a knowledge base; only
// these are cut off a name, so "第1.5版" keeps its dot.
var docExtensions = map[string]bool{
	".pdf": true, ".doc": true, ".docx": true, ".txt": true, ".md": true, ".markdown": true,
	".html": true, ".htm": true, ".xls": true, ".xlsx": true, ".csv": true, ".ppt": true,
	".pptx": true, ".json": true, ".wps": true, ".ofd": true, ".rtf": true,
}

// guideSuffixes are words people append to a service's title when they name
// its guide file, longest first: 食品经营许可办理指南.pdf is the guide
// 食品经营许可.
var guideSuffixes = []string{
	"办事服务指南", "办理服务指南", "服务指南", "办事指南", "办理指南", "业务指南", "操作指南", "申报指南", "指南",
	"办事须知", "须知", "事项", "说明",
}

// stripExtension cuts a known document extension (case-insensitive).
func stripExtension(name string) string {
	ext := path.Ext(name)
	if docExtensions[strings.ToLower(ext)] {
		return name[:len(name)-len(ext)]
	}
	return name
}

// fold is the comparison form of a name: full-width letters and digits
// made half-width, lower case, without spaces, punctuation and symbols.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\u3000':
			continue
		case r >= '\uFF01' && r <= '\uFF5E':
			r -= 0xFEE0
		}
		if unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Normalize is the form two names of the same guide share: extension cut,
// folded, and one trailing guide word (办事指南, 指南, 服务指南, …) removed.
// A name that is nothing but a guide word keeps it.
func Normalize(name string) string {
	s := fold(stripExtension(strings.TrimSpace(name)))
	for _, suf := range guideSuffixes {
		if strings.HasSuffix(s, suf) && len(s) > len(suf) {
			return strings.TrimSuffix(s, suf)
		}
	}
	return s
}

// splitTargetDocs splits a target_doc cell holding several names.
func splitTargetDocs(cell string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(cell, func(r rune) bool {
		return r == ';' || r == '；' || r == '|' || r == '\n'
	}) {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}
