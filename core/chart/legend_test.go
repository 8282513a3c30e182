package chart

import (
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

// TestRadarLegendNamesSets: the radar's legend names the answer sets as
// the glossary does (零上下文回答（下界）, not "zero"), in both languages;
// a further system keeps its own name.
func TestRadarLegendNamesSets(t *testing.T) {
	v := 0.5
	vals := []*float64{&v, &v, &v, &v, &v, &v}
	series := []RadarSeries{{Name: "full", Values: vals}, {Name: "rag", Values: vals}, {Name: "zero", Values: vals}, {Name: "系统B", Values: vals}}
	for _, lang := range []text.Lang{LangZH, LangEN} {
		fig, err := Radar(MFSSFactors, series, Options{Lang: lang})
		if err != nil {
			t.Fatal(err)
		}
		fr := fig.body.(*frame)
		for i, it := range fr.legend {
			if i < 3 && (it.name == series[i].Name || !strings.ContainsFunc(it.name, func(r rune) bool { return r > 127 }) == (lang == LangZH)) {
				t.Errorf("%s: legend %d reads %q", lang, i, it.name)
			}
		}
		if got := fr.legend[3].name; got != "系统B" {
			t.Errorf("%s: a further system reads %q", lang, got)
		}
	}
}

// TestForestTextLegible measures the forest plot's numbers as drawn: at
// least 11 px tall at the figure's 96 dpi (they were 7.5 pt, 10 px, then
// shrunk with the image).
func TestForestTextLegible(t *testing.T) {
	if err := registerFont(); err != nil {
		t.Fatal(err)
	}
	sty := textStyle(forestText, nil)
	px := float64(sty.Font.Size) * DPI / 72 // the em, as a reader sees the size
	if px < 11 {
		t.Errorf("the forest plot's numbers are %.1f px tall at %d dpi, want ≥ 11", px, DPI)
	}
	t.Logf("forest numbers %.1f px tall at %d dpi", px, DPI)
}

// TestOfflineJudgesNamedByGlossary: the charts that name judges (CuBE per
// judge, histograms, heatmaps, the three sets' bars) call the offline
// judges by the glossary's names (词汇基线评审), never by their ids
// lexical and semantic; an LLM judge keeps the user's name.
func TestOfflineJudgesNamedByGlossary(t *testing.T) {
	v := 5.0
	p := &v
	for _, lang := range []text.Lang{LangZH, LangEN} {
		o := Options{Lang: lang}
		var figs []*Figure
		add := func(f *Figure, err error) {
			if err != nil {
				t.Fatal(err)
			}
			figs = append(figs, f)
		}
		add(CuBEBars(JudgeScores{Judges: []string{"lexical", "semantic", "qwen-max"}, Scores: []Estimate{{Value: p}, {Value: p}, {Value: p}}, Mean: Estimate{Value: p}}, o))
		add(Histograms([]ScoreSample{{Judge: "lexical", Dimension: "relevance", Scores: []float64{1, 2, 3}}, {Judge: "qwen-max", Dimension: "relevance", Scores: []float64{4, 5}}}, o))
		add(Heatmap(Matrix{Rows: []string{"semantic", "qwen-max"}, Cols: []string{"relevance"}, Values: [][]*float64{{p}, {p}}}, o))
		add(BoundsBars(Bounds{Judge: "lexical", Dimensions: []string{"relevance"}, Zero: []*float64{p}, RAG: []*float64{p}, Full: []*float64{p}}, o))
		for i, f := range figs {
			svg, err := f.SVG()
			if err != nil {
				t.Fatal(err)
			}
			s := string(svg)
			for _, id := range []string{">lexical<", ">semantic<", "· lexical<", "· semantic<"} {
				if strings.Contains(s, id) {
					t.Errorf("%s: figure %d shows the judge id %q", lang, i, id)
				}
			}
			if i < 3 && !strings.Contains(s, "qwen-max") {
				t.Errorf("%s: figure %d lost the user's judge name", lang, i)
			}
		}
	}
}
