//go:build !linux

package report

func cpuSeconds() (float64, bool) { return 0, false }
func resetPeakRSS() bool          { return false }
func peakRSS() (float64, bool)    { return 0, false }
