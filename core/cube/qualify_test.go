package cube

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
)

// blindJudge scores every answer of every set at random, whatever it says:
// a weak, misconfigured or fake judge (issue 22).
func blindJudge(items []dataset.Item, name string, dims []string, seed uint64) []dataset.Judgement {
	rng := rand.New(rand.NewPCG(seed, 3))
	var js []dataset.Judgement
	for _, it := range items {
		for _, d := range dims {
			for _, set := range setNames {
				js = append(js, ok(it.ID, set, name, d, float64(1+rng.IntN(10))))
			}
		}
	}
	return js
}

func judgeNamed(t *testing.T, res *Result, name string) JudgeResult {
	t.Helper()
	for _, j := range res.Judges {
		if j.Judge == name {
			return j
		}
	}
	t.Fatalf("no judge %q", name)
	return JudgeResult{}
}

func checkOf(j JudgeResult, code string) Check {
	for _, c := range j.Qualification {
		if c.Code == code {
			return c
		}
	}
	return Check{}
}

// The paper's setting, four plausible judges: all qualify, and the
// aggregate is their plain mean ± SD, exactly as before qualification.
func TestQualifyPlausibleJudgesAllCount(t *testing.T) {
	judges := []string{"qwen2.5-32b", "llama3.1-70b", "glm4-9b", "deepseek-v3"}
	items, js := synth(600, judges, DefaultDimensions, 7)
	cfg := DefaultConfig()
	cfg.BootstrapB = 200
	res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var cs []float64
	for _, j := range res.Judges {
		if !j.Qualified || len(j.QualificationReasons) != 0 {
			t.Errorf("%s not qualified: %+v", j.Judge, j.QualificationReasons)
		}
		cs = append(cs, *j.Cube)
	}
	if res.Aggregate.Cube.N != 4 || math.Abs(*res.Aggregate.Cube.Mean-(cs[0]+cs[1]+cs[2]+cs[3])/4) > 1e-12 {
		t.Errorf("aggregate %+v over %v", res.Aggregate.Cube, cs)
	}
	if res.Aggregate.CubeCI95 == nil {
		t.Error("no interval of the mean")
	}
}

// One judge that ignores the answers, beside two good ones: it fails
// Discriminates (and Bounds when its number flies off), keeps its card, and
// the headline, the SD and the interval are those of the two good judges.
func TestQualifyBlindJudgeNotCounted(t *testing.T) {
	good := []string{"a", "b"}
	items, js := synth(120, good, DefaultDimensions, 11)
	cfg := DefaultConfig()
	cfg.BootstrapB = 200
	alone, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 6; seed++ {
		all := append(slices.Clone(js), blindJudge(items, "blind", DefaultDimensions, seed)...)
		res, err := Evaluate(items, dataset.ScoresOf(all...), nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		b := judgeNamed(t, res, "blind")
		if b.Qualified || len(b.QualificationReasons) == 0 {
			t.Fatalf("seed %d: the blind judge qualified: %+v", seed, b.Qualification)
		}
		if c := checkOf(b, CheckDiscriminates); c.Status != CheckFail || c.Reason.ZH == "" || c.Reason.EN == "" {
			t.Errorf("seed %d: discriminates %+v", seed, c)
		}
		if res.QualifiedJudges() != 2 || res.Aggregate.Cube.N != 2 {
			t.Errorf("seed %d: %d qualified, %d averaged", seed, res.QualifiedJudges(), res.Aggregate.Cube.N)
		}
		if *res.Aggregate.Cube.Mean != *alone.Aggregate.Cube.Mean || *res.Aggregate.Cube.SD != *alone.Aggregate.Cube.SD {
			t.Errorf("seed %d: headline %v ± %v, without the blind judge %v ± %v", seed,
				*res.Aggregate.Cube.Mean, *res.Aggregate.Cube.SD, *alone.Aggregate.Cube.Mean, *alone.Aggregate.Cube.SD)
		}
		if *res.Aggregate.CubeCI95 != *alone.Aggregate.CubeCI95 {
			t.Errorf("seed %d: interval %v, without the blind judge %v", seed, *res.Aggregate.CubeCI95, *alone.Aggregate.CubeCI95)
		}
		if lines := res.NotCounted("zh"); len(lines) != 1 || !strings.Contains(lines[0], "blind") || !strings.Contains(lines[0], "不计入结论") {
			t.Errorf("seed %d: not counted %q", seed, lines)
		}
	}
}

// A lenient judge like the paper's Qwen2.5-32B: the gold-guide answers
// outscore the no-context ones by 0.09–0.16 points on three dimensions and
// about 0.6 weighted. It must qualify; a dimension whose own gap is not
// above 0 is named but does not disqualify.
func TestQualifyLenientJudge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	n := 2000
	var items []dataset.Item
	var js []dataset.Judgement
	// P(score 8) per set and dimension; the rest score 7 (relevance: 6).
	zero := []float64{0.52, 0.84, 0.89, 0.91}
	full := []float64{0.90, 1.00, 1.00, 1.00}
	rag := []float64{0.85, 1.00, 0.98, 0.95}
	low := []float64{6, 7, 7, 7}
	draw := func(p, lo float64) float64 {
		if rng.Float64() < p {
			return 8
		}
		return lo
	}
	for i := range n {
		id, gold := fmt.Sprintf("q%04d", i), fmt.Sprintf("g%04d", i)
		items = append(items, item(id, gold, gold))
		for k, d := range DefaultDimensions {
			js = triple(js, id, "qwen", d, draw(zero[k], low[k]), draw(rag[k], low[k]), draw(full[k], low[k]))
			// A second dimension set with no gap at all on quality.
			if d == "quality" {
				js = append(js, ok(id, "zero", "flat", d, 7), ok(id, "rag", "flat", d, 7), ok(id, "full", "flat", d, 7))
			} else {
				js = triple(js, id, "flat", d, draw(zero[k], low[k]), draw(rag[k], low[k]), draw(full[k], low[k]))
			}
		}
	}
	cfg := DefaultConfig()
	cfg.Trim = 0
	cfg.BootstrapB = 200
	cfg.Weights = WeightsEqual
	res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	q := judgeNamed(t, res, "qwen")
	if !q.Qualified {
		t.Fatalf("lenient judge not qualified: %+v", q.Qualification)
	}
	if g := *q.BoundsGap[Weighted]; g < 0.1 || g > 0.3 {
		t.Errorf("weighted gap %.3f, want a small one", g)
	}
	f := judgeNamed(t, res, "flat")
	c := checkOf(f, CheckDiscriminates)
	if !f.Qualified || c.Status != CheckPass || !strings.Contains(c.Reason.ZH, "质量") || !strings.Contains(c.Reason.EN, "quality") {
		t.Errorf("flat quality: qualified %v, %+v", f.Qualified, c)
	}
}

// Every failing check, by itself, on hand-made judges.
func TestQualifyChecks(t *testing.T) {
	var items []dataset.Item
	var js []dataset.Judgement
	for i := range 40 {
		id := fmt.Sprintf("q%02d", i)
		items = append(items, item(id, "g"+id, "g"+id))
		v := float64(i % 3)
		js = triple(js, id, "good", "rel", 3+v, 5+v, 8+v)
		js = triple(js, id, "inverted", "rel", 8+v, 5+v, 3+v)
		js = triple(js, id, "flat", "rel", 5, 5+v, 5)
		js = triple(js, id, "outside", "rel", 3+v, 9, 4+v) // rag far above full: N ≈ 600
		js = triple(js, id, "mute", "rel", 3+v, 5+v, 8+v)
		js = append(js, bad(id, "rag", "mute", "rel"), bad(id, "zero", "mute", "rel"))
	}
	cfg := cfgFor("rel")
	cfg.BootstrapB = 100
	res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"good": "", "inverted": CheckDiscriminates, "flat": CheckDiscriminates, "outside": CheckBounds, "mute": CheckReads}
	for name, failing := range want {
		j := judgeNamed(t, res, name)
		if failing == "" {
			if !j.Qualified {
				t.Errorf("%s: %+v", name, j.QualificationReasons)
			}
			continue
		}
		if c := checkOf(j, failing); j.Qualified || c.Status != CheckFail {
			t.Errorf("%s: qualified %v, %s = %+v", name, j.Qualified, failing, c)
		}
	}
	if res.Aggregate.Cube.N != 1 || !near(res.Aggregate.Cube.Mean, *judgeNamed(t, res, "good").Cube) {
		t.Errorf("aggregate %+v", res.Aggregate.Cube)
	}
}

// No judge qualifies: nothing is averaged, the headline has no number.
func TestQualifyNoneCounts(t *testing.T) {
	var items []dataset.Item
	var js []dataset.Judgement
	for i := range 30 {
		id := fmt.Sprintf("q%02d", i)
		items = append(items, item(id, "g"+id, "g"+id))
		js = triple(js, id, "inverted", "rel", 8, 5, 3+float64(i%2))
	}
	res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel"))
	if err != nil {
		t.Fatal(err)
	}
	if res.QualifiedJudges() != 0 || res.Aggregate.Cube.Mean != nil || res.Aggregate.Cube.N != 0 {
		t.Errorf("aggregate %+v", res.Aggregate.Cube)
	}
	if h := res.Headline("en"); !strings.Contains(h, "CuBE n/a") {
		t.Errorf("headline %q", h)
	}
}

// Repeats: a judge that scores the same answer at random on each repeat
// fails Consistent; one that repeats itself passes.
func TestQualifyConsistent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var items []dataset.Item
	var js []dataset.Judgement
	for i := range 40 {
		id := fmt.Sprintf("q%02d", i)
		items = append(items, item(id, "g"+id, "g"+id))
		v := float64(i % 4)
		for rep := 1; rep <= 2; rep++ {
			for s, base := range []float64{2, 5, 8} {
				set := setNames[[]int{sZero, sRAG, sFull}[s]]
				steady := dataset.Judgement{ItemID: id, Set: set, Judge: "steady", Dimension: "rel", Score: base + v, Repeat: rep, Status: dataset.StatusOK}
				shaky := steady
				shaky.Judge, shaky.Score = "shaky", math.Max(0, math.Min(10, base+v+float64(rng.IntN(9))-4))
				js = append(js, steady, shaky)
			}
		}
	}
	res, err := Evaluate(items, dataset.ScoresOf(js...), nil, cfgFor("rel"))
	if err != nil {
		t.Fatal(err)
	}
	if c := checkOf(judgeNamed(t, res, "steady"), CheckConsistent); c.Status != CheckPass || c.Value == nil || *c.Value != 1 {
		t.Errorf("steady %+v", c)
	}
	if c := checkOf(judgeNamed(t, res, "shaky"), CheckConsistent); c.Status != CheckFail {
		t.Errorf("shaky %+v", c)
	}
}
