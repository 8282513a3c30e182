package cube

// collapseEps is the spec's "denominator ≤ 1e-9 → bounds collapse".
const collapseEps = 1e-9

// boundsTol absorbs rounding when a value sits exactly on a bound (rag equal
// to full gives 100 up to the last bit), so that only real excursions are
// flagged.
const boundsTol = 1e-9

// Flag kinds; a flag reads "<dimension or weighted>: <kind>".
const (
	FlagCollapse       = "bounds collapse"
	FlagOutside        = "outside bounds"
	FlagNoData         = "no data"
	FlagEqualFallback  = "equal fallback"
	FlagRecallUndef    = "recall undefined"
	flagWeightsSubject = "weights"
	flagCubeSubject    = "cube"
)

// Normalization is one judge's position between the bounds.
type Normalization struct {
	N        []*float64 // N_Jk per dimension; nil when undefined
	Weighted *float64   // N_J
	// WZero, WRAG, WFull are the weighted totals W_J(set).
	WZero, WRAG, WFull *float64
	Flags              []string
}

// Normalize computes N_Jk = 100·(T(rag) − T(zero)) / (T(full) − T(zero)) per
// dimension, the weighted totals W(set) = Σ_k w_k·T(set, k) and N_J from
// them (formulas.md §1). The trimmed means are per dimension in the order
// of dims, nil where undefined; weights are used as given (Evaluate passes
// them normalised). A denominator ≤ 1e-9 leaves the value undefined with a
// "bounds collapse" flag; a value outside [0, 100] is kept and flagged.
func Normalize(dims []string, zero, rag, full []*float64, weights []float64) Normalization {
	var out Normalization
	out.N = make([]*float64, len(dims))
	for k, d := range dims {
		if zero[k] == nil || rag[k] == nil || full[k] == nil {
			out.Flags = append(out.Flags, d+": "+FlagNoData)
			continue
		}
		v, ok := bound(*rag[k], *zero[k], *full[k])
		out.N[k] = num(v, ok)
		out.Flags = appendBoundFlag(out.Flags, d, v, ok)
	}
	out.WZero = num(weightedTotal(zero, weights))
	out.WRAG = num(weightedTotal(rag, weights))
	out.WFull = num(weightedTotal(full, weights))
	if out.WZero == nil || out.WRAG == nil || out.WFull == nil {
		out.Flags = append(out.Flags, Weighted+": "+FlagNoData)
		return out
	}
	v, ok := bound(*out.WRAG, *out.WZero, *out.WFull)
	out.Weighted = num(v, ok)
	out.Flags = appendBoundFlag(out.Flags, Weighted, v, ok)
	return out
}

// Cube is C_J = N_J · R@k with R@k a fraction, so C lies on N's 0–100 scale.
func Cube(weighted, recall *float64) *float64 {
	if weighted == nil || recall == nil {
		return nil
	}
	c := *weighted * *recall
	return &c
}

// Bound places rag between zero and full on 0–100: 100·(rag − zero)/(full −
// zero), false when the bounds collapse (a denominator ≤ 1e-9). Every
// normalisation between the bounds (CuBE's dimensions, the baselines) uses it.
func Bound(rag, zero, full float64) (float64, bool) { return bound(rag, zero, full) }

func bound(rag, zero, full float64) (float64, bool) {
	den := full - zero
	if den <= collapseEps {
		return 0, false
	}
	return 100 * (rag - zero) / den, true
}

func appendBoundFlag(flags []string, subject string, v float64, ok bool) []string {
	switch {
	case !ok:
		return append(flags, subject+": "+FlagCollapse)
	case v < -boundsTol || v > 100+boundsTol:
		return append(flags, subject+": "+FlagOutside)
	}
	return flags
}

// weightedTotal is Σ_k w_k·t_k; a missing t_k with positive weight makes it
// undefined, a missing one with weight 0 does not matter.
func weightedTotal(t []*float64, w []float64) (float64, bool) {
	var s float64
	for k, x := range t {
		if w[k] == 0 {
			continue
		}
		if x == nil {
			return 0, false
		}
		s += w[k] * *x
	}
	return s, true
}
