package text

import (
	"errors"
	"fmt"
	"testing"
)

func TestLangOf(t *testing.T) {
	for in, want := range map[string]Lang{"zh": ZH, "zh-CN": ZH, "ZH_tw": ZH, " zh": ZH, "en": EN, "": EN, "fr": EN, "EN": EN} {
		if got := LangOf(in); got != want {
			t.Errorf("LangOf(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestIn(t *testing.T) {
	cases := []struct {
		t      Text
		zh, en string
	}{
		{New("中文", "English"), "中文", "English"},
		{New("", "English"), "English", "English"}, // the other language, never blank
		{New("中文", ""), "中文", "中文"},
		{Text{}, "", ""},
	}
	for _, c := range cases {
		if got := c.t.In(ZH); got != c.zh {
			t.Errorf("%+v.In(zh) = %q", c.t, got)
		}
		if got := c.t.In(EN); got != c.en {
			t.Errorf("%+v.In(en) = %q", c.t, got)
		}
		if got := c.t.In("zh-CN"); got != c.zh {
			t.Errorf("%+v.In(zh-CN) = %q", c.t, got)
		}
	}
}

// Reasons stored as "zh | en" by earlier runs read back as both languages;
// Stored writes them so.
func TestStoredRoundTrip(t *testing.T) {
	for _, c := range []struct {
		stored string
		want   Text
	}{
		{"相关 | relevant", New("相关", "relevant")},
		{"low_similarity: 相似度低 | low similarity", New("low_similarity: 相似度低", "low similarity")},
		{"relevance: 3/5 question words in the answer", New("relevance: 3/5 question words in the answer", "relevance: 3/5 question words in the answer")},
		{"同 | 同", New("同", "同")},
	} {
		got := Parse(c.stored)
		if got != c.want {
			t.Errorf("Parse(%q) = %+v, want %+v", c.stored, got, c.want)
		}
		if c.want.ZH != c.want.EN || c.stored == "同 | 同" {
			if back := got.Stored(); back != c.stored {
				t.Errorf("Stored() = %q, want %q", back, c.stored)
			}
		}
	}
}

func TestError(t *testing.T) {
	cause := errors.New("disk full")
	e := NewError(New("写入失败", "write failed"), cause)
	wrapped := fmt.Errorf("report: %w", e)
	if !errors.Is(wrapped, cause) {
		t.Error("the cause is not seen through the error")
	}
	if got := Of(wrapped); got != e.Text {
		t.Errorf("Of = %+v", got)
	}
	if e.Error() != "写入失败 / write failed: disk full" {
		t.Errorf("Error() = %q", e.Error())
	}
	if got := Of(cause); got.ZH != "disk full" || got.EN != "disk full" {
		t.Errorf("Of(plain) = %+v", got)
	}
	if !Of(nil).IsZero() {
		t.Error("Of(nil) is not empty")
	}
}

// A sentinel named with a file wraps the sentinel (errors.Is sees it) and
// does not say its words twice.
func TestErrorNamingItsSentinel(t *testing.T) {
	sentinel := NewError(New("不含逐题评分", "no per-question judgements"), nil)
	e := NewError(New(sentinel.ZH+"（a.json）", sentinel.EN+" (a.json)"), sentinel)
	if !errors.Is(e, sentinel) {
		t.Error("errors.Is does not see the sentinel")
	}
	if got := e.Error(); got != "不含逐题评分（a.json） / no per-question judgements (a.json)" {
		t.Errorf("Error() = %q", got)
	}
	if Of(e).In(ZH) != "不含逐题评分（a.json）" || Of(e).In(EN) != "no per-question judgements (a.json)" {
		t.Errorf("Of = %+v", Of(e))
	}
}
