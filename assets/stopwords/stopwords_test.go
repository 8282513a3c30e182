package stopwords

import "testing"

func TestLists(t *testing.T) {
	en, zh := English(), Chinese()
	for _, w := range []string{"the", "and", "of", "is"} {
		if !en[w] {
			t.Errorf("English stopwords lack %q", w)
		}
	}
	for _, w := range []string{"的", "了", "是", "我们"} {
		if !zh[w] {
			t.Errorf("Chinese stopwords lack %q", w)
		}
	}
	for _, w := range []string{"passport", "government"} {
		if en[w] {
			t.Errorf("English stopwords contain content word %q", w)
		}
	}
	if zh["税"] || zh["护照"] {
		t.Error("Chinese stopwords contain content words")
	}
	if len(en) < 100 || len(zh) < 250 {
		t.Errorf("lists too short: en %d zh %d", len(en), len(zh))
	}
	en["x"] = true
	if English()["x"] {
		t.Error("English() shares its map between calls")
	}
}
