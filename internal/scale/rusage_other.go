//go:build !linux

package scale

// Elsewhere the benchmark reports wall time and Go's own heap figures only.
func resetPeakRSS() bool   { return false }
func peakRSS() uint64      { return 0 }
func loadAverage() float64 { return -1 }
