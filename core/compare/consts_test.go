package compare

import (
	"slices"
	"testing"

	"cubeworkbench/core/cofe"
)

// The copies of CoFE-RAG's constants must stay equal to core/cofe's.
func TestCoFEConstants(t *testing.T) {
	if !slices.Equal(cofeDimensions, cofe.GenerationDimensions) || cofeCorrectness != cofe.DimCorrectness || cofePass != cofe.PassThreshold {
		t.Errorf("compare's CoFE constants %v %q %v differ from core/cofe's %v %q %v",
			cofeDimensions, cofeCorrectness, cofePass, cofe.GenerationDimensions, cofe.DimCorrectness, cofe.PassThreshold)
	}
}
