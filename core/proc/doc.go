// Package proc answers questions about other processes of this machine that
// the run store (whose lock a dead process may hold) and the reader (whose
// temp folders a dead process may have left) both ask.
package proc
