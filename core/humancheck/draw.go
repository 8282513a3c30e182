package humancheck

import (
	"math/rand/v2"
	"slices"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/stats"
)

// Strata, in the order an item is placed: the first that fits it.
const (
	StratumNotRetrieved = "not_retrieved" // gold guide known and not in the top N
	StratumLow          = "low_score"     // rag score in the lowest quarter
	StratumDisagreement = "disagreement"  // judges' spread in the highest quarter
	StratumRest         = "rest"
)

// Strata lists the strata in placement order.
var Strata = []string{StratumNotRetrieved, StratumLow, StratumDisagreement, StratumRest}

// DefaultN is the number of questions a draw takes unless told otherwise.
const DefaultN = 30

// ItemInfo is what the draw knows of one evaluated question.
type ItemInfo struct {
	ID           string
	GoldKnown    bool
	Rank         int      // 1-based, 0 = gold not in the top N
	Score        *float64 // mean rag score over judges and dimensions, 0–10
	Disagreement *float64 // SD across judges
	Sets         []string // answer sets it has an answer for (rag, zero, full)
}

// DrawOptions say how many questions to draw and from which answer sets.
type DrawOptions struct {
	N    int      // questions; 0 is DefaultN
	Seed int64    // the same seed draws the same sample
	Sets []string // answer sets an answer may come from; nil is rag, zero and full
}

// StratumSize is one stratum of the design.
type StratumSize struct {
	Name       string `json:"name"`
	Population int    `json:"population"` // questions in it
	Drawn      int    `json:"drawn"`
}

// Task is one drawn answer. Pi is the question's inclusion probability
// (drawn / population of its stratum), SetProb the chance that this set's
// answer was the one shown; the answer's weight is 1/(Pi·SetProb).
type Task struct {
	Seq     int     `json:"seq"` // the order raters see it in
	ItemID  string  `json:"item_id"`
	Set     string  `json:"set"`
	Stratum string  `json:"stratum"`
	Pi      float64 `json:"pi"`
	SetProb float64 `json:"set_prob"`
}

// Weight is the inverse of the answer's inclusion probability.
func (t Task) Weight() float64 { return 1 / (t.Pi * t.SetProb) }

// Design is one draw as recorded in the run store.
type Design struct {
	ID     int64         `json:"id"` // the store's number, 0 before it is stored
	Seed   int64         `json:"seed"`
	N      int           `json:"n"`
	Strata []StratumSize `json:"strata"`
	Tasks  []Task        `json:"tasks"`
}

// Weights maps (item, set) to the answer's weight.
func (d *Design) Weights() map[Unit]float64 {
	if d == nil {
		return nil
	}
	w := make(map[Unit]float64, len(d.Tasks))
	for _, t := range d.Tasks {
		w[Unit{t.ItemID, t.Set}] = t.Weight()
	}
	return w
}

// Draw draws a stratified sample of the items. Every stratum that has
// questions gets at least a few (so the hard cases are present), the rest
// is shared in proportion to the strata's sizes; within a stratum the
// questions are a simple random sample, and each drawn question shows one
// of its answers chosen uniformly among the sets it has.
func Draw(items []ItemInfo, o DrawOptions) *Design {
	if o.N <= 0 {
		o.N = DefaultN
	}
	sets := o.Sets
	if len(sets) == 0 {
		sets = []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull}
	}
	var usable []ItemInfo
	for _, it := range items {
		if len(present(it.Sets, sets)) > 0 {
			usable = append(usable, it)
		}
	}
	groups := stratify(usable)
	sizes := make([]int, len(Strata))
	for h := range Strata {
		sizes[h] = len(groups[h])
	}
	alloc := allocate(sizes, o.N)
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0x5eed5eed))
	d := &Design{Seed: o.Seed}
	for h, name := range Strata {
		d.Strata = append(d.Strata, StratumSize{Name: name, Population: sizes[h], Drawn: alloc[h]})
		if alloc[h] == 0 {
			continue
		}
		pi := float64(alloc[h]) / float64(sizes[h])
		perm := rng.Perm(sizes[h])[:alloc[h]]
		for _, p := range perm {
			it := groups[h][p]
			have := present(it.Sets, sets)
			set := have[rng.IntN(len(have))]
			d.Tasks = append(d.Tasks, Task{ItemID: it.ID, Set: set, Stratum: name, Pi: pi, SetProb: 1 / float64(len(have))})
		}
		d.N += alloc[h]
	}
	// Shuffled, so a rater cannot tell the stratum (a run of failures) from
	// the order.
	rng.Shuffle(len(d.Tasks), func(i, j int) { d.Tasks[i], d.Tasks[j] = d.Tasks[j], d.Tasks[i] })
	for i := range d.Tasks {
		d.Tasks[i].Seq = i + 1
	}
	return d
}

func present(have, want []string) []string {
	var out []string
	for _, s := range want {
		if slices.Contains(have, s) {
			out = append(out, s)
		}
	}
	return out
}

// stratify places each item in the first stratum it fits. The low-score and
// disagreement cut-offs are the quartiles of the items' own values.
func stratify(items []ItemInfo) [][]ItemInfo {
	var scores, spreads []float64
	for _, it := range items {
		if it.Score != nil {
			scores = append(scores, *it.Score)
		}
		if it.Disagreement != nil {
			spreads = append(spreads, *it.Disagreement)
		}
	}
	slices.Sort(scores)
	slices.Sort(spreads)
	low, lowOK := stats.Quantile(scores, 0.25)
	high, highOK := stats.Quantile(spreads, 0.75)
	groups := make([][]ItemInfo, len(Strata))
	for _, it := range items {
		h := 3
		switch {
		case it.GoldKnown && it.Rank == 0:
			h = 0
		case lowOK && it.Score != nil && *it.Score <= low:
			h = 1
		case highOK && it.Disagreement != nil && *it.Disagreement >= high && *it.Disagreement > 0:
			h = 2
		}
		groups[h] = append(groups[h], it)
	}
	return groups
}

// allocate shares n draws over strata of the given sizes: each non-empty
// special stratum first gets its floor (a sixth of n, at least 2, at most
// its size), then the remainder goes in proportion to size, capped by
// size, largest remainders first.
func allocate(sizes []int, n int) []int {
	total := 0
	for _, s := range sizes {
		total += s
	}
	alloc := make([]int, len(sizes))
	if total <= n {
		copy(alloc, sizes)
		return alloc
	}
	floor := max(2, n/6)
	left := n
	for h := 0; h < len(sizes)-1; h++ {
		alloc[h] = min(sizes[h], floor, left)
		left -= alloc[h]
	}
	for left > 0 {
		// give one draw to the stratum furthest below its proportional share
		best, bestGap := -1, 0.0
		for h, s := range sizes {
			if alloc[h] >= s {
				continue
			}
			gap := float64(n)*float64(s)/float64(total) - float64(alloc[h])
			if best < 0 || gap > bestGap {
				best, bestGap = h, gap
			}
		}
		if best < 0 {
			break
		}
		alloc[best]++
		left--
	}
	return alloc
}
