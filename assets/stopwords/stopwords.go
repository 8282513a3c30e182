// Package stopwords embeds the English and Chinese stopword lists used for
// MFSS content tokens (formulas.md §2). The lists were written for this
// project; see README.md.
package stopwords

import (
	_ "embed"
	"strings"
)

//go:embed en.txt
var enText string

//go:embed zh.txt
var zhText string

// English returns a fresh set of English stopwords (lowercase).
func English() map[string]bool { return parse(enText) }

// Chinese returns a fresh set of Chinese stopwords (characters and words).
func Chinese() map[string]bool { return parse(zhText) }

// parse returns a new map on every call so callers may add to it freely.
func parse(text string) map[string]bool {
	set := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if w := strings.TrimSpace(line); w != "" && !strings.HasPrefix(w, "#") {
			set[strings.ToLower(w)] = true
		}
	}
	return set
}
