package engine

import "cubeworkbench/core/result"

// Step names, in the order an evaluation runs them (core/result's, where
// the front ends read them through core/session).
const (
	StepQuestions = result.StepQuestions
	StepCollect   = result.StepCollect
	StepBounds    = result.StepBounds
	StepJudge     = result.StepJudge
	StepMetrics   = result.StepMetrics
	StepReport    = result.StepReport
)

// Event is one progress report (result.Event).
type Event = result.Event

// Progress receives events (result.Progress). Implementations must be safe
// for concurrent use and must not block: the engine calls them from its
// workers.
type Progress = result.Progress

// ProgressFunc adapts a function to Progress.
type ProgressFunc = result.ProgressFunc

// NoProgress discards events.
var NoProgress = result.NoProgress
