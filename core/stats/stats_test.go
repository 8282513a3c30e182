package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

const eps = 1e-12

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func seq(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i)
	}
	return xs
}

func TestTrimMean(t *testing.T) {
	tests := []struct {
		name  string
		xs    []float64
		alpha float64
		want  float64
		ok    bool
	}{
		// scipy's docstring: trim_mean(np.arange(20), 0.1) == 9.5.
		{"scipy arange(20) 0.1", seq(20), 0.1, 9.5, true},
		// floor(0.25·4) = 1 from each end: mean(2, 3).
		{"outlier cut", []float64{100, 2, 1, 3}, 0.25, 2.5, true},
		// floor(0.1·9) = 0: nothing is cut, plain mean 4.
		{"floor to zero", seq(9), 0.1, 4, true},
		// floor(0.2·10) = 2: keeps 2..7 of 0..9 → 4.5, and the 50 outlier goes.
		{"unsorted input", []float64{9, 50, 7, 6, 5, 4, 3, 2, 1, 0}, 0.2, 4.5, true},
		{"alpha zero is the mean", []float64{1, 2, 9}, 0, 4, true},
		{"single value", []float64{7}, 0.1, 7, true},
		{"empty", nil, 0.1, 0, false},
		{"alpha 0.5", seq(5), 0.5, 0, false},
		{"negative alpha", seq(5), -0.1, 0, false},
		{"NaN alpha", seq(5), math.NaN(), 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.xs)
			got, ok := TrimMean(tc.xs, tc.alpha)
			if ok != tc.ok || (ok && !near(got, tc.want, eps)) {
				t.Fatalf("TrimMean = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
			if !slices.Equal(in, tc.xs) {
				t.Fatalf("input was modified: %v", tc.xs)
			}
		})
	}
}

// TrimMeanCounts must agree with TrimMean on any multiset.
func TestTrimMeanCountsMatchesTrimMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 500 {
		vals := []float64{0, 0.5, 3, 4, 7.25, 10}
		counts := make([]int, len(vals))
		var xs []float64
		for i := range vals {
			counts[i] = rng.IntN(6)
			for range counts[i] {
				xs = append(xs, vals[i])
			}
		}
		alpha := []float64{0, 0.1, 0.2, 0.25, 0.49}[trial%5]
		want, wok := TrimMean(xs, alpha)
		got, gok := TrimMeanCounts(vals, counts, alpha)
		if wok != gok || (wok && !near(got, want, 1e-9)) {
			t.Fatalf("counts %v alpha %v: got %v,%v want %v,%v", counts, alpha, got, gok, want, wok)
		}
	}
}

func TestMeanSD(t *testing.T) {
	// 2,4,4,4,5,5,7,9: mean 5, Σ(x−5)² = 32, sample SD = √(32/7).
	xs := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	if m, ok := Mean(xs); !ok || m != 5 {
		t.Fatalf("Mean = %v %v", m, ok)
	}
	if sd, ok := SD(xs); !ok || !near(sd, math.Sqrt(32.0/7), eps) {
		t.Fatalf("SD = %v %v", sd, ok)
	}
	if _, ok := Mean(nil); ok {
		t.Fatal("Mean(nil) defined")
	}
	if _, ok := SD([]float64{3}); ok {
		t.Fatal("SD of one value defined")
	}
	if sd, ok := SD([]float64{1e9 + 1, 1e9 + 1, 1e9 + 1}); !ok || sd != 0 {
		t.Fatalf("SD of constant = %v %v", sd, ok)
	}
}

func TestPearsonSpearman(t *testing.T) {
	tests := []struct {
		name     string
		x, y     []float64
		pearson  float64
		spearman float64
		ok       bool
	}{
		// dx = (−1,0,1), dy = (−4/3,−1/3,5/3): Sxy = 3, Sxx = 2, Syy = 14/3 → √(27/28).
		{"hand 3 points", []float64{1, 2, 3}, []float64{1, 2, 4}, math.Sqrt(27.0 / 28), 1, true},
		// ranks x (1, 2.5, 2.5, 4), y (1, 3, 2, 4): Sxy = 4.5, Sxx = 4.5, Syy = 5 → √0.9.
		// Pearson on raw values is the same here because x and y are their own ranks but for the tie.
		{"ties averaged", []float64{1, 2, 2, 3}, []float64{1, 3, 2, 4}, 3 / math.Sqrt(2*5), math.Sqrt(0.9), true},
		{"perfect negative", []float64{1, 2, 3}, []float64{30, 20, 10}, -1, -1, true},
		// monotone but not linear: Spearman 1, Pearson not.
		// x = 1,2,3; y = 1,4,9: ȳ = 14/3, dy = (−11/3,−2/3,13/3), Sxy = 8, Syy = 294/9 → 8/√(2·294/9).
		{"monotone", []float64{1, 2, 3}, []float64{1, 4, 9}, 8 / math.Sqrt(2*294.0/9), 1, true},
		{"constant x", []float64{0.1, 0.1, 0.1}, []float64{1, 2, 3}, 0, 0, false},
		{"one pair", []float64{1}, []float64{2}, 0, 0, false},
		{"length mismatch", []float64{1, 2}, []float64{1, 2, 3}, 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := Pearson(tc.x, tc.y)
			if ok != tc.ok || (ok && !near(p, tc.pearson, 1e-12)) {
				t.Errorf("Pearson = %v %v, want %v %v", p, ok, tc.pearson, tc.ok)
			}
			s, ok := Spearman(tc.x, tc.y)
			if ok != tc.ok || (ok && !near(s, tc.spearman, 1e-12)) {
				t.Errorf("Spearman = %v %v, want %v %v", s, ok, tc.spearman, tc.ok)
			}
		})
	}
}

func TestRanks(t *testing.T) {
	got := Ranks([]float64{10, 20, 10, 5, 20, 20})
	want := []float64{2.5, 5, 2.5, 1, 5, 5}
	if !slices.Equal(got, want) {
		t.Fatalf("Ranks = %v, want %v", got, want)
	}
}

func TestQuantile(t *testing.T) {
	s := []float64{1, 2, 3, 4}
	for _, tc := range []struct{ p, want float64 }{{0, 1}, {0.25, 1.75}, {0.5, 2.5}, {1, 4}, {0.975, 3.925}} {
		if got, ok := Quantile(s, tc.p); !ok || !near(got, tc.want, eps) {
			t.Errorf("Quantile(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	if _, ok := Quantile(nil, 0.5); ok {
		t.Error("Quantile(nil) defined")
	}
}

func TestBootstrap(t *testing.T) {
	data := []float64{3, 5, 8, 1, 9, 4, 6, 7, 2, 5, 6, 4}
	mean := func(idx []int) (float64, bool) {
		var s float64
		for _, i := range idx {
			s += data[i]
		}
		return s / float64(len(idx)), true
	}
	lo1, hi1, ok1 := Bootstrap(len(data), 1000, 42, mean)
	lo2, hi2, ok2 := Bootstrap(len(data), 1000, 42, mean)
	if !ok1 || !ok2 || lo1 != lo2 || hi1 != hi2 {
		t.Fatalf("same seed gave (%v,%v,%v) and (%v,%v,%v)", lo1, hi1, ok1, lo2, hi2, ok2)
	}
	m, _ := Mean(data)
	if !(lo1 < m && m < hi1) {
		t.Fatalf("CI [%v, %v] does not hold the sample mean %v", lo1, hi1, m)
	}
	// The mean of 12 values in 1..9 with SD ≈ 2.3 has a standard error ≈ 0.66:
	// a 95 % interval is about ±1.3 wide, certainly within ±3.
	if lo1 < m-3 || hi1 > m+3 || hi1-lo1 < 0.5 {
		t.Fatalf("CI [%v, %v] implausible around %v", lo1, hi1, m)
	}
	lo3, hi3, _ := Bootstrap(len(data), 1000, 43, mean)
	if lo3 == lo1 && hi3 == hi1 {
		t.Fatal("a different seed gave the identical interval")
	}
	// A constant statistic has a degenerate interval.
	if lo, hi, ok := Bootstrap(5, 100, 1, func([]int) (float64, bool) { return 2, true }); !ok || lo != 2 || hi != 2 {
		t.Fatalf("constant = %v %v %v", lo, hi, ok)
	}
	// Mostly undefined replicates make the interval undefined.
	calls := 0
	if _, _, ok := Bootstrap(5, 100, 1, func([]int) (float64, bool) { calls++; return 1, calls%3 == 0 }); ok {
		t.Fatal("interval defined with a third of the replicates")
	}
	if _, _, ok := Bootstrap(0, 100, 1, mean); ok {
		t.Fatal("interval over no items defined")
	}
}

func TestBootstrapManySharesResamples(t *testing.T) {
	// Statistic 1 is statistic 0 plus 10 on every replicate: with shared
	// resamples the interval shifts by exactly 10.
	data := []float64{1, 4, 2, 8, 5, 7}
	ci := BootstrapMany(len(data), 500, 3, 2, func(idx []int, out []float64, ok []bool) {
		var s float64
		for _, i := range idx {
			s += data[i]
		}
		out[0], ok[0] = s/float64(len(idx)), true
		out[1], ok[1] = out[0]+10, true
	})
	if !ci[0].OK || !ci[1].OK || !near(ci[1].Lo-ci[0].Lo, 10, 1e-9) || !near(ci[1].Hi-ci[0].Hi, 10, 1e-9) || ci[0].Valid != 500 {
		t.Fatalf("intervals %+v", ci)
	}
}

func TestKrippendorffAlphaInterval(t *testing.T) {
	// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", §C:
	// 4 observers × 12 units with missing values; published α_interval = 0.849.
	// By hand: n = 40 pairable values, D_o = 13/30, D_e = 112/39, so
	// α = 1 − (13/30)/(112/39) = 2853/3360 = 0.84911.
	const x = -1 // missing
	table := [][]float64{
		{1, 2, 3, 3, 2, 1, 4, 1, 2, x, x, x},
		{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, x, 3},
		{x, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, x},
		{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, x},
	}
	units := make([][]float64, 12)
	for _, row := range table {
		for u, v := range row {
			if v != x {
				units[u] = append(units[u], v)
			}
		}
	}
	tests := []struct {
		name  string
		units [][]float64
		want  float64
		ok    bool
	}{
		{"Krippendorff 2011 example", units, 2853.0 / 3360, true},
		{"perfect agreement", [][]float64{{1, 1}, {2, 2, 2}, {5, 5}}, 1, true},
		// units (1,2), (2,1): D_o = 4/4 = 1, D_e = 8/12 → α = 1 − 1.5 = −0.5.
		{"systematic disagreement", [][]float64{{1, 2}, {2, 1}}, -0.5, true},
		// a lone value is not pairable and changes nothing.
		{"lone value ignored", [][]float64{{1, 2}, {2, 1}, {9}}, -0.5, true},
		{"no variation", [][]float64{{3, 3}, {3, 3}}, 0, false},
		{"nothing pairable", [][]float64{{1}, {2}}, 0, false},
		{"empty", nil, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := KrippendorffAlphaInterval(tc.units)
			if ok != tc.ok || (ok && !near(got, tc.want, 1e-12)) {
				t.Fatalf("α = %v %v, want %v %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	if got, _ := KrippendorffAlphaInterval(units); math.Round(got*1000)/1000 != 0.849 {
		t.Fatalf("α = %v, published 0.849", got)
	}
}

func TestAgreementHelpers(t *testing.T) {
	// (1·2 + 3·4)/(3+1)… weights 1 and 3 on 2 and 4: (2 + 12)/4 = 3.5.
	if m, ok := WeightedMean([]float64{2, 4}, []float64{1, 3}); !ok || !near(m, 3.5, eps) {
		t.Errorf("WeightedMean = %v %v", m, ok)
	}
	for _, c := range []struct{ xs, ws []float64 }{{nil, nil}, {[]float64{1}, []float64{0}}, {[]float64{1}, []float64{-1}}, {[]float64{1, 2}, []float64{1}}} {
		if _, ok := WeightedMean(c.xs, c.ws); ok {
			t.Errorf("WeightedMean(%v, %v) defined", c.xs, c.ws)
		}
	}
	// |1−2| + |5−3| + |0−0| = 3, over 3 pairs.
	if d, ok := MeanAbsDiff([]float64{1, 5, 0}, []float64{2, 3, 0}); !ok || !near(d, 1, eps) {
		t.Errorf("MeanAbsDiff = %v %v", d, ok)
	}
	if _, ok := MeanAbsDiff(nil, nil); ok {
		t.Error("MeanAbsDiff of nothing defined")
	}
	// Two coders, units (1,2) (3,3) (5,4): n = 6 values, D_o = 1/6·Σ 2·(Δ²) = (2+0+2)/6,
	// D_e from all six values 1,2,3,3,5,4 (mean 3, Σ(v−3)² = 10): 2·6·10/(6·5) = 4.
	// α = 1 − (4/6)/4 = 5/6.
	if a, ok := PairAlpha([]float64{1, 3, 5}, []float64{2, 3, 4}); !ok || !near(a, 5.0/6, 1e-12) {
		t.Errorf("PairAlpha = %v %v, want 5/6", a, ok)
	}
}
