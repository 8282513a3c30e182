package chart

import (
	"strings"
	"testing"
)

// TestRadarLegendNamesSets: the radar's legend names the answer sets as
// the glossary does (零上下文回答（下界）, not "zero"), in both languages;
// a further system keeps its own name.
func TestRadarLegendNamesSets(t *testing.T) {
	v := 0.5
	vals := []*float64{&v, &v, &v, &v, &v, &v}
	series := []RadarSeries{{Name: "full", Values: vals}, {Name: "rag", Values: vals}, {Name: "zero", Values: vals}, {Name: "系统B", Values: vals}}
	for _, lang := range []string{LangZH, LangEN} {
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
