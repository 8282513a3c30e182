package stats

import "math"

// WeightedMean is Σ wᵢxᵢ / Σ wᵢ (the Hájek estimator when wᵢ are inverse
// inclusion probabilities); undefined for no values, unequal lengths, a
// negative weight or a zero total weight.
func WeightedMean(xs, ws []float64) (float64, bool) {
	if len(xs) == 0 || len(xs) != len(ws) {
		return 0, false
	}
	var s, t float64
	for i, x := range xs {
		if ws[i] < 0 || math.IsNaN(ws[i]) {
			return 0, false
		}
		s += ws[i] * x
		t += ws[i]
	}
	if t == 0 {
		return 0, false
	}
	return s / t, true
}

// MeanAbsDiff is the mean of |xᵢ − yᵢ| over paired values; undefined for
// no pairs or unequal lengths.
func MeanAbsDiff(x, y []float64) (float64, bool) {
	if len(x) == 0 || len(x) != len(y) {
		return 0, false
	}
	var s float64
	for i := range x {
		s += math.Abs(x[i] - y[i])
	}
	return s / float64(len(x)), true
}

// PairAlpha is Krippendorff's interval α of two coders who rated the same
// units: unit i holds x[i] and y[i]. It is how far a judge agrees with the
// people's mean, on the people's scale.
func PairAlpha(x, y []float64) (float64, bool) {
	if len(x) != len(y) {
		return 0, false
	}
	units := make([][]float64, len(x))
	for i := range x {
		units[i] = []float64{x[i], y[i]}
	}
	return KrippendorffAlphaInterval(units)
}
