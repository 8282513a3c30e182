package dataset

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// same reports whether two judgements are equal field by field, the score
// bit for bit (NaN payloads and -0 included).
func same(a, b Judgement) bool {
	sa, sb := a.Score, b.Score
	a.Score, b.Score = 0, 0
	return a == b && math.Float64bits(sa) == math.Float64bits(sb)
}

// checkScores fails unless s holds exactly want, in order, through every
// way of reading it.
func checkScores(t *testing.T, s *Scores, want []Judgement) {
	t.Helper()
	if s.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", s.Len(), len(want))
	}
	for i, w := range want {
		if got := s.At(i); !same(got, w) {
			t.Fatalf("At(%d) = %+v, want %+v", i, got, w)
		}
	}
	n := 0
	for i, j := range s.All() {
		if i != n || !same(j, want[i]) {
			t.Fatalf("All: %d %+v at step %d, want %+v", i, j, n, want[n])
		}
		n++
	}
	got := slices.Collect(s.Values())
	if len(got) != len(want) || n != len(want) {
		t.Fatalf("Values gave %d, All %d, want %d", len(got), n, len(want))
	}
	for i := range got {
		if !same(got[i], want[i]) {
			t.Fatalf("Values[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func manyItems(n int) []Judgement {
	out := make([]Judgement, n)
	for i := range out {
		out[i] = Judgement{ItemID: fmt.Sprintf("Q%d", i), Set: SetRAG, Judge: "lexical", Dimension: "relevance", Repeat: 1, Score: float64(i % 11), Status: StatusOK, Raw: "relevance: 3/5"}
	}
	return out
}

func TestScoresRoundTrip(t *testing.T) {
	nan := math.Float64frombits(0x7ff8000000000abc)
	full := Judgement{ItemID: "Q1", Set: SetZero, Judge: "qwen", Dimension: "quality", Repeat: 3, Score: 7.25,
		Raw: "评分：7.25\n理由……", Status: StatusUnscorable, Reason: "no_score", Row: 1_048_577}
	cases := []struct {
		name string
		js   []Judgement
	}{
		{"empty", nil},
		{"zero judgement", []Judgement{{}}},
		{"every field", []Judgement{full}},
		{"duplicates kept", []Judgement{full, full, {}, full}},
		{"zero after non-zero", []Judgement{full, {}, {ItemID: "Q2"}}},
		{"odd numbers", []Judgement{
			{Repeat: -1, Row: math.MinInt64, Score: math.Copysign(0, -1)},
			{Repeat: math.MaxInt64, Row: math.MaxInt32 + 1, Score: nan},
			{Repeat: 255, Row: 256, Score: math.Inf(-1)},
			{Repeat: 65536, Row: math.MaxUint32, Score: math.SmallestNonzeroFloat64},
		}},
		{"texts that differ in bytes only", []Judgement{{Raw: "a\x00"}, {Raw: "a"}, {Raw: "\xff"}, {Raw: strings.Repeat("长", 40000)}}},
		{"widening item codes", manyItems(70_000)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := ScoresOf(c.js...)
			checkScores(t, &s, c.js)
			var one Scores // the zero value, one Add at a time
			for _, j := range c.js {
				one.Add(j)
			}
			checkScores(t, &one, c.js)
		})
	}
}

func TestScoresZeroValue(t *testing.T) {
	var s Scores
	checkScores(t, &s, nil)
	s.Truncate(0)
	s.DeleteFunc(func(Judgement) bool { return true })
	s.SortByJudge()
	s.Grow(10)
	c := s.Clone()
	checkScores(t, &c, nil)
}

func TestScoresEdits(t *testing.T) {
	js := []Judgement{
		{ItemID: "Q1", Judge: "semantic", Dimension: "relevance", Score: 1, Status: StatusOK},
		{ItemID: "Q1", Judge: "lexical", Dimension: "relevance", Score: 2, Status: StatusOK},
		{ItemID: "Q2", Judge: "semantic", Dimension: "quality", Status: StatusUnscorable, Reason: "no_score", Raw: "?"},
		{ItemID: "Q2", Judge: "", Dimension: "quality", Score: 4, Row: 9},
		{ItemID: "Q3", Judge: "lexical", Repeat: 2, Score: 5, Status: StatusOK},
	}
	t.Run("truncate", func(t *testing.T) {
		s := ScoresOf(js...)
		s.Truncate(2)
		checkScores(t, &s, js[:2])
		s.Add(js[4])
		checkScores(t, &s, []Judgement{js[0], js[1], js[4]})
	})
	t.Run("delete", func(t *testing.T) {
		s := ScoresOf(js...)
		s.DeleteFunc(func(j Judgement) bool { return !j.OK() })
		checkScores(t, &s, slices.DeleteFunc(slices.Clone(js), func(j Judgement) bool { return !j.OK() }))
	})
	t.Run("sort by judge", func(t *testing.T) {
		s := ScoresOf(js...)
		s.SortByJudge()
		want := slices.Clone(js)
		slices.SortStableFunc(want, func(a, b Judgement) int { return strings.Compare(a.Judge, b.Judge) })
		checkScores(t, &s, want)
	})
	t.Run("extend and set", func(t *testing.T) {
		s := ScoresOf(js[:1]...)
		s.Extend(3)
		checkScores(t, &s, []Judgement{js[0], {}, {}, {}})
		s.Set(3, js[3])
		s.Set(1, js[2])
		checkScores(t, &s, []Judgement{js[0], js[2], {}, js[3]})
	})
	t.Run("clone shares nothing", func(t *testing.T) {
		s := ScoresOf(js...)
		c := s.Clone()
		c.Set(0, js[2])
		c.Add(Judgement{Raw: "new"})
		s.Add(Judgement{Raw: "other"})
		checkScores(t, &s, append(slices.Clone(js), Judgement{Raw: "other"}))
		checkScores(t, &c, append(append([]Judgement{js[2]}, js[1:]...), Judgement{Raw: "new"}))
	})
	t.Run("a copy that adds leaves the original's judgements alone", func(t *testing.T) {
		s := ScoresOf(js...)
		c := s // shares columns and tables, as a slice copy would
		c.Add(Judgement{ItemID: "Q9", Raw: "seen by the copy only"})
		checkScores(t, &s, js)
		s.Truncate(1)
		s.Add(Judgement{Raw: "seen by the copy only"}) // the shared index names a text s does not hold
		checkScores(t, &s, []Judgement{js[0], {Raw: "seen by the copy only"}})
	})
}

// A model of the old slice: a random sequence of edits applied to both
// must leave them equal.
func FuzzScores(f *testing.F) {
	f.Add([]byte("\x00abc\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 255, 254, 253, 1, 2, 3})
	texts := []string{"", "Q1", "Q2", "rag", "zero", "full", "lexical", "semantic", "ok", "unscorable", "评分：7", "relevance: 3/5", "a\x00", "\xff"}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Scores
		var model []Judgement
		next := func(n int) []byte {
			if len(data) < n {
				data = append(data, make([]byte, n-len(data))...)
			}
			b := data[:n]
			data = data[n:]
			return b
		}
		text := func() string {
			b := next(1)[0]
			if int(b) < len(texts) {
				return texts[b]
			}
			return fmt.Sprintf("t%d", b) // many distinct texts
		}
		for len(data) > 0 {
			op := next(1)[0] % 8
			switch {
			case op < 4: // add the commonest edit most often
				j := Judgement{ItemID: text(), Set: text(), Judge: text(), Dimension: text(), Status: text(), Reason: text(), Raw: text()}
				j.Repeat = int(int64(binary.LittleEndian.Uint64(next(8))) >> (next(1)[0] % 64))
				j.Row = int(int64(binary.LittleEndian.Uint64(next(8))) >> (next(1)[0] % 64))
				j.Score = math.Float64frombits(binary.LittleEndian.Uint64(next(8)))
				s.Add(j)
				model = append(model, j)
			case op == 4 && len(model) > 0:
				n := int(next(1)[0]) % (len(model) + 1)
				s.Truncate(n)
				model = model[:n]
			case op == 5:
				judge := text()
				s.DeleteFunc(func(j Judgement) bool { return j.Judge == judge })
				model = slices.DeleteFunc(model, func(j Judgement) bool { return j.Judge == judge })
			case op == 6:
				s.SortByJudge()
				slices.SortStableFunc(model, func(a, b Judgement) int { return strings.Compare(a.Judge, b.Judge) })
			case op == 7:
				c := s.Clone()
				s = c
			}
		}
		checkScores(t, &s, model)
	})
}

// liveBytes is the live heap after a collection.
func liveBytes() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The store must hold an offline judge's judgements in a fraction of the
// 136 bytes a Judgement takes (issue 27); measured against the slice in
// the same run.
func TestScoresBytesPerJudgement(t *testing.T) {
	const items = 20_000
	sets, dims, judges := []string{SetRAG, SetZero, SetFull}, []string{"relevance", "specificity", "completeness", "quality"}, []string{"lexical", "semantic"}
	ids := make([]string, items)
	for i := range ids {
		ids[i] = fmt.Sprintf("Q%06d", i)
	}
	each := func(f func(Judgement)) {
		for _, judge := range judges {
			for i, id := range ids {
				for _, set := range sets {
					for k, dim := range dims {
						f(Judgement{ItemID: id, Set: set, Judge: judge, Dimension: dim, Repeat: 1,
							Score: float64((i+k)%41) / 4, Status: StatusOK, Raw: fmt.Sprintf("%s: %d/%d", dim, i%7, k+3)})
					}
				}
			}
		}
	}
	n := items * len(sets) * len(dims) * len(judges)
	notes := map[string]string{} // the engine interns the notes too
	intern := func(s string) string {
		if v, ok := notes[s]; ok {
			return v
		}
		notes[s] = s
		return s
	}
	base := liveBytes()
	slice := make([]Judgement, 0, n)
	each(func(j Judgement) { j.Raw = intern(j.Raw); slice = append(slice, j) })
	withSlice := liveBytes()
	runtime.KeepAlive(slice)
	slice = nil
	base2 := liveBytes()
	var s Scores
	each(func(j Judgement) { s.Add(j) })
	withStore := liveBytes()
	perSlice := float64(withSlice-base) / float64(n)
	perStore := float64(withStore-base2) / float64(n)
	t.Logf("%d judgements: slice %.1f B each, store %.1f B each", n, perSlice, perStore)
	if perStore > 16 || perStore*8 > perSlice {
		t.Errorf("the store takes %.1f bytes a judgement (the slice %.1f); want at most 16 and an eighth of the slice", perStore, perSlice)
	}
	runtime.KeepAlive(&s)
}

func BenchmarkScores(b *testing.B) {
	js := manyItems(100_000)
	b.Run("add", func(b *testing.B) {
		for b.Loop() {
			var s Scores
			for _, j := range js {
				s.Add(j)
			}
		}
	})
	s := ScoresOf(js...)
	b.Run("values", func(b *testing.B) {
		for b.Loop() {
			n := 0
			for j := range s.Values() {
				n += j.Repeat
			}
		}
	})
}
