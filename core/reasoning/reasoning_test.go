package reasoning

import "testing"

func TestStrip(t *testing.T) {
	cases := []struct {
		name, in, want string
		cut            bool
	}{
		{"plain", "需要营业执照。", "需要营业执照。", false},
		{"DeepSeek-R1 / Qwen3", "<think>\n先查\n</think>\n\n需要营业执照。", "\n\n需要营业执照。", false},
		{"attributes and case (Dify's _THINK_PATTERN)", `<THINK type="r">想</THINK>答`, "答", false},
		{"Doubao", "<seed:think>想</seed:think>答", "答", false},
		{"Kimi", "◁think▷想◁/think▷答", "答", false},
		{"fine-tunes", "<thinking>a</thinking><reasoning>b</reasoning>答", "答", false},
		{"opening tag eaten by the template", "想了想</think>答", "答", false},
		{"two blocks", "<think>a</think>甲<think>b</think>乙", "甲乙", false},
		{"cut inside the reasoning", "<think>想到一半", "<think>想到一半", true},
		{"a word that only starts like a tag", "<thinker>不是标签</thinker>", "<thinker>不是标签</thinker>", false},
	}
	for _, c := range cases {
		got, cut := Strip(c.in)
		if got != c.want || cut != c.cut {
			t.Errorf("%s: Strip(%q) = %q, %v; want %q, %v", c.name, c.in, got, cut, c.want, c.cut)
		}
	}
}
