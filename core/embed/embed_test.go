package embed

import (
	"context"
	"math"
	"testing"
)

func TestCosine(t *testing.T) {
	cases := []struct {
		a, b []float32
		want float64
	}{
		{[]float32{1, 0}, []float32{1, 0}, 1},
		{[]float32{1, 0}, []float32{0, 2}, 0},
		{[]float32{1, 1}, []float32{-1, -1}, -1},
		{[]float32{3, 4}, []float32{4, 3}, 24.0 / 25},
		{[]float32{0, 0}, []float32{1, 0}, 0},
		{[]float32{1}, []float32{1, 0}, 0},
	}
	for _, c := range cases {
		if got := Cosine(c.a, c.b); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("Cosine(%v,%v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestHashedNGrams(t *testing.T) {
	h := NewHashed()
	// "ab": grams a, ab, b → three ±1 entries (distinct buckets for this
	// input), each 1/√3 in magnitude after normalisation.
	s := h.Sparse("AB")
	if len(s.Index) != 3 {
		t.Fatalf("ab: %d buckets, want 3", len(s.Index))
	}
	for _, v := range s.Value {
		if math.Abs(math.Abs(float64(v))-1/math.Sqrt(3)) > 1e-6 {
			t.Errorf("value %v, want ±1/√3", v)
		}
	}
	// "aaa": grams a×3, aa×2, aaa×1 → counts 3,2,1 → norm √14.
	s = h.Sparse("aaa")
	var got []float64
	for _, v := range s.Value {
		got = append(got, math.Abs(float64(v))*math.Sqrt(14))
	}
	if len(got) != 3 {
		t.Fatalf("aaa: %d buckets, want 3", len(got))
	}
	sum := got[0] + got[1] + got[2]
	if math.Abs(sum-6) > 1e-5 {
		t.Errorf("aaa counts %v, want {3,2,1}", got)
	}
	// Case and white-space runs do not matter.
	if SparseCosine(h.Sparse("Hello   World"), h.Sparse("hello world")) < 1-1e-6 {
		t.Error("normalisation differs")
	}
	if c := SparseCosine(h.Sparse(""), h.Sparse("x")); c != 0 {
		t.Errorf("empty cosine %v", c)
	}
	// Indices strictly increasing.
	s = h.Sparse("办理护照需要什么材料 and what documents")
	for i := 1; i < len(s.Index); i++ {
		if s.Index[i] <= s.Index[i-1] {
			t.Fatal("indices not strictly increasing")
		}
	}
}

func TestHashedDenseMatchesSparse(t *testing.T) {
	h := NewHashed()
	texts := []string{"the passport office", "the passport agency", "完全无关的中文"}
	dense, err := h.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(dense[0]) != HashedDim || h.Dim() != HashedDim {
		t.Fatalf("dim %d", len(dense[0]))
	}
	sp, _ := h.EmbedSparse(context.Background(), texts)
	for i := range texts {
		for j := range texts {
			d, s := Cosine(dense[i], dense[j]), SparseCosine(sp[i], sp[j])
			if math.Abs(d-s) > 1e-6 {
				t.Errorf("(%d,%d) dense %v sparse %v", i, j, d, s)
			}
		}
	}
	if !(SparseCosine(sp[0], sp[1]) > SparseCosine(sp[0], sp[2])) {
		t.Error("similar texts not closer than unrelated ones")
	}
}
