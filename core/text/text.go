// Package text is how the product holds words that reach a person: one
// Lang type for the language a front end shows (Chinese or English) and
// one Text type holding both, Chinese first. Everything that speaks to the
// user — results, verdicts, reasons, errors — carries a Text and picks the
// language at the last moment with In, so the window, the CLI, the report
// and the brief cannot drift apart. Names of things come from
// core/glossary; this package only carries sentences.
//
// Older stored strings put both languages into one string as "zh | en"
// (the semantic judge's reasons) or "en / zh" (errors); Parse reads the
// first form back into a Text so stored runs keep their reasons.
package text

import (
	"errors"
	"strings"
)

// Lang is the language text is shown in.
type Lang string

// The two languages of the product.
const (
	ZH Lang = "zh"
	EN Lang = "en"
)

// LangOf reads a language setting ("zh", "zh-CN", "en", "EN_us", "" …):
// anything starting with zh is Chinese, everything else English.
func LangOf(s string) Lang {
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(s)), "zh") {
		return ZH
	}
	return EN
}

// String is the language code, "zh" or "en", whatever setting l was
// made from (code that still takes a bare string compares it to "zh").
func (l Lang) String() string { return string(LangOf(string(l))) }

// Text is one sentence (or name) in both languages. The zero Text is
// empty; a Text with one language missing shows the other in both.
type Text struct {
	ZH string `json:"zh"`
	EN string `json:"en"`
}

// New is a Text from its Chinese and English forms, Chinese first.
func New(zh, en string) Text { return Text{ZH: zh, EN: en} }

// In is t in lang (a Lang or any language setting LangOf reads); when that
// language is missing, the other.
func (t Text) In(lang Lang) string {
	if LangOf(string(lang)) == ZH {
		if t.ZH != "" {
			return t.ZH
		}
		return t.EN
	}
	if t.EN != "" {
		return t.EN
	}
	return t.ZH
}

// IsZero says t holds no text.
func (t Text) IsZero() bool { return t.ZH == "" && t.EN == "" }

// Both is "zh / en" (one language when the other is missing or the same),
// for logs and places that must show one string for everybody.
func (t Text) Both() string {
	switch {
	case t.ZH == "" || t.ZH == t.EN:
		return t.EN
	case t.EN == "":
		return t.ZH
	}
	return t.ZH + " / " + t.EN
}

// String is Both.
func (t Text) String() string { return t.Both() }

// Join is the Texts joined with the same sep in both languages (for a
// separator that differs, "；" and "; ", use JoinWith).
func Join(ts []Text, sep string) Text { return JoinWith(ts, Text{ZH: sep, EN: sep}) }

// JoinWith is the Texts joined by a separator of each language.
func JoinWith(ts []Text, sep Text) Text {
	zh, en := make([]string, 0, len(ts)), make([]string, 0, len(ts))
	for _, t := range ts {
		zh, en = append(zh, t.In(ZH)), append(en, t.In(EN))
	}
	return Text{ZH: strings.Join(zh, sep.ZH), EN: strings.Join(en, sep.EN)}
}

// storedSep separates the two languages in reasons stored before Text
// existed: "中文 | English".
const storedSep = " | "

// Parse reads a reason stored as one string: "zh | en" gives both
// languages; a string without the separator is the same in both (a
// machine code, a number, or an English reason of an older run).
func Parse(s string) Text {
	if zh, en, ok := strings.Cut(s, storedSep); ok {
		return Text{ZH: strings.TrimSpace(zh), EN: strings.TrimSpace(en)}
	}
	return Text{ZH: s, EN: s}
}

// Stored is t as one string Parse reads back: "zh | en".
func (t Text) Stored() string {
	if t.ZH == "" || t.EN == "" {
		return t.In(EN)
	}
	return t.ZH + storedSep + t.EN
}

// Error is an error whose message a person reads: both languages, and the
// error it wraps (errors.Is and errors.As see through it).
type Error struct {
	Text
	Err error // the cause, or nil
}

// NewError is an error saying t, wrapping err.
func NewError(t Text, err error) *Error { return &Error{Text: t, Err: err} }

// Error is "zh / en", and the cause's text after a colon when it adds one
// (a cause whose words e already says, such as a sentinel e names with a
// file, adds none).
func (e *Error) Error() string {
	s := e.Both()
	if e.Err == nil {
		return s
	}
	c := Of(e.Err)
	if !strings.Contains(e.ZH, c.ZH) && !strings.Contains(e.EN, c.EN) {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap is the cause.
func (e *Error) Unwrap() error { return e.Err }

// Of is err's words: an *Error's Text when err is or wraps one, and
// err.Error() in both languages otherwise (nil gives the zero Text).
func Of(err error) Text {
	if err == nil {
		return Text{}
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Text
	}
	return Text{ZH: err.Error(), EN: err.Error()}
}
