package cube

import (
	"math"
	"slices"
	"testing"
)

func p(v float64) *float64 { return &v }

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// The paper's own numbers for Qwen2.5-32B (formulas.md §1).
func TestNormalizePaperQwen(t *testing.T) {
	dims := DefaultDimensions
	zero := []*float64{p(6.5199), p(7.8403), p(7.8932), p(7.9090)}
	full := []*float64{p(8.2753), p(8.0), p(8.0), p(8.0)}
	rag := []*float64{p(7.9509), p(8.0), p(7.9799), p(7.9471)}
	w := []float64{0.3048, 0.2486, 0.1906, 0.2560}
	nz := Normalize(dims, zero, rag, full, w)

	want := []float64{81.52, 100.00, 81.18, 41.87}
	for k := range dims {
		if nz.N[k] == nil || round2(*nz.N[k]) != want[k] {
			t.Errorf("N[%s] = %v, want %.2f", dims[k], deref(nz.N[k]), want[k])
		}
	}
	if nz.Weighted == nil || round2(*nz.Weighted) != 81.20 {
		t.Errorf("N_J = %v, want 81.20", deref(nz.Weighted))
	}
	// W(zero) = Σ w·T(zero) = 7.4655 (the SUMMARY.json example).
	if nz.WZero == nil || math.Round(*nz.WZero*1e4)/1e4 != 7.4655 {
		t.Errorf("W(zero) = %v, want 7.4655", deref(nz.WZero))
	}
	c := Cube(nz.Weighted, p(0.8041))
	if c == nil || round2(*c) != 65.29 {
		t.Errorf("CuBE = %v, want 65.29", deref(c))
	}
	// specificity sits exactly on the upper bound: 100, not "outside bounds".
	if len(nz.Flags) != 0 {
		t.Errorf("flags %v, want none", nz.Flags)
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestNormalizeDegenerate(t *testing.T) {
	dims := []string{"a", "b"}
	tests := []struct {
		name          string
		zero, rag, fu []*float64
		w             []float64
		wantN         []*float64
		wantWeighted  *float64
		wantFlags     []string
	}{
		{
			// a: 100·(7−5)/(9−5) = 50; b: 100·(3−1)/(5−1) = 50;
			// W: zero 3, rag 5, full 7 → 50.
			name: "plain", zero: []*float64{p(5), p(1)}, rag: []*float64{p(7), p(3)}, fu: []*float64{p(9), p(5)},
			w: []float64{0.5, 0.5}, wantN: []*float64{p(50), p(50)}, wantWeighted: p(50),
		},
		{
			// a: full = zero → collapse; b: 100·(4−2)/(6−2) = 50;
			// W: zero 0.5·5+0.5·2 = 3.5, rag 0.5·6+0.5·4 = 5, full 0.5·5+0.5·6 = 5.5 → 75.
			name: "collapse on one dimension", zero: []*float64{p(5), p(2)}, rag: []*float64{p(6), p(4)}, fu: []*float64{p(5), p(6)},
			w: []float64{0.5, 0.5}, wantN: []*float64{nil, p(50)}, wantWeighted: p(75),
			wantFlags: []string{"a: bounds collapse"},
		},
		{
			// full below zero: a negative denominator is a collapse too (≤ 1e-9).
			name: "inverted bounds", zero: []*float64{p(8), p(8)}, rag: []*float64{p(7), p(7)}, fu: []*float64{p(6), p(6)},
			w: []float64{0.5, 0.5}, wantN: []*float64{nil, nil}, wantWeighted: nil,
			wantFlags: []string{"a: bounds collapse", "b: bounds collapse", "weighted: bounds collapse"},
		},
		{
			// a: 100·(10−5)/(9−5) = 125 kept and flagged; b: 100·(0−1)/(5−1) = −25.
			// W: zero 3, rag 5, full 7 → 50.
			name: "outside bounds", zero: []*float64{p(5), p(1)}, rag: []*float64{p(10), p(0)}, fu: []*float64{p(9), p(5)},
			w: []float64{0.5, 0.5}, wantN: []*float64{p(125), p(-25)}, wantWeighted: p(50),
			wantFlags: []string{"a: outside bounds", "b: outside bounds"},
		},
		{
			// b has no data but weight 0: the weighted value stands on a alone.
			name: "no data, zero weight", zero: []*float64{p(5), nil}, rag: []*float64{p(7), nil}, fu: []*float64{p(9), nil},
			w: []float64{1, 0}, wantN: []*float64{p(50), nil}, wantWeighted: p(50),
			wantFlags: []string{"b: no data"},
		},
		{
			name: "no data, positive weight", zero: []*float64{p(5), nil}, rag: []*float64{p(7), nil}, fu: []*float64{p(9), nil},
			w: []float64{0.5, 0.5}, wantN: []*float64{p(50), nil}, wantWeighted: nil,
			wantFlags: []string{"b: no data", "weighted: no data"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nz := Normalize(dims, tc.zero, tc.rag, tc.fu, tc.w)
			for k := range dims {
				if !samePtr(nz.N[k], tc.wantN[k]) {
					t.Errorf("N[%s] = %v, want %v", dims[k], deref(nz.N[k]), deref(tc.wantN[k]))
				}
			}
			if !samePtr(nz.Weighted, tc.wantWeighted) {
				t.Errorf("N_J = %v, want %v", deref(nz.Weighted), deref(tc.wantWeighted))
			}
			if !slices.Equal(nz.Flags, tc.wantFlags) {
				t.Errorf("flags %q, want %q", nz.Flags, tc.wantFlags)
			}
		})
	}
}

func samePtr(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return math.Abs(*a-*b) <= 1e-9
}

func TestCube(t *testing.T) {
	if c := Cube(p(80), p(0.5)); c == nil || *c != 40 {
		t.Fatalf("Cube(80, 0.5) = %v", deref(c))
	}
	if Cube(nil, p(0.5)) != nil || Cube(p(80), nil) != nil {
		t.Fatal("Cube of an undefined input is defined")
	}
}

func TestRankOf(t *testing.T) {
	id := func(s string) string { return s }
	tests := []struct {
		name      string
		gold      string
		retrieved []string
		topN      int
		rank      int
		score     float64
	}{
		{"first of many", "d", []string{"d", "x", "y"}, 8, 1, 9},  // 8+2−1
		{"only the gold", "d", []string{"d"}, 8, 1, 10},           // 9 + 1
		{"gold repeated only", "d", []string{"d", "d"}, 8, 1, 10}, // nothing else in the list
		{"third", "d", []string{"x", "y", "d"}, 8, 3, 7},          // 8+2−3
		{"last of top 8", "d", []string{"1", "2", "3", "4", "5", "6", "7", "d"}, 8, 8, 2},
		{"beyond top N", "d", []string{"1", "2", "3", "d"}, 3, 0, 0},
		{"absent", "d", []string{"x", "y"}, 8, 0, 0},
		{"empty list", "d", nil, 8, 0, 0},
		{"blank entries ignored", "d", []string{"", "d"}, 8, 2, 9}, // 8+2−2, +1: a blank is not "something else"
		{"top 4", "d", []string{"x", "d"}, 4, 2, 4},                // 4+2−2
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, s := rankOf(tc.gold, tc.retrieved, tc.topN, id)
			if r != tc.rank || s != tc.score {
				t.Fatalf("rankOf = %d, %v; want %d, %v", r, s, tc.rank, tc.score)
			}
		})
	}
}
