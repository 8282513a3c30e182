package chunk

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"cubeworkbench/core/text"
	"cubeworkbench/core/textmetric"
)

func TestSpansAgreeWithTextmetric(t *testing.T) {
	for _, s := range []string{
		"", "   ", "办理居住证需要身份证原件。", "Apply at Window 3, by 2024-05-01!",
		"混合text与123数字，E-mail：a_b@x.cn", "Ünïcödé ÅB 二〇二四 ①②", "tab\tnew\nline 一一 ＡＢＣ全角",
	} {
		want := textmetric.TokenizeChinese(s)
		var got []string
		for _, sp := range Spans(s) {
			got = append(got, strings.ToLower(s[sp.Start:sp.End]))
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("Spans(%q) = %q, textmetric = %q", s, got, want)
		}
	}
}

func texts(cs []Chunk) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Text)
	}
	return out
}

func TestChunkers(t *testing.T) {
	cases := []struct {
		name string
		c    Chunker
		text string
		want []string
	}{
		{"fixed 3/1 han", FixedTokens(3, 1), "一二三四五六七", []string{"一二三", "三四五", "五六七"}},
		{"fixed 3/1 short tail", FixedTokens(3, 1), "一二三四", []string{"一二三", "三四"}},
		{"fixed 2/0 latin keeps inner punctuation", FixedTokens(2, 0), "ab cd，ef 12.", []string{"ab cd", "ef 12"}},
		{"fixed shorter than size", FixedTokens(512, 100), "只有一句。", []string{"只有一句"}},
		{"fixed empty", FixedTokens(4, 1), " 。，", nil},
		{"sentence pack, long sentence cut", SentencePack(5), "甲乙。丙丁戊。己庚庚庚庚庚庚。辛",
			[]string{"甲乙。丙丁戊。", "己庚庚庚庚", "庚庚", "辛"}},
		{"sentence pack across lines", SentencePack(4), "First line.\nSecond one here? Yes",
			[]string{"First line.", "Second one here? Yes"}},
		{"sentence pack all fits", SentencePack(100), "A b. C d!\n\n第三句。", []string{"A b. C d!\n\n第三句。"}},
		{"document trims", PerDocument(), "  整篇 文档\n", []string{"整篇 文档"}},
		{"document empty", PerDocument(), " \n\t", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.c.Chunk("d1", c.text)
			if strings.Join(texts(got), "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
				t.Fatalf("chunks = %q, want %q", texts(got), c.want)
			}
			for i, ch := range got {
				if ch.DocID != "d1" || ch.Index != i || c.text[ch.Start:ch.End] != ch.Text {
					t.Errorf("chunk %d = %+v: bad id, index or span", i, ch)
				}
			}
		})
	}
}

func TestFixedWindowSizes(t *testing.T) {
	text := strings.Repeat("字", 1000)
	got := FixedTokens(512, 100).Chunk("d", text)
	// starts 0, 412, 824; the third window reaches the end (token 1000).
	if len(got) != 3 || got[1].Start != 412*3 || got[2].End != len(text) || len(Spans(got[0].Text)) != 512 {
		t.Fatalf("got %d chunks, starts %d/%d", len(got), got[1].Start, got[2].Start)
	}
}

func TestNew(t *testing.T) {
	good := []struct {
		kind          string
		size, overlap int
		name          string
	}{{"fixed", 256, 32, "fixed-256/32"}, {"sentence", 128, 0, "sentence-128"}, {"document", 0, 0, "document"}}
	for _, g := range good {
		c, err := New(g.kind, g.size, g.overlap)
		if err != nil || c.Name() != g.name {
			t.Errorf("New(%q,%d,%d) = %v, %v; want %s", g.kind, g.size, g.overlap, c, err, g.name)
		}
	}
	han := regexp.MustCompile(`\p{Han}`)
	for _, b := range []struct {
		kind          string
		size, overlap int
	}{{"fixed", 0, 0}, {"fixed", 10, 10}, {"fixed", 10, -1}, {"sentence", 0, 0}, {"words", 1, 0}} {
		_, err := New(b.kind, b.size, b.overlap)
		if err == nil {
			t.Errorf("New(%q,%d,%d) accepted", b.kind, b.size, b.overlap)
			continue
		}
		// A text.Error, each language on its own (issue 21).
		var te *text.Error
		if !errors.As(err, &te) || !han.MatchString(te.In(text.ZH)) || han.MatchString(te.In(text.EN)) {
			t.Errorf("New(%q,%d,%d): %v; want a text.Error, each language on its own", b.kind, b.size, b.overlap, err)
		}
	}
}
