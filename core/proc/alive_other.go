//go:build !unix

package proc

import "os"

// Alive reports whether a process with the id exists: on Windows
// os.FindProcess opens the process and fails when there is none.
func Alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
