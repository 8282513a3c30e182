package dimension_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dimension"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/profile"
)

// TestEntries: every built-in dimension is complete and agrees with its
// prompt templates' front matter.
func TestEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range dimension.All() {
		switch {
		case d.Name == "" || d.Name != strings.ToLower(d.Name) || strings.ContainsAny(d.Name, " ./"):
			t.Errorf("%q: name must be a lower-case word", d.Name)
		case d.Name == cube.Weighted:
			t.Errorf("%q is the weighted total's key", d.Name)
		case seen[d.Name]:
			t.Errorf("%q registered twice", d.Name)
		}
		seen[d.Name] = true
		if d.Method != dimension.CuBE && d.Method != dimension.CoFE {
			t.Errorf("%s: method %q", d.Name, d.Method)
		}
		if d.TitleZH == "" || d.TitleEN == "" {
			t.Errorf("%s: titles %q / %q", d.Name, d.TitleZH, d.TitleEN)
		}
		if d.Method == dimension.CuBE && (d.AdviceZH == "" || d.AdviceEN == "") {
			t.Errorf("%s: a CuBE dimension needs advice for the weak-dimension recommendation", d.Name)
		}
		if d.Default && d.Method != dimension.CuBE {
			t.Errorf("%s: only CuBE dimensions are in the default rubric", d.Name)
		}
		jd, err := judge.BuiltinFrom("", d.Name)
		if err != nil {
			t.Errorf("%s: prompt %s: %v", d.Name, d.Prompt(), err)
			continue
		}
		if jd.Name != d.Name || jd.TitleZH != d.TitleZH || jd.TitleEN != d.TitleEN {
			t.Errorf("%s: prompt front matter says name %q titles %q / %q", d.Name, jd.Name, jd.TitleZH, jd.TitleEN)
		}
	}
}

// TestDefaults: the default rubric is the paper's four, and the methods and
// the profile take it from the registry.
func TestDefaults(t *testing.T) {
	want := []string{"relevance", "specificity", "completeness", "quality"}
	if got := dimension.Defaults(); !slices.Equal(got, want) {
		t.Errorf("Defaults %v, want %v", got, want)
	}
	if !slices.Equal(cube.DefaultDimensions, want) || !slices.Equal(profile.Default().Dimensions, want) {
		t.Errorf("cube %v, profile %v", cube.DefaultDimensions, profile.Default().Dimensions)
	}
	if got := dimension.Names(dimension.CoFE); !slices.Equal(got, []string{"correctness", "faithfulness", "relevancy"}) {
		t.Errorf("CoFE names %v", got)
	}
	if title, ok := dimension.Title("specificity", "zh"); !ok || title != "具体性" {
		t.Errorf("Title = %q %v", title, ok)
	}
	if _, ok := dimension.Title("house_style", "en"); ok {
		t.Error("a custom dimension has a built-in title")
	}
}

// TestLexicalRules: each offline judge (lexical, semantic) scores every
// dimension that names a rule for it and only those.
func TestLexicalRules(t *testing.T) {
	in := judge.Inputs{Question: "社保卡怎么补办？", Answer: "社保卡补办需要携带身份证到社保中心办理，3个工作日。",
		Document: "社保卡补办：携带身份证到社保中心办理，办理时限3个工作日。", Reference: "携带身份证到社保中心补办社保卡。",
		Contexts: []string{"社保卡补办：携带身份证到社保中心办理。"}}
	for _, d := range dimension.All() {
		jd, err := judge.BuiltinFrom("", d.Name)
		if err != nil {
			t.Fatal(err)
		}
		out, err := judge.Lexical{}.Score(context.Background(), jd, in, 0)
		if err != nil {
			t.Fatal(err)
		}
		if scored := out.OK; scored != (d.Lexical != dimension.RuleNone) {
			t.Errorf("%s (rule %q): scored %v, reason %q", d.Name, d.Lexical, scored, out.Reason)
		}
		out, err = judge.Semantic{}.Score(context.Background(), jd, in, 0)
		if err != nil {
			t.Fatal(err)
		}
		if scored := out.OK; scored != (d.Semantic != dimension.RuleNone) {
			t.Errorf("%s (semantic rule %q): scored %v, reason %q", d.Name, d.Semantic, scored, out.Reason)
		}
	}
}
