package proc

import (
	"os"
	"os/exec"
	"testing"
)

// TestAlive: this process is alive; a child that has exited and been
// reaped is not (its id could in principle be reused at once, which a
// machine with free ids does not do).
func TestAlive(t *testing.T) {
	if !Alive(os.Getpid()) {
		t.Fatal("this process is not alive")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if Alive(cmd.Process.Pid) {
		t.Fatalf("exited child %d is alive", cmd.Process.Pid)
	}
}
