package dataset

import (
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
)

// Scores holds a run's judgements in columns: every text field (item id,
// set, judge, dimension, status, reason, raw reply) and the score as a code
// into a table of the distinct values it has seen (scores are few: 0–10 in
// tenths, or LLM judges' whole numbers), the repeat and row as numbers;
// each column in the narrowest integer width that holds every value so far.
// A judgement of the offline judges costs about 12 bytes here against 136
// for a Judgement value (2.4 million of them at 100,000 questions: 326 MB
// as a slice); a column whose values are all zero (the row of a judgement
// the engine made, the reason of an ok one) costs nothing.
//
// It behaves as the []Judgement it replaces did: judgements stay in the
// order they were added, duplicates included, and At gives back every
// field exactly as it was added. The zero value is an empty store. Like a
// slice, a copy shares its columns: Clone it before adding to two copies.
// It is not safe for concurrent writes; concurrent reads are safe.
type Scores struct {
	n       int
	reserve int // capacity asked for by Grow, for columns made later
	item    column
	set     column
	judge   column
	dim     column
	status  column
	reason  column
	raw     column
	repeat  column
	row     column
	score   column
	items   table[string]
	sets    table[string]
	judges  table[string]
	dims    table[string]
	stats   table[string]
	reasons table[string]
	raws    table[string]
	scores  table[uint64] // a score's bits: -0 and every NaN stay what they were
}

// ScoresOf returns a store holding js in order.
func ScoresOf(js ...Judgement) Scores {
	var s Scores
	s.Grow(len(js))
	for _, j := range js {
		s.Add(j)
	}
	return s
}

// Len is the number of judgements.
func (s *Scores) Len() int { return s.n }

// Grow makes room for n more judgements, so that adding them copies no
// column.
func (s *Scores) Grow(n int) {
	if n <= 0 {
		return
	}
	s.reserve = max(s.reserve, s.n+n)
	for _, c := range s.columns() {
		c.grow(s.reserve)
	}
}

// Add appends a judgement.
func (s *Scores) Add(j Judgement) {
	s.n++
	s.put(s.n-1, j)
}

// Extend appends n zero judgements (every field empty or 0), to be filled
// by Set.
func (s *Scores) Extend(n int) {
	if n <= 0 {
		return
	}
	s.Grow(n)
	s.n += n
	for _, c := range s.columns() {
		c.resize(s.n)
	}
}

// Set replaces judgement i.
func (s *Scores) Set(i int, j Judgement) {
	if i < 0 || i >= s.n {
		panic("dataset: Scores.Set index out of range")
	}
	s.put(i, j)
}

func (s *Scores) put(i int, j Judgement) {
	s.item.put(i, s.n, s.reserve, int64(s.items.code(j.ItemID)))
	s.set.put(i, s.n, s.reserve, int64(s.sets.code(j.Set)))
	s.judge.put(i, s.n, s.reserve, int64(s.judges.code(j.Judge)))
	s.dim.put(i, s.n, s.reserve, int64(s.dims.code(j.Dimension)))
	s.status.put(i, s.n, s.reserve, int64(s.stats.code(j.Status)))
	s.reason.put(i, s.n, s.reserve, int64(s.reasons.code(j.Reason)))
	s.raw.put(i, s.n, s.reserve, int64(s.raws.code(j.Raw)))
	s.repeat.put(i, s.n, s.reserve, int64(j.Repeat))
	s.row.put(i, s.n, s.reserve, int64(j.Row))
	s.score.put(i, s.n, s.reserve, int64(s.scores.code(math.Float64bits(j.Score))))
}

// At returns judgement i.
func (s *Scores) At(i int) Judgement {
	if i < 0 || i >= s.n {
		panic("dataset: Scores.At index out of range")
	}
	j := Judgement{
		ItemID:    s.items.text(s.item.get(i)),
		Set:       s.sets.text(s.set.get(i)),
		Judge:     s.judges.text(s.judge.get(i)),
		Dimension: s.dims.text(s.dim.get(i)),
		Status:    s.stats.text(s.status.get(i)),
		Reason:    s.reasons.text(s.reason.get(i)),
		Raw:       s.raws.text(s.raw.get(i)),
		Repeat:    int(s.repeat.get(i)),
		Row:       int(s.row.get(i)),
		Score:     math.Float64frombits(s.scores.text(s.score.get(i))),
	}
	return j
}

// All yields each judgement with its index, in order.
func (s *Scores) All() iter.Seq2[int, Judgement] {
	return func(yield func(int, Judgement) bool) {
		for i := range s.n {
			if !yield(i, s.At(i)) {
				return
			}
		}
	}
}

// Values yields each judgement in order.
func (s *Scores) Values() iter.Seq[Judgement] {
	return func(yield func(Judgement) bool) {
		for i := range s.n {
			if !yield(s.At(i)) {
				return
			}
		}
	}
}

// String prints the judgements as fmt prints a []Judgement.
func (s Scores) String() string { return fmt.Sprint(slices.Collect(s.Values())) }

// Truncate keeps the first n judgements.
func (s *Scores) Truncate(n int) {
	if n < 0 || n > s.n {
		panic("dataset: Scores.Truncate out of range")
	}
	s.n = n
	for _, c := range s.columns() {
		c.resize(n)
	}
}

// DeleteFunc removes the judgements del reports true for, keeping the
// order of the rest.
func (s *Scores) DeleteFunc(del func(Judgement) bool) {
	w := 0
	for i := range s.n {
		if del(s.At(i)) {
			continue
		}
		if w != i {
			for _, c := range s.columns() {
				c.move(w, i)
			}
		}
		w++
	}
	s.Truncate(w)
}

// SortByJudge orders the judgements by judge name, keeping the order of
// each judge's judgements (a stable sort, in linear time).
func (s *Scores) SortByJudge() {
	if s.n < 2 {
		return
	}
	// Rank each judge code by its name; codes of one name share a rank.
	codes := s.judges.len() + 1
	byName := make([]int, codes)
	for c := range byName {
		byName[c] = c
	}
	slices.SortStableFunc(byName, func(a, b int) int {
		x, y := s.judges.text(int64(a)), s.judges.text(int64(b))
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	rank := make([]int, codes)
	for k, c := range byName {
		if k > 0 && s.judges.text(int64(c)) == s.judges.text(int64(byName[k-1])) {
			rank[c] = rank[byName[k-1]]
		} else {
			rank[c] = k
		}
	}
	// Counting sort: start of each rank, then each judgement's new place.
	start := make([]int, codes+1)
	for i := range s.n {
		start[rank[s.judge.get(i)]+1]++
	}
	sorted := true
	for i := 1; i < s.n && sorted; i++ {
		sorted = rank[s.judge.get(i-1)] <= rank[s.judge.get(i)]
	}
	if sorted {
		return
	}
	for r := 1; r <= codes; r++ {
		start[r] += start[r-1]
	}
	to := make([]int32, s.n)
	for i := range s.n {
		r := rank[s.judge.get(i)]
		to[i] = int32(start[r])
		start[r]++
	}
	for _, c := range s.columns() {
		c.permute(to)
	}
}

// Clone returns a copy that shares nothing with s.
func (s *Scores) Clone() Scores {
	c := Scores{n: s.n, scores: s.scores.clone()}
	cc, sc := c.columns(), s.columns()
	for k := range sc {
		*cc[k] = sc[k].clone()
	}
	ct, st := c.tables(), s.tables()
	for k := range st {
		*ct[k] = st[k].clone()
	}
	return c
}

func (s *Scores) columns() []*column {
	return []*column{&s.item, &s.set, &s.judge, &s.dim, &s.status, &s.reason, &s.raw, &s.repeat, &s.row, &s.score}
}

func (s *Scores) tables() []*table[string] {
	return []*table[string]{&s.items, &s.sets, &s.judges, &s.dims, &s.stats, &s.reasons, &s.raws}
}

// tableMapLimit bounds a table's index: past it, the index starts again
// empty and a value already seen may get a second code. Values that repeat
// (ids, notes of the offline judges, scores) stay below it; LLM replies,
// all different, would otherwise keep a map entry each for nothing.
const tableMapLimit = 1 << 17

// table is the distinct values of one field. Code 0 is the zero value
// ("", the bits of +0), code k is texts[k-1].
type table[V comparable] struct {
	texts []V
	index map[V]uint32
	last  uint32 // the code given last: judgements added in a row share most values
}

func (t *table[V]) len() int { return len(t.texts) }

func (t *table[V]) text(code int64) V {
	if code == 0 {
		var zero V
		return zero
	}
	return t.texts[code-1]
}

func (t *table[V]) code(s V) uint32 {
	var zero V
	if s == zero {
		return 0
	}
	if c := t.last; c != 0 && int(c) <= len(t.texts) && t.texts[c-1] == s {
		return c
	}
	// A copy of the store shares the index: a code is taken only when it
	// names this text in this copy's texts.
	if c, ok := t.index[s]; ok && int(c) <= len(t.texts) && t.texts[c-1] == s {
		t.last = c
		return c
	}
	if t.index == nil {
		t.index = map[V]uint32{}
	} else if len(t.index) >= tableMapLimit {
		clear(t.index)
	}
	if len(t.texts) == math.MaxUint32-1 {
		panic("dataset: Scores: too many distinct texts")
	}
	t.texts = append(t.texts, s)
	c := uint32(len(t.texts))
	t.index[s] = c
	t.last = c
	return c
}

func (t table[V]) clone() table[V] {
	return table[V]{texts: slices.Clone(t.texts), index: maps.Clone(t.index), last: t.last}
}

// column holds integers in the narrowest width that has held every value
// so far: one of its slices is in use, or none while every value is 0.
type column struct {
	u8  []uint8
	u16 []uint16
	u32 []uint32
	i64 []int64
}

func (c *column) get(i int) int64 {
	switch {
	case c.u8 != nil:
		return int64(c.u8[i])
	case c.u16 != nil:
		return int64(c.u16[i])
	case c.u32 != nil:
		return int64(c.u32[i])
	case c.i64 != nil:
		return c.i64[i]
	}
	return 0
}

// width is the bytes a value needs: 1, 2, 4 or 8.
func width(v int64) int {
	switch {
	case v >= 0 && v <= math.MaxUint8:
		return 1
	case v >= 0 && v <= math.MaxUint16:
		return 2
	case v >= 0 && v <= math.MaxUint32:
		return 4
	}
	return 8
}

func (c *column) width() int {
	switch {
	case c.u8 != nil:
		return 1
	case c.u16 != nil:
		return 2
	case c.u32 != nil:
		return 4
	case c.i64 != nil:
		return 8
	}
	return 0
}

func (c *column) length() int {
	switch {
	case c.u8 != nil:
		return len(c.u8)
	case c.u16 != nil:
		return len(c.u16)
	case c.u32 != nil:
		return len(c.u32)
	}
	return len(c.i64)
}

// put sets value i of a column of n values (i may be n-1 of a column that
// holds n-1: the value is appended); reserve is the capacity to make a
// new column with.
func (c *column) put(i, n, reserve int, v int64) {
	w := c.width()
	if w == 0 && v == 0 {
		return
	}
	if need := width(v); need > w {
		c.widen(need, n, max(n, reserve))
	}
	c.resize(n)
	switch {
	case c.u8 != nil:
		c.u8[i] = uint8(v)
	case c.u16 != nil:
		c.u16[i] = uint16(v)
	case c.u32 != nil:
		c.u32[i] = uint32(v)
	default:
		c.i64[i] = v
	}
}

// widen moves the column to w bytes a value, with room for capacity values.
func (c *column) widen(w, n, capacity int) {
	old := *c
	m := min(old.length(), n)
	capacity = max(capacity, m, cap(old.u8), cap(old.u16), cap(old.u32))
	*c = column{}
	switch w {
	case 1:
		c.u8 = make([]uint8, m, capacity)
	case 2:
		c.u16 = make([]uint16, m, capacity)
		for i := range m {
			c.u16[i] = uint16(old.get(i))
		}
	case 4:
		c.u32 = make([]uint32, m, capacity)
		for i := range m {
			c.u32[i] = uint32(old.get(i))
		}
	default:
		c.i64 = make([]int64, m, capacity)
		for i := range m {
			c.i64[i] = old.get(i)
		}
	}
}

// resize sets the length of a column in use to n; new values are 0.
func (c *column) resize(n int) {
	switch {
	case c.u8 != nil:
		c.u8 = resized(c.u8, n)
	case c.u16 != nil:
		c.u16 = resized(c.u16, n)
	case c.u32 != nil:
		c.u32 = resized(c.u32, n)
	case c.i64 != nil:
		c.i64 = resized(c.i64, n)
	}
}

func resized[T any](s []T, n int) []T {
	if n <= len(s) {
		return s[:n]
	}
	old := len(s)
	s = slices.Grow(s, n-old)[:n]
	clear(s[old:])
	return s
}

func (c *column) grow(capacity int) {
	switch {
	case c.u8 != nil:
		c.u8 = grown(c.u8, capacity)
	case c.u16 != nil:
		c.u16 = grown(c.u16, capacity)
	case c.u32 != nil:
		c.u32 = grown(c.u32, capacity)
	case c.i64 != nil:
		c.i64 = grown(c.i64, capacity)
	}
}

// grown gives a slice in use room for capacity values; nil stays nil.
func grown[T any](s []T, capacity int) []T {
	if s == nil || capacity <= cap(s) {
		return s
	}
	return slices.Grow(s, capacity-len(s))
}

func (c *column) move(dst, src int) {
	switch {
	case c.u8 != nil:
		c.u8[dst] = c.u8[src]
	case c.u16 != nil:
		c.u16[dst] = c.u16[src]
	case c.u32 != nil:
		c.u32[dst] = c.u32[src]
	case c.i64 != nil:
		c.i64[dst] = c.i64[src]
	}
}

// permute moves value i to place to[i].
func (c *column) permute(to []int32) {
	switch {
	case c.u8 != nil:
		c.u8 = permuted(c.u8, to)
	case c.u16 != nil:
		c.u16 = permuted(c.u16, to)
	case c.u32 != nil:
		c.u32 = permuted(c.u32, to)
	case c.i64 != nil:
		c.i64 = permuted(c.i64, to)
	}
}

func permuted[T any](s []T, to []int32) []T {
	out := make([]T, len(s), cap(s))
	for i, v := range s {
		out[to[i]] = v
	}
	return out
}

func (c column) clone() column {
	return column{u8: slices.Clone(c.u8), u16: slices.Clone(c.u16), u32: slices.Clone(c.u32), i64: slices.Clone(c.i64)}
}
