//go:build !unix

package ingest

import "os"

// processAlive reports whether a process with the id exists: on Windows
// FindProcess opens the process and fails when there is none.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
