package textmetric

import (
	"reflect"
	"testing"
)

func TestIsChinese(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"", false},
		{"12345 !!", false},
		{"Hello world", false},
		{"办理护照需要什么材料", true},
		// 3 Han of 10 letters = 30 %: Chinese at the boundary.
		{"abcdefg 办理证", true},
		// 2 Han of 9 letters ≈ 22 %: English.
		{"abcdefg 办理", false},
	}
	for _, c := range cases {
		if got := IsChinese(c.in); got != c.want {
			t.Errorf("IsChinese(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestTokenize(t *testing.T) {
	cases := []struct {
		name string
		fn   func(string) []string
		in   string
		want []string
	}{
		{"en basic", TokenizeEnglish, "The Cat's hat, 2024-01!", []string{"the", "cat", "s", "hat", "2024", "01"}},
		{"en empty", TokenizeEnglish, " ,.; ", nil},
		{"zh mixed", TokenizeChinese, "办理ID卡需3个工作日，Fee 20元", []string{"办", "理", "id", "卡", "需", "3", "个", "工", "作", "日", "fee", "20", "元"}},
		{"zh digits glued to latin", TokenizeChinese, "第A12号", []string{"第", "a12", "号"}},
		{"auto zh", Tokenize, "你好吗 World", []string{"你", "好", "吗", "world"}},
		{"auto en", Tokenize, "Hello 世界 and more words", []string{"hello", "世界", "and", "more", "words"}},
	}
	for _, c := range cases {
		got := c.fn(c.in)
		if len(got) == 0 && len(c.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q → %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

func TestContentTokens(t *testing.T) {
	if got, want := ContentTokens("The passport of a citizen is valid"), []string{"passport", "citizen", "valid"}; !reflect.DeepEqual(got, want) {
		t.Errorf("en: %q, want %q", got, want)
	}
	if got, want := ContentTokens("我的护照是有效的"), []string{"护", "照", "效"}; !reflect.DeepEqual(got, want) {
		t.Errorf("zh: %q, want %q", got, want)
	}
}
