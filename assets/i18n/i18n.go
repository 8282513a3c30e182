// Package i18n embeds the window's translations (Chinese and English) in the
// JSON shape Fyne's lang package reads (go-i18n flat files: key → text).
// The keys are stable ids; the English file is the fallback.
package i18n

import (
	"embed"

	"cubeworkbench/core/text"
)

// FS holds en.json and zh.json.
//
//go:embed en.json zh.json
var FS embed.FS

// Languages are the languages the window offers, in menu order.
var Languages = []text.Lang{text.ZH, text.EN}

// Data returns the JSON of one language (text.ZH or text.EN); nil for
// others.
func Data(lang text.Lang) []byte {
	b, err := FS.ReadFile(string(lang) + ".json")
	if err != nil {
		return nil
	}
	return b
}
