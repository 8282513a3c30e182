package engine

import (
	"testing"

	"cubeworkbench/core/profile"
	"cubeworkbench/core/text"
)

// TestGeneratorFingerprintPinned pins the fingerprints of generated answers
// and questions, computed on the code before the generator's language became
// a text.Lang (issue 21): the language is hashed as "zh" or "en", exactly as
// it was, so stored zero/full answers and generated questions are still
// found and a resumed run does not ask (and pay) again.
func TestGeneratorFingerprintPinned(t *testing.T) {
	gen := profile.Endpoint{Model: "qwen-max"}
	p := profile.Profile{Seed: 42}
	cases := []struct {
		lang              text.Lang
		bound, zero, ques string
	}{
		{"zh", "add899d6803206b36fbfcf39bbde98c767499066d079aaca0a600c4e11188887",
			"06ed45bb1b7e37b89f561999e60e71433995217db97827ec3bc53e789a1d3d02",
			"21d878dddfbc77f07f5dfb94f530ccd2d43186b34ceda3b1407032789cf24614"},
		{"en", "003a34b1d28e74e1e969ac3276e1410d206766529dee75981898693116f57e95",
			"3d6c639cde5feb52682e519d7d4d3fdf1f6ab8d7cd295656741de00fa24b4f0a",
			"37fbbc8dc3468b5de305ccd16029d07a099942a626b78e8d44b5983d908f9f91"},
		// No language set: the generator's prompts are the Chinese ones, as
		// they always were (not English, as text.LangOf would read "").
		{"", "add899d6803206b36fbfcf39bbde98c767499066d079aaca0a600c4e11188887",
			"06ed45bb1b7e37b89f561999e60e71433995217db97827ec3bc53e789a1d3d02",
			"21d878dddfbc77f07f5dfb94f530ccd2d43186b34ceda3b1407032789cf24614"},
	}
	for _, c := range cases {
		g := newGeneratorFP(gen, p, c.lang)
		if g.answer == "" || g.question == "" {
			t.Fatalf("%s: the built-in generator templates were not read", c.lang)
		}
		got := []string{
			g.bound("full", "如何办理居住证？", "指南正文"),
			g.bound("zero", "如何办理居住证？", ""),
			g.generatedQuestion("procedure", "指南正文"),
		}
		for i, want := range []string{c.bound, c.zero, c.ques} {
			if got[i] != want {
				t.Errorf("%s: fingerprint %d is %s, want %s: stored answers would not be found", c.lang, i, got[i], want)
			}
		}
	}
}
