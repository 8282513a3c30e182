package ui

import (
	"errors"
	"regexp"
	"testing"

	"cubeworkbench/core/text"
)

// TestReviewRefusalsAreTextErrors: the review screen's refusals of its
// own controls are text.Errors holding both languages, shown in the
// window's language alone (they were plain errors of one string, fixed
// in the language of the moment they were made).
func TestReviewRefusalsAreTextErrors(t *testing.T) {
	han := regexp.MustCompile(`\p{Han}`)
	for _, lang := range []text.Lang{text.ZH, text.EN} {
		w, _ := newTestWindow(t, string(lang), nil)
		r := w.people.review
		cases := []struct {
			name string
			set  func()
		}{
			{"per guide", func() { r.perGuide.SetText("0") }},
			{"no query type", func() { r.perGuide.SetText("2"); r.types.SetSelected(nil) }},
			{"column without values", func() {
				r.types.SetSelected(r.types.Options)
				r.mode.SetSelected(r.mode.Options[1])
				r.values.SetText("")
			}},
			{"sample size", func() { r.mode.SetSelected(r.mode.Options[2]); r.sample.SetText("x") }},
		}
		for _, c := range cases {
			c.set()
			_, err := r.options()
			var te *text.Error
			if !errors.As(err, &te) {
				t.Errorf("%s %s: %v is not a text.Error", lang, c.name, err)
				continue
			}
			if !han.MatchString(te.ZH) || te.EN == "" || han.MatchString(te.EN) {
				t.Errorf("%s %s: not both languages: %+v", lang, c.name, te.Text)
			}
			if got := errText(err); got != te.In(lang) {
				t.Errorf("%s %s: the window shows %q, want %q", lang, c.name, got, te.In(lang))
			}
		}
	}
}
