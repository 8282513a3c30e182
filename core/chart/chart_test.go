package chart

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/vg"

	"cubeworkbench/core/text"
)

var update = flag.Bool("update", false, "rewrite testdata/*.png golden images")

func f(v float64) *float64 { return &v }

// Fixtures: small, fixed data shaped like a real run.

var judges = []string{"qwen2.5-32b", "deepseek-v3", "glm-4-9b", "llama3.1-8b"}
var dims = []string{"relevance", "specificity", "completeness", "quality"}

func fixtureSamples() []ScoreSample {
	r := rand.New(rand.NewPCG(7, 11))
	var out []ScoreSample
	for ji, j := range judges {
		for di, d := range dims {
			s := ScoreSample{Judge: j, Dimension: d}
			centre := 6.0 + float64(ji)*0.6 + float64(di)*0.3
			for range 120 {
				v := centre + r.NormFloat64()*1.4
				v = float64(int(v + 0.5))
				s.Scores = append(s.Scores, min(10, max(0, v)))
			}
			out = append(out, s)
		}
	}
	return out
}

func fixtureMatrix() Matrix {
	return Matrix{Rows: judges, Cols: dims, Values: [][]*float64{
		{f(0.42), f(0.18), f(0.31), f(0.27)},
		{f(0.65), f(-0.12), nil, f(0.05)},
		{f(-0.71), f(0.88), f(1), f(-1)},
		{nil, nil, f(0), f(0.5)},
	}}
}

// The paper's Qwen2.5-32B trimmed means (formulas.md §1).
func fixtureBounds() Bounds {
	return Bounds{
		Judge:      "qwen2.5-32b",
		Dimensions: dims,
		Zero:       []*float64{f(6.5199), f(7.8403), f(7.8932), f(7.9090)},
		RAG:        []*float64{f(7.9509), f(8.0), f(7.9799), f(7.9471)},
		Full:       []*float64{f(8.2753), f(8.0), f(8.0), nil},
	}
}

func fixtureJudgeScores() JudgeScores {
	return JudgeScores{
		Judges: judges,
		Scores: []Estimate{
			{f(65.29), f(58.1), f(71.9)},
			{f(72.4), f(66.0), f(78.3)},
			{nil, nil, nil},
			{f(48.7), f(39.5), f(57.2)},
		},
		Mean: Estimate{f(62.13), f(55.0), f(69.0)},
	}
}

func fixtureRadar() []RadarSeries {
	return []RadarSeries{
		{Name: "政务助手 RAG v2", Values: []*float64{f(0.82), f(0.64), f(0.91), f(0.58), f(0.77), f(0.41)}},
		{Name: "baseline", Values: []*float64{f(0.66), f(0.48), f(0.72), f(0.61), nil, f(0.29)}},
	}
}

func fixtureTypes() TypeMetrics {
	return TypeMetrics{
		Types: []string{"factual", "analytical", "comparative", "tutorial"},
		Metrics: []Series{
			{Name: "accuracy@k", Values: []*float64{f(0.81), f(0.55), f(0.47), f(0.62)}},
			{Name: "recall", Values: []*float64{f(0.93), f(0.74), f(0.69), nil}},
			{Name: "coverage", Values: []*float64{f(0.97), f(0.88), f(0.83), f(0.9)}},
		},
	}
}

func fixtureSweep() Sweep {
	x := []float64{128, 256, 512}
	return Sweep{Metric: "accuracy@k", Lines: []Line{
		{Name: "bm25", X: x, Y: []*float64{f(0.52), f(0.61), f(0.58)}},
		{Name: "dense", X: x, Y: []*float64{f(0.47), nil, f(0.66)}},
		{Name: "hybrid", X: x, Y: []*float64{f(0.6), f(0.69), f(0.71)}},
	}}
}

type chartCase struct {
	name  string
	build func(o Options) (*Figure, error)
}

var chartCases = []chartCase{
	{"histograms", func(o Options) (*Figure, error) { return Histograms(fixtureSamples(), o) }},
	{"heatmap", func(o Options) (*Figure, error) {
		o.Title = map[text.Lang]string{"zh": "相关系数（全部样本）Pearson r", "en": "Correlation, all cases (Pearson r)"}[o.Lang]
		return Heatmap(fixtureMatrix(), o)
	}},
	{"bounds", func(o Options) (*Figure, error) { return BoundsBars(fixtureBounds(), o) }},
	{"cube", func(o Options) (*Figure, error) { return CuBEBars(fixtureJudgeScores(), o) }},
	// Half a page wide, as the report's Summary places them: short legend
	// names, one decimal, slanted names only where neighbours would touch,
	// titles shrunk or wrapped, never cut.
	{"bounds_narrow", func(o Options) (*Figure, error) {
		if o.Width == 0 {
			o.Width, o.Height = 274, 160
		}
		return BoundsBars(fixtureBounds(), o)
	}},
	{"cube_narrow", func(o Options) (*Figure, error) {
		if o.Width == 0 {
			o.Width, o.Height = 164, 160
		}
		return CuBEBars(fixtureJudgeScores(), o)
	}},
	{"radar", func(o Options) (*Figure, error) { return Radar(MFSSFactors, fixtureRadar(), o) }},
	{"querytypes", func(o Options) (*Figure, error) { return QueryTypeBars(fixtureTypes(), o) }},
	{"sweep", func(o Options) (*Figure, error) { return ChunkSweep(fixtureSweep(), o) }},
}

// Golden images are compared with two tolerances instead of byte equality,
// since anti-aliasing may differ slightly across machines (e.g. FMA on arm64):
// the mean absolute channel difference (0–255) must stay under maxMeanDiff,
// and at most maxStrong pixels may differ by more than strongDiff in some
// channel. Measured here: a sub-pixel shift of the whole layout gives mean
// 0.09 and no strong pixel; changing one heatmap value 0.42 → 0.43 gives 12
// strong pixels; one bar 7.95 → 7.5 a mean of 0.22 and hundreds.
const (
	maxMeanDiff = 0.35
	strongDiff  = 64
	maxStrong   = 4
)

func TestGolden(t *testing.T) {
	for _, c := range chartCases {
		for _, lang := range []text.Lang{LangZH, LangEN} {
			name := c.name + "_" + string(lang)
			t.Run(name, func(t *testing.T) {
				fig, err := c.build(Options{Lang: lang})
				if err != nil {
					t.Fatalf("build: %v", err)
				}
				got, err := fig.PNG()
				if err != nil {
					t.Fatalf("png: %v", err)
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
					t.Errorf("%s differs from %s: %v (mean abs diff %.3f); rendering kept at %s; if the change is intended, run go test -update and look at the image", name, golden, err, d, out)
				}
			})
		}
	}
}

// compare decodes both PNGs and returns their mean absolute channel
// difference, with an error when sizes differ or a tolerance is exceeded.
func compare(got, want []byte) (float64, error) {
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return 0, fmt.Errorf("decode rendering: %w", err)
	}
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return 0, fmt.Errorf("decode golden: %w", err)
	}
	if g.Bounds() != w.Bounds() {
		return 0, fmt.Errorf("size %v, golden %v", g.Bounds().Size(), w.Bounds().Size())
	}
	mean, strong := diff(g, w)
	switch {
	case mean > maxMeanDiff:
		return mean, fmt.Errorf("mean channel difference %.3f > %.2f", mean, maxMeanDiff)
	case strong > maxStrong:
		return mean, fmt.Errorf("%d pixels differ by more than %d in a channel (limit %d)", strong, strongDiff, maxStrong)
	}
	return mean, nil
}

// diff returns the mean absolute channel difference of two same-sized images
// and the number of pixels differing by more than strongDiff in a channel.
func diff(a, b image.Image) (mean float64, strong int) {
	var sum, n float64
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, aa := a.At(x, y).RGBA()
			br, bg, bb, ba := b.At(x, y).RGBA()
			worst := 0.0
			for _, p := range [][2]uint32{{ar, br}, {ag, bg}, {ab, bb}, {aa, ba}} {
				d := math.Abs(float64(p[0]>>8) - float64(p[1]>>8))
				sum += d
				n++
				worst = math.Max(worst, d)
			}
			if worst > strongDiff {
				strong++
			}
		}
	}
	return sum / n, strong
}

// TestCompare checks the comparison itself on changes it must and must not
// catch.
func TestCompare(t *testing.T) {
	render := func(m Matrix, extra vg.Length) []byte {
		fig, err := Heatmap(m, Options{Lang: LangEN})
		if err != nil {
			t.Fatal(err)
		}
		fig.Width += extra
		b, err := fig.PNG()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	base := render(fixtureMatrix(), 0)
	changed := fixtureMatrix()
	changed.Values[0][0] = f(0.43)
	if _, err := compare(render(changed, 0), base); err == nil {
		t.Error("a changed digit passed the comparison")
	}
	if _, err := compare(render(fixtureMatrix(), 0.01), base); err != nil {
		t.Errorf("a sub-pixel layout shift failed the comparison: %v", err)
	}
	if _, err := compare(render(fixtureMatrix(), 30), base); err == nil {
		t.Error("a different size passed the comparison")
	}
}
