package ui

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time the calling OS thread has used. It does not
// grow while the OS has the thread descheduled, so a busy machine does not
// inflate it the way it inflates wall-clock gaps. The caller must hold its
// thread (runtime.LockOSThread) for two readings to be comparable.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
