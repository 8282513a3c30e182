package brief

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// runeWidth measures every rune as 1 mm, whatever the size: enough to test
// breaking and cutting without a font.
func runeWidth(s string, _ float64) float64 { return float64(utf8.RuneCountInString(s)) }

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"召回率 78.3 %）。", []string{"召", "回", "率 ", "78.3 %）。"}},
		{"recall (78.3 %).", []string{"recall ", "(78.3 %)."}},
		{"见《指南》第3条", []string{"见", "《指", "南》", "第", "3", "条"}},
		{"CuBE 得分", []string{"CuBE ", "得", "分"}},
	} {
		if got := tokens(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		w     float64
		max   int
		want  []string
		isCut bool
	}{
		{"fits", "短句", 10, 2, []string{"短句"}, false},
		{"breaks between Han", "一二三四五六", 4, 2, []string{"一二三四", "五六"}, false},
		{"no line starts with a closing mark", "一二三，四五", 3, 3, []string{"一二", "三，四", "五"}, false},
		{"words stay whole", "one two three", 8, 2, []string{"one two", "three"}, false},
		{"cut with a marker", "一二三四五六七八九十", 4, 2, []string{"一二三四", "五六七" + Ellipsis}, true},
		{"over-long word broken by runes", "abcdefghij", 4, 3, []string{"abcd", "efgh", "ij"}, false},
		{"empty", "  ", 4, 2, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := wrap(runeWidth, tc.in, 10, tc.w, tc.max)
			if !reflect.DeepEqual(got, tc.want) || cut != tc.isCut {
				t.Fatalf("wrap = %q cut=%v, want %q cut=%v", got, cut, tc.want, tc.isCut)
			}
			for _, l := range got {
				if runeWidth(l, 0) > tc.w {
					t.Errorf("line %q is wider than %g", l, tc.w)
				}
				if strings.HasPrefix(l, " ") {
					t.Errorf("line %q starts with a space", l)
				}
			}
		})
	}
}
