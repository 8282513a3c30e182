package session

import "cubeworkbench/core/engine"

// Ending is how a run ended: finished, cancelled by the user, or stopped
// with a reason; the window, the CLI and the run store use its words.
type Ending = engine.Ending

// EndOf classifies what Evaluate returned; cancelled says the user asked
// the run to stop.
func EndOf(err error, cancelled bool) Ending { return engine.EndOf(err, cancelled) }

// Run endings as the store records them.
const (
	RunFinished  = "done"
	RunCancelled = "interrupted"
	RunStopped   = "failed"
)
