package fonts

import (
	"testing"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/encoding/simplifiedchinese"
)

func parse(t *testing.T) *sfnt.Font {
	t.Helper()
	f, err := sfnt.Parse(CJK())
	if err != nil {
		t.Fatalf("sfnt.Parse(%s): %v", File, err)
	}
	return f
}

func TestName(t *testing.T) {
	f := parse(t)
	var buf sfnt.Buffer
	got, err := f.Name(&buf, sfnt.NameIDFamily)
	if err != nil {
		t.Fatalf("family name: %v", err)
	}
	if got != Name {
		t.Errorf("family name = %q, Name = %q", got, Name)
	}
}

// TestCoverage checks the strings charts actually draw: mixed-script titles,
// digits, signs and CJK punctuation must each have a real glyph (index 0 is
// .notdef, the tofu box).
func TestCoverage(t *testing.T) {
	f := parse(t)
	var buf sfnt.Buffer
	for _, s := range []string{
		"评分分布 Score 0.85",
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
		"，。、；：？！（）《》“”—…·±−×≤≥",
		"相关性 具体性 完整性 质量 事实类 分析类 比较类 教程类 不适用",
	} {
		for _, r := range s {
			if r == ' ' {
				continue
			}
			idx, err := f.GlyphIndex(&buf, r)
			if err != nil || idx == 0 {
				t.Errorf("no glyph for %q (U+%04X) in %q: idx=%d err=%v", r, r, s, idx, err)
			}
		}
	}
}

// TestGB2312 walks both levels of GB2312 (rows 16–87) through the GBK decoder
// and requires a glyph for every Han character.
func TestGB2312(t *testing.T) {
	f := parse(t)
	var buf sfnt.Buffer
	dec := simplifiedchinese.GBK.NewDecoder()
	han, missing := 0, 0
	for hi := 0xB0; hi <= 0xF7; hi++ {
		for lo := 0xA1; lo <= 0xFE; lo++ {
			if hi == 0xD7 && lo >= 0xFA { // row 55 ends at 0xD7F9
				continue
			}
			s, err := dec.Bytes([]byte{byte(hi), byte(lo)})
			if err != nil {
				t.Fatalf("decode %X%X: %v", hi, lo, err)
			}
			r := []rune(string(s))[0]
			han++
			if idx, err := f.GlyphIndex(&buf, r); err != nil || idx == 0 {
				missing++
				if missing < 10 {
					t.Errorf("no glyph for %q (GB2312 %X%X)", r, hi, lo)
				}
			}
		}
	}
	if han != 6763 {
		t.Errorf("walked %d GB2312 Han characters, want 6763", han)
	}
	if missing > 0 {
		t.Errorf("%d GB2312 characters missing", missing)
	}
}

// TestFormal: the printed pages' face parses as TrueType, is Noto Sans CJK
// SC (not the informal Kai style), covers what the charts draw and all of
// GB2312, and stays small enough for the repository.
func TestFormal(t *testing.T) {
	f, err := sfnt.Parse(Formal())
	if err != nil {
		t.Fatalf("sfnt.Parse(%s): %v", FormalFile, err)
	}
	var buf sfnt.Buffer
	if got, _ := f.Name(&buf, sfnt.NameIDFamily); got != FormalName {
		t.Errorf("family %q, want %q", got, FormalName)
	}
	if n := len(Formal()); n > 3<<20 {
		t.Errorf("%s is %d bytes; subset it (subset.py)", FormalFile, n)
	}
	dec := simplifiedchinese.GBK.NewDecoder()
	missing := 0
	for hi := 0xB0; hi <= 0xF7; hi++ {
		for lo := 0xA1; lo <= 0xFE; lo++ {
			s, err := dec.Bytes([]byte{byte(hi), byte(lo)})
			if err != nil {
				continue
			}
			for _, r := range string(s) {
				if r == '\uFFFD' || r < 0x4E00 {
					continue
				}
				if idx, err := f.GlyphIndex(&buf, r); err != nil || idx == 0 {
					missing++
				}
			}
		}
	}
	if missing > 0 {
		t.Errorf("%d GB2312 Han characters have no glyph", missing)
	}
	for _, r := range "评分分布 Score 0.85，。、；：？！（）《》“”—…·±−×≤≥Δ✓→•①" {
		if r == ' ' {
			continue
		}
		if idx, err := f.GlyphIndex(&buf, r); err != nil || idx == 0 {
			t.Errorf("no glyph for %q", r)
		}
	}
}
