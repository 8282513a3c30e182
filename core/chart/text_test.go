package chart

import (
	"errors"
	"strings"
	"testing"

	"cubeworkbench/assets/fonts"
	"cubeworkbench/core/text"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// strs records the strings a figure draws, failing the test when any is
// drawn with a face other than the embedded one (gonum would fall back to
// Liberation, which has no Han glyphs).
func strs(t *testing.T, fig *Figure) []string {
	t.Helper()
	rec := &recorder.Canvas{}
	fig.Draw(draw.NewCanvas(rec, fig.Width, fig.Height))
	var out []string
	for _, a := range rec.Actions {
		if fs, ok := a.(*recorder.FillString); ok {
			if fs.Font.Typeface != Typeface {
				t.Errorf("%q drawn with typeface %q, want %q", fs.String, fs.Font.Typeface, Typeface)
			}
			out = append(out, fs.String)
		}
	}
	return out
}

func countContaining(ss []string, sub string) int {
	n := 0
	for _, s := range ss {
		if strings.Contains(s, sub) {
			n++
		}
	}
	return n
}

// TestFixtureNA counts the "n/a" texts each fixture must draw: one per nil
// value, counted by hand from the fixtures in chart_test.go.
func TestFixtureNA(t *testing.T) {
	want := map[string]int{
		"histograms":    0,
		"heatmap":       3, // deepseek×completeness, llama×relevance, llama×specificity
		"bounds":        1, // full×quality
		"cube":          1, // glm-4-9b
		"bounds_narrow": 1, // as bounds
		"cube_narrow":   1, // as cube
		"radar":         1, // legend: baseline (n/a: Coherence)
		"querytypes":    1, // recall×tutorial
		"sweep":         1, // dense at 256
	}
	for _, c := range chartCases {
		t.Run(c.name, func(t *testing.T) {
			fig, err := c.build(Options{Lang: LangEN})
			if err != nil {
				t.Fatal(err)
			}
			if got := countContaining(strs(t, fig), "n/a"); got != want[c.name] {
				t.Errorf("%d texts with n/a, want %d", got, want[c.name])
			}
		})
	}
}

// TestAllUndefined feeds every chart nothing but nil values: none may panic,
// each must draw n/a where the value would be, and none may print a number
// for a missing value.
func TestAllUndefined(t *testing.T) {
	nils := func(n int) []*float64 { return make([]*float64, n) }
	cases := []struct {
		name  string
		build func() (*Figure, error)
		na    int
		zero  string // how a wrongly drawn 0 would read ("" when values are not printed)
	}{
		{"heatmap", func() (*Figure, error) {
			return Heatmap(Matrix{Rows: []string{"a", "b"}, Cols: []string{"x", "y"}, Values: [][]*float64{nils(2), nils(2)}}, Options{Lang: LangEN})
		}, 4, "0.00"},
		{"histograms", func() (*Figure, error) {
			// (A,d1) empty, (A,d2) and (B,d1) absent, (B,d2) has a score.
			return Histograms([]ScoreSample{{Judge: "A", Dimension: "d1"}, {Judge: "B", Dimension: "d2", Scores: []float64{5}}}, Options{Lang: LangEN})
		}, 3, "n=0"},
		{"bounds", func() (*Figure, error) {
			return BoundsBars(Bounds{Judge: "A", Dimensions: []string{"x", "y"}, Zero: nils(2), RAG: nils(2), Full: nils(2)}, Options{Lang: LangEN})
		}, 6, "0.00"},
		{"cube", func() (*Figure, error) {
			return CuBEBars(JudgeScores{Judges: []string{"A", "B"}, Scores: make([]Estimate, 2)}, Options{Lang: LangEN})
		}, 3, "0.0"}, // two bars and the mean in the legend
		{"radar", func() (*Figure, error) {
			return Radar(MFSSFactors, []RadarSeries{{Name: "s", Values: nils(6)}}, Options{Lang: LangEN})
		}, 1, ""},
		{"querytypes", func() (*Figure, error) {
			return QueryTypeBars(TypeMetrics{Types: []string{"factual"}, Metrics: []Series{{Name: "recall", Values: nils(1)}, {Name: "coverage", Values: nils(1)}}}, Options{Lang: LangEN})
		}, 2, "0.00"},
		{"sweep", func() (*Figure, error) {
			return ChunkSweep(Sweep{Metric: "recall", Lines: []Line{{Name: "bm25", X: []float64{128, 256, 512}, Y: nils(3)}}}, Options{Lang: LangEN})
		}, 3, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fig, err := c.build()
			if err != nil {
				t.Fatal(err)
			}
			ss := strs(t, fig)
			if got := countContaining(ss, "n/a"); got != c.na {
				t.Errorf("%d texts with n/a, want %d: %q", got, c.na, ss)
			}
			if c.zero != "" && countContaining(ss, c.zero) > 0 {
				t.Errorf("a missing value was printed as %q: %q", c.zero, ss)
			}
			if _, err := fig.PNG(); err != nil {
				t.Errorf("png: %v", err)
			}
			if _, err := fig.SVG(); err != nil {
				t.Errorf("svg: %v", err)
			}
		})
	}
}

// TestQueryTypeNames: "factual" is a query type here, not the MFSS factor.
func TestQueryTypeNames(t *testing.T) {
	for lang, want := range map[text.Lang][]string{
		LangEN: {"Factual", "Analytical", "Comparative", "Tutorial", "Keyword accuracy@k", "Keyword recall", "Keyword coverage"},
		LangZH: {"事实类", "分析类", "比较类", "教程类", "关键词准确率@k", "关键词召回率", "关键词覆盖率"},
	} {
		fig, err := QueryTypeBars(fixtureTypes(), Options{Lang: lang})
		if err != nil {
			t.Fatal(err)
		}
		ss := strs(t, fig)
		for _, w := range want {
			found := false
			for _, s := range ss {
				found = found || s == w
			}
			if !found {
				t.Errorf("%s: %q not drawn in %q", lang, w, ss)
			}
		}
		if n := countContaining(ss, label(lang, "factual")); n > 0 {
			t.Errorf("%s: query type shown as the MFSS factor %q", lang, label(lang, "factual"))
		}
	}
}

func TestZhNA(t *testing.T) {
	fig, err := Heatmap(fixtureMatrix(), Options{Lang: LangZH})
	if err != nil {
		t.Fatal(err)
	}
	if got := countContaining(strs(t, fig), "不适用"); got != 3 {
		t.Errorf("%d 不适用, want 3", got)
	}
}

func TestBins(t *testing.T) {
	cases := []struct {
		name   string
		scores []float64
		counts map[int]int
		n      int
		sum    float64
	}{
		{"integers", []float64{0, 10, 10, 3}, map[int]int{0: 1, 10: 2, 3: 1}, 4, 23},
		{"halves round up", []float64{7.5, 7.4, 8}, map[int]int{7: 1, 8: 2}, 3, 22.9},
		{"edges", []float64{-0.5, 10.4}, map[int]int{0: 1, 10: 1}, 2, 9.9},
		{"out of range left out", []float64{-1, 10.5, 11}, map[int]int{}, 0, 0},
		{"empty", nil, map[int]int{}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bins
			b.add(c.scores)
			for k := range 11 {
				if b.counts[k] != c.counts[k] {
					t.Errorf("bin %d = %d, want %d", k, b.counts[k], c.counts[k])
				}
			}
			if b.n != c.n || b.sum < c.sum-1e-9 || b.sum > c.sum+1e-9 {
				t.Errorf("n, sum = %d, %v; want %d, %v", b.n, b.sum, c.n, c.sum)
			}
		})
	}
}

func TestHistogramNote(t *testing.T) {
	fig, err := Histograms([]ScoreSample{{Judge: "J", Dimension: "relevance", Scores: []float64{0, 7.5, 7.4, 10, 11, -1, 8}}}, Options{Lang: LangEN})
	if err != nil {
		t.Fatal(err)
	}
	ss := strs(t, fig)
	// 0+7.5+7.4+10+8 = 32.9 over 5 counted scores.
	if countContaining(ss, "n=5  mean 6.58") != 1 {
		t.Errorf("no panel note n=5 mean 6.58 in %q", ss)
	}
	if countContaining(ss, "Relevance") != 1 {
		t.Errorf("no column header Relevance in %q", ss)
	}
}

func TestLabel(t *testing.T) {
	cases := []struct {
		lang      text.Lang
		key, want string
	}{
		{LangEN, "relevance", "Relevance"},
		{LangZH, "relevance", "相关性"},
		{"", "Relevance", "相关性"}, // default Chinese; keys match case-insensitively
		{LangEN, "qwen2.5-32b", "qwen2.5-32b"},
		{LangZH, "n/a", "不适用"},
	}
	for _, c := range cases {
		if got := label(c.lang, c.key); got != c.want {
			t.Errorf("label(%q, %q) = %q, want %q", c.lang, c.key, got, c.want)
		}
	}
	if got := queryTypeLabel(LangZH, "factual"); got != "事实类" {
		t.Errorf("query type factual = %q", got)
	}
	if got := label(LangZH, "factual"); got != "事实一致性" {
		t.Errorf("factor factual = %q", got)
	}
}

// TestLabelGlyphs checks that the registered face draws every character of
// the label table in both languages (glyph 0 is the tofu box).
func TestLabelGlyphs(t *testing.T) {
	if err := registerFont(); err != nil {
		t.Fatal(err)
	}
	face := font.DefaultCache.Lookup(font.Font{Typeface: Typeface}, 10)
	if face.Font.Typeface != Typeface {
		t.Fatalf("cache returned %q", face.Font.Typeface)
	}
	var buf sfnt.Buffer
	for key, b := range labels {
		for _, s := range []string{b.ZH, b.EN, "评分分布 Score 0.85"} {
			for _, r := range s {
				if r == ' ' {
					continue
				}
				if idx, err := face.Face.GlyphIndex(&buf, r); err != nil || idx == 0 {
					t.Errorf("label %q: no glyph for %q", key, r)
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name   string
		build  func() (*Figure, error)
		noData bool
	}{
		{"heatmap empty", func() (*Figure, error) { return Heatmap(Matrix{}, Options{}) }, true},
		{"heatmap ragged", func() (*Figure, error) {
			return Heatmap(Matrix{Rows: []string{"a"}, Cols: []string{"x", "y"}, Values: [][]*float64{{f(1)}}}, Options{})
		}, false},
		{"histograms empty", func() (*Figure, error) { return Histograms(nil, Options{}) }, true},
		{"bounds ragged", func() (*Figure, error) {
			return BoundsBars(Bounds{Dimensions: []string{"x"}, Zero: []*float64{f(1)}, RAG: nil, Full: []*float64{f(1)}}, Options{})
		}, false},
		{"cube empty", func() (*Figure, error) { return CuBEBars(JudgeScores{}, Options{}) }, true},
		{"cube ragged", func() (*Figure, error) { return CuBEBars(JudgeScores{Judges: []string{"a"}}, Options{}) }, false},
		{"radar two axes", func() (*Figure, error) {
			return Radar([]string{"a", "b"}, []RadarSeries{{Values: []*float64{f(1), f(1)}}}, Options{})
		}, true},
		{"radar ragged", func() (*Figure, error) {
			return Radar(MFSSFactors, []RadarSeries{{Values: []*float64{f(1)}}}, Options{})
		}, false},
		{"sweep empty", func() (*Figure, error) { return ChunkSweep(Sweep{}, Options{}) }, true},
		{"sweep zero size", func() (*Figure, error) {
			return ChunkSweep(Sweep{Lines: []Line{{X: []float64{0}, Y: []*float64{f(1)}}}}, Options{})
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fig, err := c.build()
			if err == nil {
				t.Fatalf("no error, figure %v", fig)
			}
			if errors.Is(err, ErrNoData) != c.noData {
				t.Errorf("errors.Is(%v, ErrNoData) = %v, want %v", err, !c.noData, c.noData)
			}
		})
	}
}

// TestPlainPlot renders a caller's own *plot.Plot through the package
// functions at the size asked for.
func TestPlainPlot(t *testing.T) {
	p := newPlot()
	p.Title.Text = "评分分布 Score 0.85"
	img := Image(p, Px(200), Px(100))
	if got := img.Bounds().Size(); got.X != 200 || got.Y != 100 {
		t.Errorf("image size %v, want 200×100", got)
	}
	b, err := PNG(p, Px(200), Px(100))
	if err != nil || len(b) == 0 {
		t.Errorf("png: %d bytes, %v", len(b), err)
	}
	s, err := SVG(p, Px(200), Px(100))
	if err != nil || !strings.Contains(string(s), fonts.FormalName) {
		t.Errorf("svg without the font family (err %v)", err)
	}
}
