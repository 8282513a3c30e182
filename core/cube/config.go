package cube

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"cubeworkbench/core/dimension"
)

// Subset and weight modes.
const (
	SubsetRetrieved = "retrieved"
	SubsetAll       = "all"

	WeightsCorrelation = "correlation"
	WeightsEqual       = "equal"
	WeightsHand        = "hand"
)

// DefaultDimensions are the paper's four rubric dimensions (core/dimension).
var DefaultDimensions = dimension.Defaults()

// Weighted is the key of the weighted total beside the dimensions in every
// per-dimension map, so no dimension may carry this name.
const Weighted = "weighted"

// ErrConfig marks an unusable configuration.
var ErrConfig = errors.New("cube: invalid configuration")

// Config is everything CuBE can be told (the profile's CuBE part).
type Config struct {
	TopN       int      // TOP-N, the length of the retrieved list that counts
	Trim       float64  // α of the trimmed mean, cut from each end
	Subset     string   // SubsetRetrieved or SubsetAll
	Dimensions []string // rubric dimensions in report order; empty → as first seen in the scores
	Weights    string   // WeightsCorrelation, WeightsEqual or WeightsHand
	// HandWeights apply to every judge in WeightsHand mode; JudgeWeights
	// override the mode for the judges they name. Both are normalised to sum 1.
	HandWeights  map[string]float64
	JudgeWeights map[string]map[string]float64
	BootstrapB   int   // resamples for the 95 % intervals; 0 skips them
	Seed         int64 // bootstrap seed

	// Recommendation thresholds.
	RecallLow     float64 // Recall@k (fraction) below this → retrieval advice
	DimensionWeak float64 // aggregate normalised dimension below this → prompt/content advice
	JudgeSDHigh   float64 // SD of C_J across judges above this (points) → add judges or repeats
	ZeroHighScore float64 // rag score (0–10) at or above this without retrieval → own knowledge

	// Qualify holds the thresholds a judge must meet to be counted.
	Qualify QualifyConfig

	// DocKey maps a document reference (id or title) to one canonical key
	// before gold and retrieved ids are compared, e.g. through
	// dataset.Workbook.GuideIndex. nil compares the references as written.
	DocKey func(ref string) string
}

// DefaultConfig is the paper's setting with the product's defaults.
func DefaultConfig() Config {
	return Config{
		TopN:          8,
		Trim:          0.10,
		Subset:        SubsetRetrieved,
		Dimensions:    slices.Clone(DefaultDimensions),
		Weights:       WeightsCorrelation,
		BootstrapB:    1000,
		Seed:          1,
		RecallLow:     0.8,
		DimensionWeak: 60,
		JudgeSDHigh:   10,
		ZeroHighScore: 8,
		Qualify:       DefaultQualify(),
	}
}

func (c Config) validate() error {
	var problems []error
	bad := func(format string, a ...any) {
		problems = append(problems, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, a...)...))
	}
	if c.TopN < 1 {
		bad("top_n %d (≥ 1)", c.TopN)
	}
	if !(c.Trim >= 0 && c.Trim < 0.5) {
		bad("trim %g (0 ≤ trim < 0.5)", c.Trim)
	}
	if c.Subset != SubsetRetrieved && c.Subset != SubsetAll {
		bad("subset %q (retrieved or all)", c.Subset)
	}
	switch c.Weights {
	case WeightsCorrelation, WeightsEqual:
	case WeightsHand:
		if len(c.HandWeights) == 0 {
			bad("weights \"hand\" without a weights table")
		}
	default:
		bad("weights %q (correlation, equal or hand)", c.Weights)
	}
	if c.BootstrapB < 0 {
		bad("bootstrap %d (≥ 0)", c.BootstrapB)
	}
	if q := c.Qualify; !(q.MinReadable >= 0 && q.MinReadable <= 1) || !(q.BoundsTolerance >= 0) || q.MinUnits < 0 ||
		math.IsNaN(q.MinGap) || math.IsNaN(q.MinConsistency) || math.IsNaN(q.MinHuman) {
		bad("qualify %+v (min_readable 0–1, bounds_tolerance ≥ 0, min_units ≥ 0)", q)
	}
	seen := map[string]bool{}
	for _, d := range c.Dimensions {
		switch {
		case d == "":
			bad("empty dimension name")
		case d == Weighted:
			bad("dimension may not be called %q", Weighted)
		case seen[d]:
			bad("dimension %q listed twice", d)
		}
		seen[d] = true
	}
	return errors.Join(problems...)
}

// normalizeWeights checks a hand table against the dimensions and scales it
// to sum 1.
func normalizeWeights(table map[string]float64, dims []string) ([]float64, error) {
	known := map[string]bool{}
	for _, d := range dims {
		known[d] = true
	}
	for _, k := range slices.Sorted(maps.Keys(table)) {
		v := table[k]
		switch {
		case !known[k]:
			return nil, fmt.Errorf("%w: weight for unknown dimension %q", ErrConfig, k)
		case !(v >= 0) || v > 1e300:
			return nil, fmt.Errorf("%w: weight %s = %g (a finite number ≥ 0)", ErrConfig, k, v)
		}
	}
	w := make([]float64, len(dims))
	var sum float64
	for i, d := range dims {
		w[i] = table[d]
		sum += w[i]
	}
	if sum <= 0 {
		return nil, fmt.Errorf("%w: weights sum to %g", ErrConfig, sum)
	}
	for i := range w {
		w[i] /= sum
	}
	return w, nil
}
