package cube

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/stats"
	"cubeworkbench/core/text"
)

// ErrNoItems is returned when there is nothing to evaluate.
var ErrNoItems = errors.New("cube: no items")

// The three CuBE answer sets, indexed as in every [3] array below.
const (
	sZero = iota
	sRAG
	sFull
)

var setNames = [3]string{dataset.SetZero, dataset.SetRAG, dataset.SetFull}

func setIndex(name string) int {
	for s, n := range setNames {
		if n == name {
			return s
		}
	}
	return -1
}

// cells holds one judge's item scores: the mean of the ok repeats per set,
// dimension and item, kept as sum and count so repeats may come in any order.
type cells struct {
	n, k       int
	sum        []float64
	cnt        []int32
	rows       int
	unscorable [3][]int // [set][dimension]
}

func newCells(n, k int) *cells {
	c := &cells{n: n, k: k, sum: make([]float64, 3*k*n), cnt: make([]int32, 3*k*n)}
	for s := range c.unscorable {
		c.unscorable[s] = make([]int, k)
	}
	return c
}

func (c *cells) at(s, k, i int) int { return (s*c.k+k)*c.n + i }

// score is the item's score for the cell, false when no ok repeat exists.
func (c *cells) score(s, k, i int) (float64, bool) {
	p := c.at(s, k, i)
	if c.cnt[p] == 0 {
		return 0, false
	}
	return c.sum[p] / float64(c.cnt[p]), true
}

// evaluation is the state shared by the steps of one Evaluate call.
type evaluation struct {
	cfg       Config
	items     []dataset.Item
	dims      []string
	judges    []string
	cells     []*cells // per judge
	goldKnown []bool
	rank      []int
	rankScore []float64
	inBase    []bool // in the base subset (rank > 0, or every item for subset "all")
	weights   [][]float64
	// subset[j][k] lists the items of the analysis subset of judge j, dimension k.
	subset [][][]int
	recall *float64
	// qualified[j] says judge j earned its vote (qualify.go).
	qualified []bool
}

// Evaluate runs CuBE over items, their judgements and (optional) expert
// ratings. Judgements for other answer sets, unknown items or dimensions
// are counted and left alone; an unusable configuration or a non-finite ok
// score is an error.
func Evaluate(items []dataset.Item, scores dataset.Scores, human []dataset.HumanRating, cfg Config) (*Result, error) {
	_, res, err := evaluate(items, scores, human, cfg)
	return res, err
}

// evaluate is Evaluate keeping its working state, for the tests.
func evaluate(items []dataset.Item, scores dataset.Scores, human []dataset.HumanRating, cfg Config) (*evaluation, *Result, error) {
	if err := cfg.validate(); err != nil {
		return nil, nil, err
	}
	if len(items) == 0 {
		return nil, nil, ErrNoItems
	}
	e := &evaluation{cfg: cfg, items: items}
	byID := make(map[string]int, len(items))
	for i, it := range items {
		if it.ID == "" {
			return nil, nil, fmt.Errorf("cube: item %d (row %d) has no id", i+1, it.Row)
		}
		if _, dup := byID[it.ID]; dup {
			return nil, nil, fmt.Errorf("cube: duplicate item id %q (row %d)", it.ID, it.Row)
		}
		byID[it.ID] = i
	}
	e.dims = cfg.Dimensions
	if len(e.dims) == 0 {
		e.dims = dimensionsOf(scores)
	}
	res := &Result{
		Items: len(items), TopN: cfg.TopN, Subset: cfg.Subset, Trim: cfg.Trim,
		Dimensions: slices.Clone(e.dims), WeightsMode: cfg.Weights, BootstrapB: cfg.BootstrapB, Seed: cfg.Seed,
		Judges: []JudgeResult{}, Findings: []Finding{},
	}
	e.ranks(res)
	ignored, err := e.collect(scores, byID)
	if err != nil {
		return nil, nil, err
	}
	res.IgnoredJudgements = ignored

	hand, judgeTables, err := e.handTables()
	if err != nil {
		return nil, nil, err
	}
	for j := range e.judges {
		jr := e.judge(j, hand, judgeTables)
		res.Judges = append(res.Judges, jr)
	}
	if len(human) > 0 {
		res.Human = e.human(human, byID)
	}
	boot := e.bootstrap(res)
	e.qualifyAll(res, scores, byID, boot)
	res.Aggregate = e.aggregate(res)
	boot.meanCI(res, e.qualified)
	res.ItemDetails = e.itemDetails()
	res.RAGScores = e.itemScores(sRAG, byID)
	res.Findings = e.find(res)
	res.Notes = methodNotes(cfg)
	res.HeadlineText = text.Text{EN: res.Headline("en"), ZH: res.Headline("zh")}
	return e, res, nil
}

// dimensionsOf lists the dimensions of CuBE's judgements in first-seen order.
func dimensionsOf(scores dataset.Scores) []string {
	var dims []string
	seen := map[string]bool{}
	for j := range scores.Values() {
		if setIndex(j.Set) >= 0 && j.Dimension != "" && j.Dimension != Weighted && !seen[j.Dimension] {
			seen[j.Dimension] = true
			dims = append(dims, j.Dimension)
		}
	}
	return dims
}

// ranks fills rank, rank score, Recall@k and the base subset.
func (e *evaluation) ranks(res *Result) {
	key := e.cfg.DocKey
	if key == nil {
		key = strings.TrimSpace
	}
	n := len(e.items)
	e.goldKnown = make([]bool, n)
	e.rank = make([]int, n)
	e.rankScore = make([]float64, n)
	e.inBase = make([]bool, n)
	known := 0
	for i, it := range e.items {
		gold := key(it.DocID)
		if gold != "" {
			e.goldKnown[i] = true
			known++
			e.rank[i], e.rankScore[i] = rankOf(gold, it.Retrieved, e.cfg.TopN, key)
		}
		if e.rank[i] > 0 {
			res.Retrieved++
		}
		e.inBase[i] = e.cfg.Subset == SubsetAll || e.rank[i] > 0
	}
	res.UnknownGold = n - known
	if known > 0 {
		e.recall = num(float64(res.Retrieved)/float64(known), true)
	}
	res.RecallAtK = e.recall
}

// rankOf is formulas.md's rank and rank score: the 1-based position of the
// gold document among the first topN retrieved ids (0 when absent), scored
// topN + 2 − rank, plus 1 when the gold document is all the list holds.
func rankOf(gold string, retrieved []string, topN int, key func(string) string) (int, float64) {
	top := retrieved[:min(len(retrieved), topN)]
	rank := 0
	only := true
	for p, ref := range top {
		k := key(ref)
		if k == "" {
			continue
		}
		if k != gold {
			only = false
		} else if rank == 0 {
			rank = p + 1
		}
	}
	if rank == 0 {
		return 0, 0
	}
	score := float64(topN + 2 - rank)
	if only {
		score++
	}
	return rank, score
}

// collect sorts the judgements into per-judge cells.
func (e *evaluation) collect(scores dataset.Scores, byID map[string]int) (ignored int, err error) {
	dimIdx := make(map[string]int, len(e.dims))
	for k, d := range e.dims {
		dimIdx[d] = k
	}
	judgeIdx := map[string]int{}
	for jd := range scores.Values() {
		if _, ok := byID[jd.ItemID]; !ok || setIndex(jd.Set) < 0 {
			continue
		}
		if _, ok := dimIdx[jd.Dimension]; ok {
			judgeIdx[jd.Judge] = 0
		}
	}
	for name := range judgeIdx {
		e.judges = append(e.judges, name)
	}
	slices.Sort(e.judges)
	e.cells = make([]*cells, len(e.judges))
	for j, name := range e.judges {
		judgeIdx[name] = j
		e.cells[j] = newCells(len(e.items), len(e.dims))
	}
	for jd := range scores.Values() {
		i, okItem := byID[jd.ItemID]
		s := setIndex(jd.Set)
		k, okDim := dimIdx[jd.Dimension]
		if !okItem || s < 0 || !okDim {
			ignored++
			continue
		}
		c := e.cells[judgeIdx[jd.Judge]]
		c.rows++
		if !jd.OK() {
			c.unscorable[s][k]++
			continue
		}
		if math.IsNaN(jd.Score) || math.IsInf(jd.Score, 0) {
			return 0, fmt.Errorf("cube: judgement of %q (%s, %s, %s, row %d): score %v is not a number",
				jd.ItemID, jd.Set, jd.Judge, jd.Dimension, jd.Row, jd.Score)
		}
		p := c.at(s, k, i)
		c.sum[p] += jd.Score
		c.cnt[p]++
	}
	return ignored, nil
}

// handTables normalises the configured hand weights once.
func (e *evaluation) handTables() ([]float64, map[string][]float64, error) {
	var hand []float64
	if e.cfg.Weights == WeightsHand {
		w, err := normalizeWeights(e.cfg.HandWeights, e.dims)
		if err != nil {
			return nil, nil, err
		}
		hand = w
	}
	per := map[string][]float64{}
	for name, table := range e.cfg.JudgeWeights {
		w, err := normalizeWeights(table, e.dims)
		if err != nil {
			return nil, nil, fmt.Errorf("judge %q: %w", name, err)
		}
		per[name] = w
	}
	return hand, per, nil
}

// judge computes one judge's weights, trimmed means, normalisation and CuBE.
func (e *evaluation) judge(j int, hand []float64, judgeTables map[string][]float64) JudgeResult {
	name, c, K := e.judges[j], e.cells[j], len(e.dims)
	jr := JudgeResult{
		Judge: name, Weights: map[string]float64{},
		CorrelationAll: map[string]*float64{}, CorrelationRetrieved: map[string]*float64{},
		TrimmedMeans: map[string]map[string]*float64{}, SubsetN: map[string]int{},
		Normalized: map[string]*float64{}, Judgements: c.rows,
		UnscorableBy: map[string]map[string]int{}, Scored: map[string]map[string]int{},
		Flags: []string{},
	}
	for s, set := range setNames {
		jr.UnscorableBy[set] = map[string]int{}
		jr.Scored[set] = map[string]int{}
		for k, d := range e.dims {
			jr.UnscorableBy[set][d] = c.unscorable[s][k]
			jr.Unscorable += c.unscorable[s][k]
			n := 0
			for i := range e.items {
				if c.cnt[c.at(s, k, i)] > 0 {
					n++
				}
			}
			jr.Scored[set][d] = n
		}
	}

	// Correlation of rank score with the rag score, all cases and retrieved only.
	corrAll := make([]*float64, K)
	for k, d := range e.dims {
		var xa, ya, xr, yr []float64
		for i := range e.items {
			y, ok := c.score(sRAG, k, i)
			if !ok || !e.goldKnown[i] {
				continue
			}
			xa, ya = append(xa, e.rankScore[i]), append(ya, y)
			if e.rank[i] > 0 {
				xr, yr = append(xr, e.rankScore[i]), append(yr, y)
			}
		}
		corrAll[k] = num(stats.Pearson(xa, ya))
		jr.CorrelationAll[d] = corrAll[k]
		jr.CorrelationRetrieved[d] = num(stats.Pearson(xr, yr))
	}

	var w []float64
	switch table, own := judgeTables[name]; {
	case own:
		w, jr.WeightSource = table, "judge"
	case e.cfg.Weights == WeightsHand:
		w, jr.WeightSource = hand, WeightsHand
	case e.cfg.Weights == WeightsCorrelation:
		var fallback bool
		w, fallback = correlationWeights(corrAll)
		jr.WeightSource = WeightsCorrelation
		if fallback {
			jr.WeightSource = WeightsEqual
			jr.WeightNote = &text.Text{
				EN: "No dimension's rag score correlates positively with the rank score (every r ≤ 0 or undefined): equal weights are used.",
				ZH: "各维度的 rag 得分与排名得分均无正相关（r 均 ≤ 0 或无定义）：改用等权重。",
			}
			jr.Flags = append(jr.Flags, flagWeightsSubject+": "+FlagEqualFallback)
		}
	default:
		w, jr.WeightSource = equalWeights(K), WeightsEqual
	}
	e.weights = append(e.weights, w)
	for k, d := range e.dims {
		jr.Weights[d] = w[k]
	}

	// Trimmed means over the analysis subset: the same item ids for the three sets.
	sub := make([][]int, K)
	var t [3][]*float64
	for s := range t {
		t[s] = make([]*float64, K)
	}
	for k, d := range e.dims {
		for i := range e.items {
			if e.inBase[i] && c.cnt[c.at(sZero, k, i)] > 0 && c.cnt[c.at(sRAG, k, i)] > 0 && c.cnt[c.at(sFull, k, i)] > 0 {
				sub[k] = append(sub[k], i)
			}
		}
		jr.SubsetN[d] = len(sub[k])
		vals := make([]float64, len(sub[k]))
		for s := range t {
			for x, i := range sub[k] {
				vals[x], _ = c.score(s, k, i)
			}
			t[s][k] = num(stats.TrimMean(vals, e.cfg.Trim))
		}
	}
	e.subset = append(e.subset, sub)

	nz := Normalize(e.dims, t[sZero], t[sRAG], t[sFull], w)
	totals := [3]*float64{nz.WZero, nz.WRAG, nz.WFull}
	for s, set := range setNames {
		m := map[string]*float64{Weighted: totals[s]}
		for k, d := range e.dims {
			m[d] = t[s][k]
		}
		jr.TrimmedMeans[set] = m
	}
	for k, d := range e.dims {
		jr.Normalized[d] = nz.N[k]
	}
	jr.Normalized[Weighted] = nz.Weighted
	jr.Flags = append(jr.Flags, nz.Flags...)
	jr.Cube = Cube(nz.Weighted, e.recall)
	if e.recall == nil {
		jr.Flags = append(jr.Flags, flagCubeSubject+": "+FlagRecallUndef)
	}
	return jr
}

// correlationWeights is w_k = max(r_k, 0) / Σ max(r, 0); equal weights, and
// true, when no r is positive.
func correlationWeights(r []*float64) ([]float64, bool) {
	w := make([]float64, len(r))
	var sum float64
	for k, x := range r {
		if x != nil && *x > 0 {
			w[k] = *x
			sum += *x
		}
	}
	if sum <= 0 {
		return equalWeights(len(r)), true
	}
	for k := range w {
		w[k] /= sum
	}
	return w, false
}

func equalWeights(k int) []float64 {
	w := make([]float64, k)
	for i := range w {
		w[i] = 1 / float64(k)
	}
	return w
}

// aggregate is the mean and sample SD across the qualified judges of every
// N_Jk, N_J and C_J.
func (e *evaluation) aggregate(res *Result) Aggregate {
	agg := Aggregate{Normalized: map[string]MeanSD{}}
	for _, d := range append(slices.Clone(e.dims), Weighted) {
		var xs []*float64
		for j, jr := range res.Judges {
			if e.qualified[j] {
				xs = append(xs, jr.Normalized[d])
			}
		}
		agg.Normalized[d] = meanSD(xs)
	}
	var cs []*float64
	for j, jr := range res.Judges {
		if e.qualified[j] {
			cs = append(cs, jr.Cube)
		}
	}
	agg.Cube = meanSD(cs)
	return agg
}

func meanSD(xs []*float64) MeanSD {
	var v []float64
	for _, x := range xs {
		if x != nil {
			v = append(v, *x)
		}
	}
	return MeanSD{Mean: num(stats.Mean(v)), SD: num(stats.SD(v)), N: len(v)}
}

// itemScores copies one set's per-item means out of the judges' cells.
func (e *evaluation) itemScores(set int, byID map[string]int) *ItemScores {
	n, k := len(e.items), len(e.dims)
	s := &ItemScores{ids: byID, items: n, nj: len(e.cells), k: k, val: make([]float64, len(e.cells)*k*n), ok: make([]bool, len(e.cells)*k*n)}
	for j, c := range e.cells {
		for d := range k {
			for i := range n {
				p := (j*k+d)*n + i
				s.val[p], s.ok[p] = c.score(set, d, i)
			}
		}
	}
	return s
}

// itemDetails reports each item's rank and the qualified judges' spread on
// its rag answer. The figures of all items share two arrays (values and
// the per-dimension pointers), not an allocation each: about 0.26 KB an
// item instead of the 0.72 KB that two maps an item took (issue 27).
func (e *evaluation) itemDetails() []ItemDetail {
	out := make([]ItemDetail, len(e.items))
	K := len(e.dims)
	perJudge := make([]float64, 0, len(e.judges))
	vals := make([]float64, 0, len(e.items)*(2*K+3))
	ptrs := make([]*float64, 2*K*len(e.items))
	put := func(v float64, ok bool) *float64 {
		if !ok {
			return nil
		}
		vals = append(vals, v) // within capacity: the pointers stay valid
		return &vals[len(vals)-1]
	}
	for i, it := range e.items {
		d := ItemDetail{ID: it.ID, GoldKnown: e.goldKnown[i], Rank: e.rank[i],
			RAG: ptrs[2*K*i : 2*K*i+K : 2*K*i+K], Disagreement: ptrs[2*K*i+K : 2*K*(i+1) : 2*K*(i+1)]}
		if e.goldKnown[i] {
			d.RankScore = put(e.rankScore[i], true)
		}
		var all []float64
		for k := range e.dims {
			perJudge = perJudge[:0]
			for j, c := range e.cells {
				if !e.qualified[j] {
					continue
				}
				if v, ok := c.score(sRAG, k, i); ok {
					perJudge = append(perJudge, v)
				}
			}
			all = append(all, perJudge...)
			d.RAG[k] = put(stats.Mean(perJudge))
			d.Disagreement[k] = put(stats.SD(perJudge))
		}
		perJudge = perJudge[:0]
		for j, c := range e.cells {
			if !e.qualified[j] {
				continue
			}
			var s float64
			n := 0
			for k := range K {
				if v, ok := c.score(sRAG, k, i); ok {
					s += v
					n++
				}
			}
			if n == K && K > 0 {
				perJudge = append(perJudge, s/float64(K))
			}
		}
		d.RAGOverall = put(stats.Mean(all))
		d.DisagreementOverall = put(stats.SD(perJudge))
		out[i] = d
	}
	return out
}
