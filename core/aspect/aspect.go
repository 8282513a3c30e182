// Package aspect is the registry of what officers ask a guide about (申请材料,
// 办理时限, 收费标准, 办理地点/方式, 申请条件, 办理流程): the name each is stored
// under, its titles in both languages, the guide columns that answer it and
// the words that show a guide's text covers it. The question generator asks
// for questions on an aspect, the review screen counts by it and the saved
// QA set carries it, all from here, so a new aspect is one entry. It
// imports only core/text.
package aspect

import (
	"strings"

	"cubeworkbench/core/text"
)

// Aspect is one thing citizens ask about a service.
type Aspect struct {
	Name             string // canonical, as stored
	TitleZH, TitleEN string
	// Cues are guide column names and words whose presence in a guide
	// (as a field name or in its text) shows it can answer the aspect.
	Cues []string
}

// Title is the display name in lang.
func (a Aspect) Title(lang text.Lang) string { return text.New(a.TitleZH, a.TitleEN).In(lang) }

var builtins = []Aspect{
	{Name: "materials", TitleZH: "申请材料", TitleEN: "Application materials", Cues: []string{"申请材料", "材料", "materials", "documents required"}},
	{Name: "time_limit", TitleZH: "办理时限", TitleEN: "Time limit", Cues: []string{"办结时限", "办理时限", "时限", "工作日", "time limit", "working days"}},
	{Name: "fees", TitleZH: "收费标准", TitleEN: "Fees", Cues: []string{"收费标准", "收费", "费用", "fee"}},
	{Name: "place", TitleZH: "办理地点/方式", TitleEN: "Where and how to apply", Cues: []string{"办理地点", "办理方式", "实施主体", "窗口", "网上", "地址", "where", "online", "address"}},
	{Name: "conditions", TitleZH: "申请条件", TitleEN: "Eligibility", Cues: []string{"受理条件", "申请条件", "条件", "eligib", "requirement", "condition"}},
	{Name: "procedure", TitleZH: "办理流程", TitleEN: "Procedure", Cues: []string{"办理流程", "流程", "步骤", "procedure", "steps"}},
}

// All returns the aspects in their display order.
func All() []Aspect { return append([]Aspect(nil), builtins...) }

// Names lists the canonical names in display order.
func Names() []string {
	out := make([]string, len(builtins))
	for i, a := range builtins {
		out[i] = a.Name
	}
	return out
}

// Lookup finds an aspect by its canonical name or either title
// (case-insensitive).
func Lookup(name string) (Aspect, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, a := range builtins {
		if n == a.Name || n == strings.ToLower(a.TitleEN) || n == a.TitleZH {
			return a, true
		}
	}
	return Aspect{}, false
}

// Covers reports whether a guide with these field names and text can
// answer the aspect: one of its cues is a field name or occurs in the text.
func (a Aspect) Covers(fieldNames []string, text string) bool {
	lower := strings.ToLower(text)
	for _, c := range a.Cues {
		for _, f := range fieldNames {
			if strings.Contains(strings.ToLower(f), c) {
				return true
			}
		}
		if strings.Contains(lower, c) {
			return true
		}
	}
	return false
}
