package gen

import (
	"fmt"
	"strings"
)

// topN is the retrieval depth the sample simulates (formulas.md §1 default).
const topN = 8

// rankPattern is how often the gold document sits at each rank; 0 is a miss.
// 48 hits of 60 give recall@8 = 0.8, near the paper's 80.41 %.
var rankPattern = map[int]int{1: 20, 2: 8, 3: 5, 4: 4, 5: 3, 6: 3, 7: 3, 8: 2}

// Answer quality levels. They follow the gold document's rank so that the
// correlation weights of CuBE have something to find.
const (
	levelWrong   = 0 // gold not retrieved: a sibling's details or hedging
	levelPartial = 1 // gold far down the list: one fact and a hedge
	levelGood    = 2 // gold at rank 3–4: correct but incomplete
	levelFull    = 3 // gold at rank 1–2: complete and specific
)

// row is one qa row with everything derived for it.
type row struct {
	ID        string
	Q         question
	Gold      *guide
	Rank      int // 1-based, 0 = miss
	Retrieved []string
	Level     int // rag answer quality
	LevelB    int // system B answer quality
	RAG       string
	B         string
	Zero      string
	Full      string
	Ref       string
}

// injectionAnswer replaces one rag answer: it starts with "=", so readers and
// writers are exercised against formula injection. It says nothing useful,
// so the row counts as a wrong answer.
const injectionAnswer = "=所需材料见上"

// rng is splitmix64: tiny, and fixed forever, unlike math/rand's algorithms
// whose streams may change between Go releases. Same seed, same workbook.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// intn returns a value in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

func (r *rng) shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.intn(i+1))
	}
}

const seed = 20250101

// plan derives every qa row from the guides and questions. It is pure and
// deterministic.
func plan() ([]row, error) {
	byID := make(map[string]*guide, len(guides))
	for i := range guides {
		g := &guides[i]
		if _, dup := byID[g.ID]; dup {
			return nil, fmt.Errorf("samplegen: duplicate guide id %s", g.ID)
		}
		byID[g.ID] = g
	}
	groupSize := map[string]int{}
	for _, g := range guides {
		groupSize[g.Group]++
	}
	r := &rng{s: seed}

	rows := make([]row, len(questions))
	var eligible []int // items that can miss: they have a near-duplicate
	for i, q := range questions {
		g, ok := byID[q.Gold]
		if !ok {
			return nil, fmt.Errorf("samplegen: question %d names unknown guide %s", i+1, q.Gold)
		}
		rows[i] = row{ID: fmt.Sprintf("q%03d", i+1), Q: q, Gold: g}
		if groupSize[g.Group] > 1 {
			eligible = append(eligible, i)
		}
	}
	if err := assignRanks(rows, eligible, r); err != nil {
		return nil, err
	}
	singleDone := false
	for i := range rows {
		rw := &rows[i]
		n := topN
		switch p := r.intn(20); {
		case p < 3:
			n = 5
		case p < 5:
			n = 6
		}
		if rw.Rank > n {
			n = topN
		}
		if rw.Rank == 1 && !singleDone {
			// One list holding only the gold document exercises the +1 of
			// the rank score (formulas.md §1).
			n, singleDone = 1, true
		}
		rw.Retrieved = retrieve(rw.Gold, rw.Rank, n, r)
		rw.Level, rw.LevelB = levels(rw.Rank, r)
	}
	injected := false
	for i := range rows {
		rw := &rows[i]
		top := byID[rw.Retrieved[0]]
		rw.RAG = ragAnswer(rw, top, i)
		rw.B = answerB(rw, i)
		rw.Zero = zeroAnswer(rw.Q, i)
		rw.Full = fullAnswer(rw.Q, rw.Gold)
		rw.Ref = referenceAnswer(rw.Q, rw.Gold)
		if !injected && rw.Level == levelGood && has(rw.Q.Facets, fMat) {
			rw.RAG, rw.Level, injected = injectionAnswer, levelWrong, true
		}
	}
	if !injected {
		return nil, fmt.Errorf("samplegen: no row fits the formula-injection example")
	}
	return rows, nil
}

// assignRanks spreads rankPattern over the rows; misses only where a
// near-duplicate can take the gold's place.
func assignRanks(rows []row, eligible []int, r *rng) error {
	misses := rankPattern0(len(rows))
	if misses > len(eligible) {
		return fmt.Errorf("samplegen: %d misses but only %d items with near-duplicates", misses, len(eligible))
	}
	el := append([]int(nil), eligible...)
	r.shuffle(len(el), func(i, j int) { el[i], el[j] = el[j], el[i] })
	missed := map[int]bool{}
	for _, i := range el[:misses] {
		missed[i] = true
	}
	var ranks []int
	for k := 1; k <= topN; k++ {
		for c := 0; c < rankPattern[k]; c++ {
			ranks = append(ranks, k)
		}
	}
	r.shuffle(len(ranks), func(i, j int) { ranks[i], ranks[j] = ranks[j], ranks[i] })
	next := 0
	for i := range rows {
		if missed[i] {
			continue
		}
		rows[i].Rank = ranks[next]
		next++
	}
	return nil
}

// rankPattern0 is the number of misses the pattern leaves for n items.
func rankPattern0(n int) int {
	hits := 0
	for _, c := range rankPattern {
		hits += c
	}
	return n - hits
}

// retrieve builds a ranked list of n ids: near-duplicates first (that is what
// confuses a retriever over service guides), then the same agency's items,
// then the rest at random. The gold sits at rank, or nowhere when rank is 0.
func retrieve(gold *guide, rank, n int, r *rng) []string {
	seen := map[string]bool{gold.ID: true}
	var cands []string
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			cands = append(cands, id)
		}
	}
	var sib []string
	for _, g := range guides {
		if g.Group == gold.Group && g.ID != gold.ID {
			sib = append(sib, g.ID)
		}
	}
	r.shuffle(len(sib), func(i, j int) { sib[i], sib[j] = sib[j], sib[i] })
	for _, id := range sib {
		add(id)
	}
	for _, g := range guides {
		if g.Agency == gold.Agency {
			add(g.ID)
		}
	}
	perm := make([]int, len(guides))
	for i := range perm {
		perm[i] = i
	}
	r.shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	for _, i := range perm {
		add(guides[i].ID)
	}
	if rank == 0 {
		return cands[:n]
	}
	out := append([]string(nil), cands[:rank-1]...)
	out = append(out, gold.ID)
	return append(out, cands[rank-1:n-1]...)
}

// levels maps a rank to the quality of the rag answer and of system B,
// with a little noise so the relation is strong but not exact.
func levels(rank int, r *rng) (int, int) {
	var l int
	switch {
	case rank == 0:
		l = levelWrong
	case rank <= 2:
		l = levelFull
		if r.intn(7) == 0 {
			l = levelGood
		}
	case rank <= 4:
		l = levelGood
		if r.intn(4) == 0 {
			l = levelFull
		}
	default:
		l = levelPartial
	}
	// System B: a later version that hedges instead of guessing, but trims
	// complete answers more often.
	b := l
	switch l {
	case levelFull:
		if r.intn(5) < 2 {
			b = levelGood
		}
	case levelGood:
		if r.intn(2) == 0 {
			b = levelFull
		}
	case levelPartial:
		if r.intn(2) == 0 {
			b = levelGood
		}
	case levelWrong:
		if r.intn(3) == 0 {
			b = levelPartial
		}
	}
	return l, b
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func splitBar(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "|") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
