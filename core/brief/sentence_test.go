package brief

import (
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

// TestBulletsWholeSentences: a why or recommendation bullet longer than its
// lines is shortened by whole sentences, never cut mid-sentence with "…",
// and what stays ends where one of its sentences ends.
func TestBulletsWholeSentences(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    func(testing.TB, text.Lang) Content
	}{{"sample", sampleLike}, {"three", threeJudges}, {"long", long}} {
		for _, lang := range []text.Lang{LangZH, LangEN} {
			c := tc.c(t, lang)
			c.Why = append(c.Why, longBullet(lang))
			c.Recommendations = append([]string{longBullet(lang)}, c.Recommendations...)
			p, err := Layout(c)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range p.Blocks {
				if b.Kind != "bullet" {
					continue
				}
				text := strings.Join(b.Lines, "")
				if strings.Contains(text, Ellipsis) {
					t.Errorf("%s/%s: bullet cut mid-sentence: %q", tc.name, lang, text)
				}
			}
		}
	}
}

func longBullet(lang text.Lang) string {
	if lang == LangZH {
		return "CuBE 分数 57.52（= 有效性 × 指南召回率），95% 区间 46.24–67.80；可以部署需 ≥ 60，需改进需 ≥ 40；结论：需改进后部署；区间跨过了 60 分的界线，换一组同类问题可能得出另一个结论，因此应增加问题数量后再评估一次，并请评审模型重复评分以减小波动。"
	}
	return "CuBE score 57.52 (= effectiveness × guide recall), 95 % interval 46.24–67.80; deployable needs ≥ 60, needs work ≥ 40; verdict: Needs work before deployment; the interval crosses the 60 threshold, so another set of such questions could give another verdict, and more questions and repeated judging would narrow it."
}

// TestSentences: abbreviations and decimals do not end a sentence.
func TestSentences(t *testing.T) {
	got := sentences("high: 12 questions (e.g. q004, q012) did not retrieve 80.0 %; read them. Then ask.")
	want := []string{"high: 12 questions (e.g. q004, q012) did not retrieve 80.0 %;", " read them.", " Then ask."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sentences = %q, want %q", got, want)
	}
}
