package session

import "cubeworkbench/core/result"

// Ending is how a run ended: finished, cancelled by the user, or stopped
// with a reason; the window, the CLI and the run store use its words.
type Ending = result.Ending

// EndOf classifies what Evaluate returned; cancelled says the user asked
// the run to stop.
func EndOf(err error, cancelled bool) Ending { return result.EndOf(err, cancelled) }

// Run endings as the store records them.
const (
	RunFinished  = result.RunDone
	RunCancelled = result.RunInterrupted
	RunStopped   = result.RunFailed
)
