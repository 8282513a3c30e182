// Package i18n embeds the window's translations (Chinese and English) in the
// JSON shape Fyne's lang package reads (go-i18n flat files: key → text).
// The keys are stable ids; the English file is the fallback.
package i18n

import "embed"

// FS holds en.json and zh.json.
//
//go:embed en.json zh.json
var FS embed.FS

// Languages are the codes the window offers, in menu order.
var Languages = []string{"zh", "en"}

// Data returns the JSON of one language ("zh" or "en"); nil for others.
func Data(lang string) []byte {
	b, err := FS.ReadFile(lang + ".json")
	if err != nil {
		return nil
	}
	return b
}
