package chart

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

// The sample's comparison, rounded: better, undetectable, worse, n/a.
func fixtureForest() Forest {
	return Forest{Rows: []ForestRow{
		{Label: "ΔCuBE", Diff: f(15.2), Lo: f(8.4), Hi: f(22.3), Verdict: ForestBetter},
		{Label: "relevance", Diff: f(8.7), Lo: f(-3.8), Hi: f(22.4), Verdict: ForestNone},
		{Label: "Recall@k", Diff: f(0), Lo: f(0), Hi: f(0), Verdict: ForestNone},
		{Label: "MFSS", Diff: f(-6.1), Lo: f(-11.5), Hi: f(-0.9), Verdict: ForestWorse},
		{Label: "CoFE", Verdict: ForestUndefined},
	}}
}

func TestForestGolden(t *testing.T) {
	for _, lang := range []text.Lang{LangZH, LangEN} {
		name := "forest_" + string(lang)
		t.Run(name, func(t *testing.T) {
			fig, err := ForestPlot(fixtureForest(), Options{Lang: lang})
			if err != nil {
				t.Fatal(err)
			}
			got, err := fig.PNG()
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".png")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run go test -update to create it): %v", err)
			}
			if d, err := compare(got, want); err != nil {
				out := filepath.Join(t.TempDir(), name+".png")
				_ = os.WriteFile(out, got, 0o644)
				t.Errorf("%s differs from %s: %v (mean %.3f); rendering kept at %s", name, golden, err, d, out)
			}
		})
	}
}

// Structure, read off the SVG: a row label per row, the first on top; each
// defined difference printed with its interval, the undefined one as
// "n/a" and never as 0; the colours follow the verdicts; the height grows
// with the rows; no rows is ErrNoData.
func TestForestStructure(t *testing.T) {
	fo := fixtureForest()
	fig, err := ForestPlot(fo, Options{Lang: LangEN})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	for _, want := range []string{"+15.2 [8.4, 22.3]", "+8.7 [-3.8, 22.4]", "0.0 [0.0, 0.0]", "-6.1 [-11.5, -0.9]", ">n/a<", "clearly better", "Difference Δ (B − A)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the forest plot lacks %q", want)
		}
	}
	if strings.Contains(s, "+0.0") {
		t.Error("a zero difference printed with a sign")
	}
	// A row label per row (through the label table), the first row on top.
	for _, r := range fo.Rows {
		if !strings.Contains(s, ">"+label(LangEN, r.Label)+"<") {
			t.Errorf("row label %q missing", label(LangEN, r.Label))
		}
	}
	fp := &forest{rows: fo.Rows}
	for i := 1; i < len(fo.Rows); i++ {
		if fp.y(i) >= fp.y(i-1) {
			t.Errorf("row %d is drawn at y %v, above row %d at %v", i, fp.y(i), i-1, fp.y(i-1))
		}
	}
	// One dot per defined row in its verdict's colour, plus the legend's.
	for colour, rows := range map[string]int{"#009E73": 1, "#707070": 2, "#D55E00": 1} {
		if got := strings.Count(s, `style="fill:`+colour+`"`); got != rows+1 {
			t.Errorf("%d dots of %s, want %d rows + the legend's", got, colour, rows)
		}
	}
	small, _ := ForestPlot(Forest{Rows: fo.Rows[:1]}, Options{})
	if small.Height >= fig.Height {
		t.Errorf("height %v for one row, %v for %d", small.Height, fig.Height, len(fo.Rows))
	}
	if _, err := ForestPlot(Forest{}, Options{}); !errors.Is(err, ErrNoData) {
		t.Errorf("no rows: %v", err)
	}
}
