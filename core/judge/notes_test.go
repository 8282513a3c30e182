package judge

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"cubeworkbench/core/text"
)

// TestAppendFixed: appendFixed writes what fmt's %.0f, %.2f write, for the
// values the notes hold (cosines, shares, factors), halfway cases, signed
// zeros, huge and non-finite values.
func TestAppendFixed(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 0.005, 0.015, 0.125, 0.375, 2.675, 1.005, -0.004, -0.005, 99.5, 100, 0.999999,
		1e21, -1e-9, math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1), math.Inf(-1)}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		vals = append(vals, r.Float64(), 100*r.Float64(), float64(r.IntN(2000))/800, -r.Float64())
	}
	for _, v := range vals {
		for _, prec := range []int{0, 2} {
			if got, want := string(appendFixed(nil, v, prec)), fmt.Sprintf("%.*f", prec, v); got != want {
				t.Fatalf("appendFixed(%v, %d) = %q, fmt %q", v, prec, got, want)
			}
		}
	}
}

// TestNoteCacheStored: a note is prefix + text.Text.Stored of its two
// languages, and equal notes come back as one string.
func TestNoteCacheStored(t *testing.T) {
	var c noteCache
	for _, tc := range [][2]string{{"中", "en"}, {"", "en"}, {"中", ""}, {"", ""}, {"a | b", "c"}} {
		var p pair
		p.set(tc[0], tc[1])
		if got, want := c.stored("semantic ", &p), "semantic "+text.New(tc[0], tc[1]).Stored(); got != want {
			t.Fatalf("stored(%q) = %q, want %q", tc, got, want)
		}
	}
	var p pair
	p.set("相关性", "relevance")
	a, b := c.stored("x ", &p), c.stored("x ", &p)
	if a != b || len(c.seen) != 6 {
		t.Fatalf("a note seen before is made again: %d notes kept", len(c.seen))
	}
	if n := testing.AllocsPerRun(100, func() { c.stored("x ", &p) }); n != 0 {
		t.Fatalf("a note seen before costs %v allocations", n)
	}
}
