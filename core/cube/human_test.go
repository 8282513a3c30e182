package cube

import (
	"math"
	"testing"

	"cubeworkbench/core/dataset"
)

func TestHumanAgreement(t *testing.T) {
	items := []dataset.Item{item("a", "da", "da"), item("b", "db", "db"), item("c", "dc", "dc")}
	var js []dataset.Judgement
	js = triple(js, "a", "J", "rel", 3, 7, 9)
	js = triple(js, "b", "J", "rel", 3, 5, 9)
	js = triple(js, "c", "J", "rel", 3, 9, 9)
	hr := func(id, rater string, s float64) dataset.HumanRating {
		return dataset.HumanRating{ItemID: id, Dimension: "rel", Score: s, Rater: rater}
	}
	human := []dataset.HumanRating{
		hr("a", "x", 8), hr("a", "x", 8), hr("a", "y", 6),
		hr("b", "x", 4), hr("b", "y", 4),
		hr("c", "x", 9),
		hr("zz", "x", 1), // unknown item
		{ItemID: "a", Dimension: "tone", Score: 5, Rater: "x"},
	}
	res, err := Evaluate(items, dataset.ScoresOf(js...), human, cfgFor("rel"))
	if err != nil {
		t.Fatal(err)
	}
	h := res.Human
	if h == nil || h.Items != 3 || h.Ratings != 6 || h.Ignored != 2 || len(h.Raters) != 2 {
		t.Fatalf("human %+v", h)
	}
	d := h.Dimensions["rel"]
	// per-item expert means 7, 4, 9 → 70, 40, 90: mean 200/3, SD √(11400/9 / 2).
	if d.N != 3 || !near(d.Mean, 200.0/3) || !near(d.SD, math.Sqrt(11400.0/18)) {
		t.Errorf("expert %v ± %v over %d", deref(d.Mean), deref(d.SD), d.N)
	}
	j := d.Judges["J"]
	// judge 70, 50, 90: mean 70, SD 20; Sxy = 1000, Sxx = 800, Syy = 11400/9.
	if j.N != 3 || !near(j.JudgeMean, 70) || !near(j.JudgeSD, 20) || !near(j.HumanMean, 200.0/3) ||
		!near(j.Pearson, 1000/math.Sqrt(800*11400.0/9)) || !near(j.Spearman, 1) {
		t.Errorf("judge vs experts %+v", j)
	}
	// units (8,6,7) (4,4,5) (9,9): D_o = 8/8 = 1, D_e = 480/56 → α = 53/60.
	if !near(d.Alpha, 53.0/60) || !near(h.Alpha, 53.0/60) {
		t.Errorf("α %v / %v, want 53/60", deref(d.Alpha), deref(h.Alpha))
	}

	res, _ = Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel"))
	if res.Human != nil {
		t.Error("human section without ratings")
	}
}
