package stats

// KrippendorffAlphaInterval is Krippendorff's α with the interval metric
// δ²(c, k) = (c − k)². Each unit lists the values of the coders who rated it
// (any number, so missing ratings are simply absent). Units with fewer than
// two values are not pairable and are left out, as in Krippendorff (2011).
//
//	D_o = 1/n · Σ_u 1/(m_u − 1) · Σ_{i≠j in u} (v_i − v_j)²
//	D_e = 1/(n(n − 1)) · Σ_{i≠j over all pairable values} (v_i − v_j)²
//	α   = 1 − D_o / D_e
//
// with n the number of pairable values. Σ_{i≠j}(v_i − v_j)² equals
// 2m·Σ(v_i − v̄)², which is computed around the mean for accuracy and in
// linear time. α is undefined when nothing is pairable or every value is
// the same (D_e = 0).
func KrippendorffAlphaInterval(units [][]float64) (float64, bool) {
	var n int
	var do float64
	var all []float64
	for _, u := range units {
		m := len(u)
		if m < 2 {
			continue
		}
		n += m
		do += pairSquares(u) / float64(m-1)
		all = append(all, u...)
	}
	if n < 2 || constant(all) {
		return 0, false
	}
	de := pairSquares(all) / float64(n*(n-1))
	do /= float64(n)
	if de == 0 {
		return 0, false
	}
	return 1 - do/de, true
}

// pairSquares is Σ_{i≠j} (v_i − v_j)² over ordered pairs.
func pairSquares(v []float64) float64 {
	m, _ := Mean(v)
	var ss float64
	for _, x := range v {
		d := x - m
		ss += d * d
	}
	return 2 * float64(len(v)) * ss
}
