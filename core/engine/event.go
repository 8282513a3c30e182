package engine

import "time"

// Step names, in the order an evaluation runs them.
const (
	StepQuestions = "questions" // generate questions for guides without one
	StepCollect   = "collect"   // ask the system under test
	StepBounds    = "bounds"    // zero and full answers from the generator
	StepJudge     = "judge"     // every judge, every set, every dimension
	StepMetrics   = "metrics"   // CuBE, MFSS, CoFE, baselines
	StepReport    = "report"    // the Excel report and SUMMARY.json
)

// Event is one progress report. Events are values: a consumer may keep them,
// drop them or coalesce them (the window shows about ten a second).
type Event struct {
	Step     string
	Label    string // what is being worked on, e.g. the judge's name
	Done     int
	Total    int
	Failed   int // finished without a usable result (unscorable, target errors)
	Calls    int // endpoint calls made in this step so far
	Cached   int // results served from the store without a call
	Tokens   int
	Cost     float64 // of the step's calls at the endpoint's prices, in Currency
	Currency string  // of Cost ("" = not stated)
	Unpriced bool    // the step's endpoint has no price: its cost is unknown, not Cost
	Elapsed  time.Duration
	ETA      time.Duration // 0 when unknown
	Finished bool          // the step is over
	Message  string        // a line worth showing as it is
	Detail   string        // more about the step, e.g. each replica's share
}

// Progress receives events. Implementations must be safe for concurrent use
// and must not block: the engine calls them from its workers.
type Progress interface {
	Event(Event)
}

// ProgressFunc adapts a function to Progress.
type ProgressFunc func(Event)

// Event calls f.
func (f ProgressFunc) Event(e Event) { f(e) }

// NoProgress discards events.
var NoProgress Progress = ProgressFunc(func(Event) {})
