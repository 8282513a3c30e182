package proc

import (
	"runtime"
	"testing"
)

// CPUTime grows while this process computes (on unix; 0 elsewhere).
func TestCPUTime(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		if CPUTime() != 0 {
			t.Fatal("CPUTime is not 0 where it is not read")
		}
		return
	}
	before := CPUTime()
	x := 0
	for i := 0; CPUTime() == before && i < 1e9; i++ {
		x += i
	}
	if after := CPUTime(); after <= before {
		t.Fatalf("CPU time did not grow: %v then %v (%d)", before, after, x)
	}
}
