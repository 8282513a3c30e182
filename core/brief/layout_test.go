package brief

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"cubeworkbench/core/text"
)

var update = flag.Bool("update", false, "rewrite the golden layouts in testdata/")

func round(v float64) float64 { return math.Round(v*10) / 10 }

// TestLayoutGolden pins the structure of the page (which blocks, where, which
// lines), not the PDF's bytes.
func TestLayoutGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    func(testing.TB, text.Lang) Content
	}{{"sample", sampleLike}, {"three", threeJudges}, {"long", long}, {"undetermined", undetermined}} {
		for _, lang := range []text.Lang{LangZH, LangEN} {
			name := tc.name + "-" + string(lang)
			t.Run(name, func(t *testing.T) {
				p, err := Layout(tc.c(t, lang))
				if err != nil {
					t.Fatal(err)
				}
				for i := range p.Blocks {
					b := &p.Blocks[i]
					b.X, b.Y, b.W, b.H = round(b.X), round(b.Y), round(b.W), round(b.H)
					for j := range b.Cols {
						b.Cols[j] = round(b.Cols[j])
					}
				}
				got, err := json.MarshalIndent(p, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", name+".json")
				if *update {
					if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
					t.Errorf("layout differs from %s (run with -update if intended):\n%s", path, got)
				}
			})
		}
	}
}

// TestLayoutStaysOnPage checks what keeps the page whole: every block inside
// the printable area, text blocks in order without overlapping, charts whole
// and below the text, and long inputs cut with a marker.
func TestLayoutStaysOnPage(t *testing.T) {
	for _, tc := range []struct {
		name    string
		c       func(testing.TB, text.Lang) Content
		wantCut bool
	}{{"sample", sampleLike, false}, {"three", threeJudges, false}, {"long", long, true}, {"undetermined", undetermined, false}} {
		for _, lang := range []text.Lang{LangZH, LangEN} {
			t.Run(tc.name+"-"+string(lang), func(t *testing.T) {
				c := tc.c(t, lang)
				p, err := Layout(c)
				if err != nil {
					t.Fatal(err)
				}
				const eps = 0.01
				bottom, charts, cut := 0.0, 0, false
				for _, b := range p.Blocks {
					if b.X < marginX-eps || b.X+b.W > PageW-marginX+eps || b.Y < marginTop-eps || b.Y+b.H > PageH-marginBottom+eps {
						t.Errorf("%s block at (%.1f, %.1f) %.1f×%.1f leaves the printable area", b.Kind, b.X, b.Y, b.W, b.H)
					}
					cut = cut || b.Cut
					if b.Kind == "chart" {
						charts++
						if b.H < minChartH-eps {
							t.Errorf("chart %d is %.1f mm high, below %g", b.Chart, b.H, minChartH)
						}
						if b.Y < bottom-eps {
							t.Errorf("chart %d starts at %.1f, over text ending at %.1f", b.Chart, b.Y, bottom)
						}
						continue
					}
					if b.Kind == "rule" {
						continue
					}
					if b.Y < bottom-eps {
						t.Errorf("%s block %q starts at %.1f, over the block ending at %.1f", b.Kind, b.Lines, b.Y, bottom)
					}
					bottom = b.Y + b.H
				}
				if charts != len(c.Charts) {
					t.Errorf("%d charts placed of %d", charts, len(c.Charts))
				}
				if cut != tc.wantCut {
					t.Errorf("cut = %v, want %v", cut, tc.wantCut)
				}
				if tc.wantCut {
					js, _ := json.Marshal(p)
					if !strings.Contains(string(js), Ellipsis) || !strings.Contains(string(js), "Excel") {
						t.Error("long input is cut without a visible marker")
					}
				}
			})
		}
	}
}

// TestRefusesWrongVerdict: content whose verdict does not follow from its
// score is refused, never printed.
func TestRefusesWrongVerdict(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Content)
	}{
		{"score above deployable called needs work", func(c *Content) { c.Cube = f(75) }},
		{"no score but a verdict", func(c *Content) { c.Cube, c.Lo, c.Hi = nil, nil, nil }},
		{"unknown verdict", func(c *Content) { c.Verdict = "ok" }},
		{"NaN score", func(c *Content) { c.Cube = f(math.NaN()) }},
		{"half an interval", func(c *Content) { c.Hi = nil }},
		{"reversed interval", func(c *Content) { c.Lo, c.Hi = f(60), f(40) }},
		{"interval without resamples", func(c *Content) { c.Resamples = 0 }},
		{"thresholds reversed", func(c *Content) { c.NeedsWork = 80 }},
		{"chart without image", func(c *Content) { c.Charts = []Chart{{}} }},
		{"not a PNG", func(c *Content) { c.Charts = []Chart{{PNG: []byte("GIF89a")}} }},
		{"three charts", func(c *Content) { c.Charts = append(c.Charts, c.Charts[0]) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := sampleLike(t, LangZH)
			tc.edit(&c)
			_, err := Render(c)
			var e *Error
			if !errors.As(err, &e) || e.ZH == "" || e.EN == "" {
				t.Fatalf("Render = %v, want a bilingual *Error", err)
			}
			// Each front end says it in one language (text.Of, the
			// session's Explain): no Chinese in the English words.
			if w := text.Of(err); strings.ContainsFunc(w.EN, func(r rune) bool { return unicode.Is(unicode.Han, r) }) || w.ZH == w.EN {
				t.Errorf("Render's refusal in words %+v, not one language each", w)
			}
		})
	}
	c := sampleLike(t, LangZH)
	c.Verdict, c.Cube, c.Lo, c.Hi = Undetermined, nil, nil, nil
	if _, err := Render(c); err != nil {
		t.Fatalf("an undetermined brief is refused: %v", err)
	}
}

// TestPNGChartKeepsAspect: ready PNG bytes are placed whole, not stretched.
func TestPNGChartKeepsAspect(t *testing.T) {
	fig := cubeFigure(t, LangZH, []Judge{{Name: "a", Cube: f(50)}}, f(50), nil, nil)
	png, err := fig.PNG()
	if err != nil {
		t.Fatal(err)
	}
	c := sampleLike(t, LangZH)
	c.Charts = []Chart{{PNG: png, Caption: "图 1"}}
	p, err := Layout(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range p.Blocks {
		if b.Kind == "chart" {
			if got, want := b.H/b.W, float64(fig.Height/fig.Width); math.Abs(got-want) > 0.01 {
				t.Errorf("aspect %.3f, want %.3f", got, want)
			}
			return
		}
	}
	t.Fatal("no chart placed")
}
