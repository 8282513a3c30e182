package glossary

import (
	"regexp"
	"strings"
	"unicode"
)

// allowedASCII are the Latin tokens a Chinese screen may show: the
// methods' own names, which have no Chinese name, and Recall@k's "@k".
var allowedASCII = map[string]bool{
	"CuBE": true, "MFSS": true, "CoFE-RAG": true, "CoFE": true, "RAG": true,
	"ROUGE": true, "ROUGE-L": true, "ROUGE-1": true, "ROUGE-2": true,
	"BLEU": true, "BLEU-4": true, "BM25": true, "@k": true,
	"Excel": true, "SUMMARY.json": true, "PNG": true, "SVG": true, "CSV": true, "JSONL": true, "JSON": true,
	// The servers the product connects to are proper names, like models.
	"RAGFlow": true, "Dify": true, "OpenAI": true, "Ollama": true, "vLLM": true, "TEI": true,
	"HTTP": true, "HTTPS": true, "API": true, "URL": true, "ID": true,
}

// units may follow a number, attached ("12ms") or after a space ("12 ms").
var units = map[string]bool{
	"ms": true, "s": true, "min": true, "h": true,
	"B": true, "KB": true, "MB": true, "GB": true, "TB": true, "KiB": true, "MiB": true, "GiB": true,
	"px": true, "pt": true, "dpi": true,
}

var (
	numberRe    = regexp.MustCompile(`^[+\-±]?\d[\d.,]*([A-Za-z]+|%)?$`)
	dimsRe      = regexp.MustCompile(`^\d+x\d+$`) // 1280x800
	versionRe   = regexp.MustCompile(`^v\d+(\.\d+)*$`)
	timestampRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+\-]\d{2}:\d{2})?)?$`)
	driveRe     = regexp.MustCompile(`^[A-Za-z]:[\\/]`)
	envRe       = regexp.MustCompile(`^[A-Z][A-Z0-9]+(_[A-Z0-9]{2,})+$`) // DEEPSEEK_API_KEY, not N_J
	extRe       = regexp.MustCompile(`\.(xlsx|xls|csv|json|jsonl|db|svg|png|yaml|yml|toml|md|txt|pdf|docx|html|log)$`)
)

// UnexpectedASCII lists, in order of first appearance and once each, the
// Latin words in s that a Chinese screen should not show: everything but
// numbers (with units and %), the method names (CuBE, MFSS, CoFE-RAG,
// ROUGE, BLEU …), the servers' names (RAGFlow, Dify, OpenAI …), a few
// acronyms (HTTP, API, URL, ID), environment variable names
// (DEEPSEEK_API_KEY), dates, version numbers, file paths and names, and the
// tokens in allow (model names, item ids — matched exactly, and removed
// first when they contain spaces). A UI test runs it over every widget's
// text in the Chinese window; "zero/rag/full", "95% CI", "1e-9", "N_J",
// "retrieved" and "(Select one)" are exactly what it catches.
func UnexpectedASCII(s string, allow ...string) []string {
	extra := map[string]bool{}
	for _, a := range allow {
		if a == "" {
			continue
		}
		if strings.IndexFunc(a, breaksToken) >= 0 {
			s = strings.ReplaceAll(s, a, " ")
			continue
		}
		extra[a] = true
	}
	var out []string
	seen := map[string]bool{}
	prevNumber := false
	for _, tok := range tokens(s) {
		tok = strings.TrimRight(tok, ".:,;-")
		tok = strings.TrimLeft(tok, ":,;")
		ok, number := acceptable(tok, extra, prevNumber)
		prevNumber = number
		if !ok && !seen[tok] {
			seen[tok] = true
			out = append(out, tok)
		}
	}
	return out
}

// acceptable says whether tok may stand in Chinese text, and whether it is
// a bare number (so that a unit may follow it).
func acceptable(tok string, extra map[string]bool, afterNumber bool) (ok, number bool) {
	if tok == "" || strings.IndexFunc(tok, isASCIILetter) < 0 {
		return true, tok != ""
	}
	switch {
	case allowedASCII[tok], extra[tok]:
		return true, false
	case afterNumber && units[tok]:
		return true, false
	case dimsRe.MatchString(tok), versionRe.MatchString(tok), timestampRe.MatchString(tok), envRe.MatchString(tok):
		return true, false
	case isPath(tok):
		return true, false
	}
	if m := numberRe.FindStringSubmatch(tok); m != nil && (m[1] == "%" || units[m[1]]) {
		return true, false
	}
	return false, false
}

func isPath(tok string) bool {
	switch {
	case strings.HasPrefix(tok, "/"), strings.HasPrefix(tok, "~/"), strings.HasPrefix(tok, "./"),
		strings.HasPrefix(tok, "../"), strings.Contains(tok, `\`), driveRe.MatchString(tok):
		return true
	}
	return extRe.MatchString(strings.ToLower(tok))
}

// tokens splits s into runs of ASCII that are not spaces or bracketing
// punctuation; Chinese characters and full-width punctuation separate too.
func tokens(s string) []string {
	return strings.FieldsFunc(s, breaksToken)
}

func breaksToken(r rune) bool {
	if r > unicode.MaxASCII || unicode.IsSpace(r) || unicode.IsControl(r) {
		return true
	}
	return strings.ContainsRune(`()[]{}<>,;!?"'=*|&`+"`", r)
}

func isASCIILetter(r rune) bool {
	return r < unicode.MaxASCII && unicode.IsLetter(r)
}
