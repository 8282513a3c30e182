//go:build unix

package proc

import (
	"errors"
	"syscall"
)

// Alive reports whether a process with the id exists: signal 0 checks
// existence without touching the process; EPERM means it exists but
// belongs to someone else.
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
