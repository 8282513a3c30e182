package embed

import (
	"context"
	"math"
)

// Embedder maps texts to vectors, one per text, in order.
type Embedder interface {
	Name() string
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Cosine is the cosine similarity of two vectors of equal length. It is 0
// when either vector is zero (an empty text has no direction) or the lengths
// differ, so callers never see NaN.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb))
}
