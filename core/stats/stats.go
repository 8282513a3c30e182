package stats

import (
	"math"
	"slices"
)

// Mean is the arithmetic mean; undefined for no values.
func Mean(xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs)), true
}

// SD is the sample standard deviation (n − 1); undefined for fewer than two
// values. It centres on the mean first so that large, close values do not
// cancel.
func SD(xs []float64) (float64, bool) {
	if len(xs) < 2 {
		return 0, false
	}
	m, _ := Mean(xs)
	var ss float64
	for _, x := range xs {
		d := x - m
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(xs)-1)), true
}

// TrimMean follows scipy.stats.trim_mean: sort, drop floor(alpha·n) values
// from each end and average the rest. alpha must lie in [0, 0.5); scipy
// accepts 0.5 for odd n (giving the median) but the product treats 0.5 as a
// configuration error, so it is undefined here too.
func TrimMean(xs []float64, alpha float64) (float64, bool) {
	if len(xs) == 0 || !(alpha >= 0 && alpha < 0.5) {
		return 0, false
	}
	cut := int(math.Floor(alpha * float64(len(xs))))
	s := slices.Clone(xs)
	slices.Sort(s)
	return Mean(s[cut : len(s)-cut])
}

// TrimMeanCounts is TrimMean of a multiset given as its sorted distinct
// values and their multiplicities. The bootstrap uses it: a resample of n
// items over a handful of distinct scores is counted in O(n) instead of
// sorted in O(n log n). vals must be ascending; counts[i] ≥ 0.
func TrimMeanCounts(vals []float64, counts []int, alpha float64) (float64, bool) {
	if len(vals) != len(counts) || !(alpha >= 0 && alpha < 0.5) {
		return 0, false
	}
	n := 0
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return 0, false
	}
	cut := int(math.Floor(alpha * float64(n)))
	lo, hi := cut, n-cut // keep sorted positions [lo, hi)
	var sum float64
	pos := 0
	for i, c := range counts {
		if c == 0 {
			continue
		}
		a, b := max(pos, lo), min(pos+c, hi)
		if b > a {
			sum += float64(b-a) * vals[i]
		}
		pos += c
		if pos >= hi {
			break
		}
	}
	return sum / float64(hi-lo), true
}

// Pearson is the product-moment correlation of paired values. It is
// undefined for fewer than two pairs, unequal lengths or a constant side
// (zero variance), which is checked exactly rather than through a
// floating-point sum of squares that may come out as a tiny non-zero.
func Pearson(x, y []float64) (float64, bool) {
	n := len(x)
	if n < 2 || n != len(y) || constant(x) || constant(y) {
		return 0, false
	}
	mx, _ := Mean(x)
	my, _ := Mean(y)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	r := sxy / math.Sqrt(sxx*syy)
	return max(-1, min(1, r)), true
}

func constant(xs []float64) bool {
	for _, x := range xs[1:] {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// Spearman is Pearson on average ranks (ties share the mean of the ranks
// they span), as scipy.stats.spearmanr.
func Spearman(x, y []float64) (float64, bool) {
	if len(x) != len(y) {
		return 0, false
	}
	return Pearson(Ranks(x), Ranks(y))
}

// Ranks returns 1-based ranks with ties averaged.
func Ranks(xs []float64) []float64 {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case xs[a] < xs[b]:
			return -1
		case xs[a] > xs[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, len(xs))
	for i := 0; i < len(order); {
		j := i
		for j+1 < len(order) && xs[order[j+1]] == xs[order[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[order[k]] = avg
		}
		i = j + 1
	}
	return r
}

// Quantile is the linearly interpolated quantile of sorted values
// (numpy's default, Hyndman–Fan type 7), p in [0, 1].
func Quantile(sorted []float64, p float64) (float64, bool) {
	n := len(sorted)
	if n == 0 || !(p >= 0 && p <= 1) {
		return 0, false
	}
	h := p * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1], true
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo]), true
}
