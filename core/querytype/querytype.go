// Package querytype is the registry of CoFE-RAG's query types (formulas.md
// §3): the canonical name each is stored under, its titles in both
// languages and the spellings a workbook may use for it. Every label the
// report, the charts, the CLI and the question generator show comes from
// here, so a new query type is one entry. It imports only core/text.
package querytype

import "cubeworkbench/core/text"

// Type is one query type.
type Type struct {
	Name             string   // canonical, as stored and written to SUMMARY.json
	TitleZH, TitleEN string   // display names
	Aliases          []string // other spellings a workbook may use, lower-case
}

// Title is the display name in lang.
func (t Type) Title(lang text.Lang) string { return text.New(t.TitleZH, t.TitleEN).In(lang) }

var builtins = []Type{
	{Name: "factual", TitleZH: "事实类", TitleEN: "Factual", Aliases: []string{"事实类", "事实", "fact"}},
	{Name: "analytical", TitleZH: "分析类", TitleEN: "Analytical", Aliases: []string{"分析类", "分析", "analysis"}},
	{Name: "comparative", TitleZH: "比较类", TitleEN: "Comparative", Aliases: []string{"比较类", "比较", "comparison"}},
	{Name: "tutorial", TitleZH: "教程类", TitleEN: "Tutorial", Aliases: []string{"教程类", "教程", "how-to", "howto"}},
}

// All returns the query types in their report order.
func All() []Type { return append([]Type(nil), builtins...) }

// Lookup returns the query type with canonical name name.
func Lookup(name string) (Type, bool) {
	for _, t := range builtins {
		if t.Name == name {
			return t, true
		}
	}
	return Type{}, false
}

// Canonical maps a trimmed, lower-cased spelling (a name or an alias) to
// the canonical name; ok is false for a spelling no type claims.
func Canonical(spelling string) (string, bool) {
	for _, t := range builtins {
		if spelling == t.Name {
			return t.Name, true
		}
		for _, a := range t.Aliases {
			if spelling == a {
				return t.Name, true
			}
		}
	}
	return "", false
}
