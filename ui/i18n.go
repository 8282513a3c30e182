package ui

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

	"cubeworkbench/assets/i18n"
	"cubeworkbench/core/text"
)

// EnvLang forces the window's language ("zh" or "en"), over the preference
// and the system locale; handy for screenshots and support.
const EnvLang = "CUBE_LANG"

// localeTags are the bundle tags our translations are registered under.
// Fyne's own translations use zh-Hans, and the locale matcher may land on
// either, so Chinese is registered under both.
var localeTags = []fyne.Locale{"en", "zh", "zh-Hans"}

var (
	langMu  sync.Mutex
	langNow = text.EN // the language useLanguage last set
)

// currentLanguage is the language every label is in now.
func currentLanguage() text.Lang {
	langMu.Lock()
	defer langMu.Unlock()
	return langNow
}

// useLanguage makes every lang.X lookup answer in code (text.ZH or text.EN),
// whatever the system locale is. Fyne's lang package follows the locale
// only, so the chosen language's messages are registered under every tag the
// matcher could pick; LANGUAGE also steers Fyne's own dialog strings.
func useLanguage(code text.Lang) {
	langMu.Lock()
	defer langMu.Unlock()
	data := i18n.Data(code)
	if data == nil {
		code, data = text.EN, i18n.Data(text.EN)
	}
	langNow = code
	os.Setenv("LANGUAGE", string(code))
	for _, tag := range localeTags {
		if err := lang.AddTranslationsForLocale(data, tag); err != nil {
			fyne.LogError("ui: translations", err)
		}
	}
}

// systemLanguage maps the system locale to zh or en.
func systemLanguage() text.Lang { return text.LangOf(string(lang.SystemLocale())) }

// tr looks a label up by its key in the current language; the key itself is
// shown when a translation is missing (a test checks none is).
func tr(key string) string { return lang.X(key, key) }

// trf fills a translated template, e.g. trf("open.loaded", map[string]any{"N": 3}).
func trf(key string, data map[string]any) string { return lang.X(key, key, data) }

// pick chooses between two texts by language, English first. New code
// says text.New(zh, en).In(lang), Chinese first as everywhere else; pick
// stays for the results tab's last few calls.
func pick(code text.Lang, en, zh string) string {
	if code == text.ZH {
		return zh
	}
	return en
}

// fmtDuration is a duration as people write it: 2分39秒 / 2 min 39 s,
// 4.2秒 / 4.2 s under ten seconds; never Go's 2m39s.
func fmtDuration(d time.Duration, lang text.Lang) string {
	zh := lang == text.ZH
	switch {
	case d < 10*time.Second:
		s := strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', -1, 64)
		if zh {
			return s + "秒"
		}
		return s + " s"
	case d < time.Hour:
		d = d.Round(time.Second)
		m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
		switch {
		case zh && m == 0:
			return fmt.Sprintf("%d秒", s)
		case zh:
			return fmt.Sprintf("%d分%d秒", m, s)
		case m == 0:
			return fmt.Sprintf("%d s", s)
		}
		return fmt.Sprintf("%d min %d s", m, s)
	}
	d = d.Round(time.Minute)
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	if zh {
		return fmt.Sprintf("%d小时%d分", h, m)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// errText is an error as the window shows it: a bilingual error (the
// session's refusals, text.Error) in the window's language only, any other
// as it is.
func errText(err error) string { return text.Of(err).In(currentLanguage()) }
