package textmetric

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// bleuRefTexts are pairs that exercise what a prepared reference must get
// exactly as SentenceBLEU does: repeated n-grams (clipping), tokens the
// reference lacks, digits with commas and dashes, Chinese and English, an
// empty hypothesis and an empty reference.
var bleuRefTexts = [][2]string{
	{"the cat the cat the cat sat on the mat", "the cat sat on the mat"},
	{"a b c d a b c d", "a b c d e f a b"},
	{"It costs 1,000.50 yuan - 12-3 days.", "It costs 1,000 yuan, 12-3 working days."},
	{"办理居民身份证须携带户口簿原件及复印件，工本费20元。", "办理居民身份证需要户口簿原件、复印件和照片，收费标准：工本费20元。"},
	{"办理办理办理", "办理居民身份证"},
	{"", "办理居民身份证"},
	{"办理居民身份证", ""},
	{"Mixed 中文 and English 文本 text.", "Mixed English 和 中文 text."},
	{"&quot;quoted&quot; <skipped> text-\nbroken", "\"quoted\" text broken"},
}

// TestBLEURefEqualsSentenceBLEU: a prepared reference gives SentenceBLEU's
// result, every field, under every tokenizer, smoothing and case option,
// on the sacreBLEU sentence vectors and on bleuRefTexts.
func TestBLEURefEqualsSentenceBLEU(t *testing.T) {
	v := loadBLEU(t).Vectors.Sentence
	pairs := append([][2]string{{v.SYS, v.REF}, {v.SYS0, v.REF0}}, bleuRefTexts...)
	var opts []BLEUOptions
	for _, c := range append(v.Cases, v.ZeroCases...) {
		var o BLEUOptions
		un(t, c[0], &o.Smooth)
		un(t, c[1], &o.SmoothValue)
		un(t, c[2], &o.Lowercase)
		un(t, c[3], &o.Tokenize)
		opts = append(opts, o)
	}
	for _, tok := range []string{BLEUTok13a, BLEUTokZh, BLEUTokIntl, BLEUTokChar, BLEUTokNone} {
		for _, sm := range []string{SmoothExp, SmoothFloor, SmoothAddK, SmoothNone} {
			opts = append(opts, BLEUOptions{Tokenize: tok, Smooth: sm}, BLEUOptions{Tokenize: tok, Smooth: sm, MaxOrder: 2})
		}
	}
	scratch := &BLEUScratch{} // reused across pairs, as the engine does
	n := 0
	for _, o := range opts {
		for _, p := range pairs {
			if _, _, diff := bleuRefAndSentence(t, o, p[0], p[1], scratch); diff != "" {
				t.Error(diff)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d comparisons", n)
	}
}

// TestBLEURefLongOrders: n-grams longer than four are counted as
// SentenceBLEU counts them (an earlier prepared reference refused them).
func TestBLEURefLongOrders(t *testing.T) {
	for _, order := range []int{5, 7} {
		for _, p := range bleuRefTexts {
			o := BLEUOptions{MaxOrder: order, Tokenize: BLEUTokZh}
			want, err := SentenceBLEU(p[0], []string{p[1]}, o)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := NewBLEURef(p[1], o)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := ref.Sentence(p[0], nil); !reflect.DeepEqual(got, want) {
				t.Errorf("order %d %q vs %q: %+v, want %+v", order, p[0], p[1], got, want)
			}
		}
	}
}

// TestRougeLRefEqualsRougeL: a numbered target gives RougeL's result, to
// the last bit, with predictions holding tokens the target lacks.
func TestRougeLRefEqualsRougeL(t *testing.T) {
	var buf []int32
	for _, p := range bleuRefTexts {
		for _, tok := range []func(string) []string{TokenizeChinese, func(s string) []string { return RougeTokenize(s, false) }} {
			target, pred := tok(p[1]), tok(p[0])
			want := RougeL(target, pred)
			var got PRF
			got, buf = NewRougeLRef(target).L(pred, buf)
			if got != want {
				t.Errorf("%q vs %q: %+v, want %+v", p[0], p[1], got, want)
			}
		}
	}
}

// bleuRefAndSentence scores hyp against ref with a prepared BLEURef and
// with SentenceBLEU, and says how the two results differ ("" when equal).
func bleuRefAndSentence(t testing.TB, o BLEUOptions, hyp, ref string, scratch *BLEUScratch) (*BLEURef, BLEUResult, string) {
	t.Helper()
	want, err := SentenceBLEU(hyp, []string{ref}, o)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewBLEURef(ref, o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Sentence(hyp, scratch)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(got, want) {
		return r, want, ""
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return r, want, fmt.Sprintf("%+v %q vs %q:\n got %s\nwant %s", o, hyp, ref, g, w)
}
