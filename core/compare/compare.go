package compare

import (
	"math"
	"math/rand/v2"
	"slices"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/stats"
)

// Defaults.
const (
	DefaultB = 1000 // bootstrap resamples when the configuration says 0
	// DefaultTolerance is how far (points on the 0–100 normalised scale)
	// a question's score must move to count as changed.
	DefaultTolerance = 5.0
)

// Options configure a comparison.
type Options struct {
	// Config is CuBE's configuration for both sides; its BootstrapB (0 →
	// DefaultB) and Seed drive the paired bootstrap.
	Config cube.Config
	// Tolerance is the per-question change that counts (0 → DefaultTolerance).
	Tolerance float64
	// Unpaired also computes every interval from independent resamples of
	// the two sides, to show what pairing gains (twice the work).
	Unpaired bool
}

// Metric names of a Delta.
const (
	MetricCube     = "cube"
	MetricWeighted = cube.Weighted // N_J, the weighted normalised total
	MetricRecall   = "recall_at_k" // 0–100 (percentage points)
	MetricMFSS     = "mfss_total"  // 0–100 (MFSS total × 100)
	MetricCoFEPass = "cofe_pass_rate"
	// A dimension's Delta carries the dimension's name.
)

// Compare evaluates both sides over the questions they share and compares
// B with A (every Δ is B − A; positive means B is better).
func Compare(a, b Side, opt Options) (*Result, error) {
	cfg := opt.Config
	B := cfg.BootstrapB
	if B == 0 {
		B = DefaultB
	}
	tol := opt.Tolerance
	if tol == 0 {
		tol = DefaultTolerance
	}
	if B < 0 || !(tol > 0) || math.IsInf(tol, 0) {
		return nil, fail(CodeOptions, "重抽样次数须 ≥ 0，容差须为正数",
			"resamples must be ≥ 0 and the tolerance a positive number")
	}
	for _, s := range []Side{a, b} {
		if s.set() == "zero" || s.set() == "full" {
			set := sideLabel(s.set())
			return nil, fail(CodeBoundSet, "“"+s.label().ZH+"”一方：答案集“"+set.ZH+"”是 CuBE 的边界，不是被测系统",
				"side "+s.label().EN+": the answer set "+set.EN+" is a CuBE bound, not a system")
		}
	}
	p, err := pair(a, b, cfg.DocKey)
	if err != nil {
		return nil, err
	}
	if len(p.ids) == 0 {
		return nil, fail(CodeNoPairs,
			"两方没有共同的问题编号（"+a.label().ZH+"："+itoa(len(a.Items))+" 个问题，"+b.label().ZH+"："+itoa(len(b.Items))+" 个），无法比较",
			"no question id is on both sides ("+a.label().EN+": "+itoa(len(a.Items))+" questions, "+b.label().EN+": "+itoa(len(b.Items))+"); nothing can be compared")
	}
	shared := len(p.differ) == 0
	bounds := boundJudgements(a)
	sides := [2]*sideEval{}
	for s, side := range []Side{a, b} {
		idx := p.ia
		if s == 1 {
			idx = p.ib
		}
		items, js := cubeInput(side, idx, bounds, !shared, cfg.Dimensions)
		if !hasSet(side) {
			return nil, fail(CodeNoJudgements,
				"“"+side.label().ZH+"”一方：其答案没有任何评分；请先对其答案评分",
				"side "+side.label().EN+": no judgement of its answers; judge them first")
		}
		c := cfg
		c.BootstrapB = 0
		c.DocKey = docKey(side.DocKey, cfg.DocKey)
		rep, err := cube.NewReplicator(items, js, c)
		if err != nil {
			return nil, err
		}
		sides[s] = &sideEval{side: side, idx: idx, rep: rep, r: rep.NewReplicate()}
	}
	if !slices.Equal(sides[0].rep.Dimensions(), sides[1].rep.Dimensions()) {
		return nil, fail(CodeDimensions,
			"两方的评分维度不同；请在配置中指定评分维度",
			"the sides were scored on different dimensions; set the dimensions in the profile")
	}
	for _, d := range sides[0].rep.Dimensions() {
		if d == MetricCube || d == MetricRecall || d == MetricMFSS || d == MetricCoFEPass {
			return nil, fail(CodeDimensions, "评分维度不能命名为 "+d, "a dimension may not be called "+d)
		}
	}
	c := newComparison(p, sides, shared, B, cfg.Seed, tol)
	c.res.BootstrapB, c.res.Seed, c.res.Tolerance = B, cfg.Seed, tol
	c.run(opt.Unpaired)
	return c.res, nil
}

func hasSet(s Side) bool {
	for j := range s.Judgements.Values() {
		if j.Set == s.set() {
			return true
		}
	}
	return false
}

type sideEval struct {
	side Side
	idx  []int // into side.Items, per pair
	rep  *cube.Replicator
	r    *cube.Replicate
	cofe map[string][]int8 // judge → per pair
	mfss []float64         // per pair, NaN when absent
}

// slot is one compared figure: a metric of one judge ("" = across judges).
type slot struct {
	judge  string
	metric string
	ja, jb int // judge index on each side (−1 across judges or judge-free)
	dim    int // dimension index for a dimension slot, else −1
	// members are the per-judge slots averaged by an across-judges slot:
	// those defined on both sides on the full sample.
	members []int
}

type comparison struct {
	p      *pairing
	sides  [2]*sideEval
	judges []string
	dims   []string
	slots  []slot
	res    *Result
	B      int
	seed   int64
	tol    float64
	// bothCoFE[j][x], bothMFSS[x]: the pair has the figure on both sides.
	bothCoFE map[string][]bool
	bothMFSS []bool
	// val[0|1][slot] and ok are the figures of one (re)sample.
	val [2][]float64
	ok  [2][]bool
}

func newComparison(p *pairing, sides [2]*sideEval, shared bool, B int, seed int64, tol float64) *comparison {
	c := &comparison{p: p, sides: sides, B: B, seed: seed, tol: tol, dims: sides[0].rep.Dimensions()}
	c.res = &Result{NameA: sides[0].side.name(), NameB: sides[1].side.name(), SideA: sides[0].side.label(), SideB: sides[1].side.label(), SetA: sides[0].side.set(), SetB: sides[1].side.set(),
		Paired: len(p.ids), UnmatchedA: nonNil(p.unmatchedA), UnmatchedB: nonNil(p.unmatchedB),
		SharedBounds: shared, BoundsDiffer: nonNil(p.differ), Dimensions: slices.Clone(c.dims),
		ItemsA: len(sides[0].side.Items), ItemsB: len(sides[1].side.Items),
		CubeA: sides[0].rep.Result(), CubeB: sides[1].rep.Result()}
	ja, jb := sides[0].rep.Judges(), sides[1].rep.Judges()
	for _, name := range ja {
		if slices.Contains(jb, name) {
			c.judges = append(c.judges, name)
		} else {
			c.res.JudgesOnlyA = append(c.res.JudgesOnlyA, name)
		}
	}
	for _, name := range jb {
		if !slices.Contains(ja, name) {
			c.res.JudgesOnlyB = append(c.res.JudgesOnlyB, name)
		}
	}
	for s := range sides {
		sides[s].cofe = cofePasses(sides[s].side, p.ids)
		sides[s].mfss = make([]float64, len(p.ids))
		for x, id := range p.ids {
			sides[s].mfss[x] = math.NaN()
			if v, ok := sides[s].side.MFSS[id]; ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
				sides[s].mfss[x] = 100 * v
			}
		}
	}
	c.bothCoFE = map[string][]bool{}
	for _, name := range c.judges {
		pa, pb := sides[0].cofe[name], sides[1].cofe[name]
		if pa == nil || pb == nil {
			continue
		}
		both := make([]bool, len(p.ids))
		some := false
		for x := range both {
			both[x] = pa[x] >= 0 && pb[x] >= 0
			some = some || both[x]
		}
		if some {
			c.bothCoFE[name] = both
		}
	}
	c.bothMFSS = make([]bool, len(p.ids))
	hasMFSS := false
	for x := range p.ids {
		c.bothMFSS[x] = !math.IsNaN(sides[0].mfss[x]) && !math.IsNaN(sides[1].mfss[x])
		hasMFSS = hasMFSS || c.bothMFSS[x]
	}
	c.res.mfssOneSide = (sides[0].side.MFSS == nil) != (sides[1].side.MFSS == nil)

	metrics := append([]string{MetricCube, MetricWeighted}, c.dims...)
	metrics = append(metrics, MetricCoFEPass)
	for _, name := range c.judges {
		a, b := slices.Index(ja, name), slices.Index(jb, name)
		for m, metric := range metrics {
			if metric == MetricCoFEPass && c.bothCoFE[name] == nil {
				continue
			}
			c.slots = append(c.slots, slot{judge: name, metric: metric, ja: a, jb: b, dim: m - 2})
		}
	}
	perJudge := len(c.slots)
	for m, metric := range metrics {
		c.slots = append(c.slots, slot{metric: metric, ja: -1, jb: -1, dim: m - 2})
	}
	c.slots = append(c.slots, slot{metric: MetricRecall, ja: -1, jb: -1, dim: -1})
	if hasMFSS {
		c.slots = append(c.slots, slot{metric: MetricMFSS, ja: -1, jb: -1, dim: -1})
	}
	for s := range c.val {
		c.val[s] = make([]float64, len(c.slots))
		c.ok[s] = make([]bool, len(c.slots))
	}
	// Full-sample figures decide which judges an across-judges slot averages.
	id := identity(len(p.ids))
	c.fill(id, id)
	for x := perJudge; x < len(c.slots); x++ {
		if c.slots[x].judge != "" || c.slots[x].metric == MetricRecall || c.slots[x].metric == MetricMFSS {
			continue
		}
		for y := range perJudge {
			// Only judges counted in both sides' verdicts (cube's judge
			// qualification) are averaged, as in the headline.
			if c.slots[y].metric == c.slots[x].metric && c.ok[0][y] && c.ok[1][y] &&
				counted(c.res.CubeA, c.slots[y].judge) && counted(c.res.CubeB, c.slots[y].judge) {
				c.slots[x].members = append(c.slots[x].members, y)
			}
		}
	}
	return c
}

func identity(n int) []int {
	id := make([]int, n)
	for i := range id {
		id[i] = i
	}
	return id
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// fill computes every slot's figure on both sides, side A on the pairs at
// ia and side B on those at ib (the same slice in the paired bootstrap).
func (c *comparison) fill(ia, ib []int) {
	for s, idx := range [2][]int{ia, ib} {
		se := c.sides[s]
		// The side's CuBE input holds the paired items in pairing order, so a
		// pair index is an item index of its Replicator.
		se.rep.Eval(idx, se.r)
		val, ok := c.val[s], c.ok[s]
		for x, sl := range c.slots {
			j := sl.ja
			if s == 1 {
				j = sl.jb
			}
			val[x], ok[x] = 0, false
			switch {
			case sl.judge == "" && sl.metric == MetricRecall:
				val[x], ok[x] = 100*se.r.Recall, se.r.RecallOK
			case sl.judge == "" && sl.metric == MetricMFSS:
				val[x], ok[x] = meanWhere(idx, c.bothMFSS, func(i int) float64 { return se.mfss[i] })
			case sl.judge == "":
				val[x], ok[x] = c.across(s, sl)
			case sl.metric == MetricCube:
				val[x], ok[x] = se.r.Cube[j], se.r.CubeOK[j]
			case sl.metric == MetricWeighted:
				val[x], ok[x] = se.r.Weighted[j], se.r.WeightedOK[j]
			case sl.metric == MetricCoFEPass:
				pass := se.cofe[sl.judge]
				val[x], ok[x] = meanWhere(idx, c.bothCoFE[sl.judge], func(i int) float64 { return 100 * float64(pass[i]) })
			default:
				val[x], ok[x] = se.r.Normalized[j][sl.dim], se.r.NormalizedOK[j][sl.dim]
			}
		}
	}
}

// across is the mean over the slot's member judges, defined only when
// every member is (per-judge slots come first, so they are filled).
func (c *comparison) across(s int, sl slot) (float64, bool) {
	if len(sl.members) == 0 {
		return 0, false
	}
	var sum float64
	for _, y := range sl.members {
		if !c.ok[s][y] {
			return 0, false
		}
		sum += c.val[s][y]
	}
	return sum / float64(len(sl.members)), true
}

func meanWhere(idx []int, use []bool, f func(int) float64) (float64, bool) {
	var sum float64
	n := 0
	for _, i := range idx {
		if use[i] {
			sum += f(i)
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// run computes the point figures, the paired (and optionally unpaired)
// intervals, the per-question changes, the verdict and the sentences.
func (c *comparison) run(unpaired bool) {
	n, S := len(c.p.ids), len(c.slots)
	id := identity(n)
	c.fill(id, id)
	point := [2][]float64{slices.Clone(c.val[0]), slices.Clone(c.val[1])}
	pok := [2][]bool{slices.Clone(c.ok[0]), slices.Clone(c.ok[1])}

	// Statistics 3x, 3x+1, 3x+2: slot x on A, on B, and B − A.
	stat := func(ia, ib []int, out []float64, ok []bool) {
		c.fill(ia, ib)
		for x := range S {
			out[3*x], ok[3*x] = c.val[0][x], c.ok[0][x]
			out[3*x+1], ok[3*x+1] = c.val[1][x], c.ok[1][x]
			if c.ok[0][x] && c.ok[1][x] {
				out[3*x+2], ok[3*x+2] = c.val[1][x]-c.val[0][x], true
			}
		}
	}
	paired := stats.BootstrapMany(n, c.B, c.seed, 3*S, func(idx []int, out []float64, ok []bool) {
		stat(idx, idx, out, ok)
	})
	var indep []stats.CI
	if unpaired {
		indep = unpairedBootstrap(n, c.B, c.seed, 3*S, stat)
	}
	deltas := make([]Delta, S)
	for x, sl := range c.slots {
		d := Delta{Metric: sl.metric, Judge: sl.judge}
		if pok[0][x] {
			d.A = ptr(point[0][x])
		}
		if pok[1][x] {
			d.B = ptr(point[1][x])
		}
		if d.A != nil && d.B != nil {
			d.Diff = ptr(*d.B - *d.A)
		}
		d.ACI95, d.BCI95 = interval(paired[3*x]), interval(paired[3*x+1])
		if d.Diff != nil {
			d.CI95 = interval(paired[3*x+2])
			if indep != nil {
				d.UnpairedCI95 = interval(indep[3*x+2])
			}
		}
		d.settle()
		deltas[x] = d
	}
	c.collect(deltas)
	c.items()
	c.describe()
}

func ptr(v float64) *float64 { return &v }

func interval(ci stats.CI) *[2]float64 {
	if !ci.OK {
		return nil
	}
	return &[2]float64{ci.Lo, ci.Hi}
}

// collect files the deltas into the result's judges and aggregate.
func (c *comparison) collect(deltas []Delta) {
	res := c.res
	res.Judges = []JudgeDeltas{}
	byJudge := map[string]*JudgeDeltas{}
	for _, name := range c.judges {
		res.Judges = append(res.Judges, JudgeDeltas{Judge: name, Deltas: Deltas{Normalized: map[string]Delta{}}})
	}
	for j := range res.Judges {
		byJudge[res.Judges[j].Judge] = &res.Judges[j]
	}
	res.Aggregate = Deltas{Normalized: map[string]Delta{}}
	for x, sl := range c.slots {
		d := deltas[x]
		target := &res.Aggregate
		if sl.judge != "" {
			target = &byJudge[sl.judge].Deltas
		} else {
			d.Judges = len(sl.members)
		}
		switch sl.metric {
		case MetricCube:
			target.Cube = d
		case MetricWeighted:
			target.Weighted = d
		case MetricCoFEPass:
			dd := d
			if sl.judge == "" && len(sl.members) == 0 {
				continue
			}
			target.CoFEPass = &dd
		case MetricRecall:
			dd := d
			res.Recall = dd
		case MetricMFSS:
			dd := d
			res.MFSS = &dd
		default:
			if target.Normalized == nil {
				target.Normalized = map[string]Delta{}
			}
			target.Normalized[sl.metric] = d
		}
	}
}

// unpairedBootstrap is stats.BootstrapMany with independent resamples of
// the two sides (two PCG streams from the seed), for the comparison with
// the paired interval; the same percentile and validity rules.
func unpairedBootstrap(n, B int, seed int64, m int, stat func(ia, ib []int, out []float64, ok []bool)) []stats.CI {
	ra := rand.New(rand.NewPCG(uint64(seed), 1))
	rb := rand.New(rand.NewPCG(uint64(seed), 2))
	ia, ib := make([]int, n), make([]int, n)
	out, ok := make([]float64, m), make([]bool, m)
	reps := make([][]float64, m)
	for range B {
		for i := range n {
			ia[i], ib[i] = ra.IntN(n), rb.IntN(n)
		}
		clear(ok)
		stat(ia, ib, out, ok)
		for j := range m {
			if ok[j] {
				reps[j] = append(reps[j], out[j])
			}
		}
	}
	res := make([]stats.CI, m)
	for j, r := range reps {
		res[j].Valid = len(r)
		if len(r) < 2 || 2*len(r) < B {
			continue
		}
		slices.Sort(r)
		res[j].Lo, _ = stats.Quantile(r, 0.025)
		res[j].Hi, _ = stats.Quantile(r, 0.975)
		res[j].OK = true
	}
	return res
}

// counted says judge is part of res's verdict.
func counted(res *cube.Result, judge string) bool {
	if res == nil {
		return true
	}
	for _, j := range res.Judges {
		if j.Judge == judge {
			return j.Counted()
		}
	}
	return true
}
