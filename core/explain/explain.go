package explain

// Explain computes the why of in's verdict. It never fails: whatever is
// undefined is said in words and left null in the numbers.
func Explain(in Input) Explanation {
	th := in.Thresholds.withDefaults()
	all := Classify(in)
	return Explanation{
		Verdict:         in.Verdict.Code,
		Bullets:         bullets(in),
		Weakest:         weakest(all, th.Weakest),
		WeakCounts:      countReasons(all),
		Recommendations: Recommend(in),
		Precision:       precision(in.Result, th.TargetHalfWidth),
		Banners:         banners(in),
	}
}
