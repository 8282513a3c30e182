package result

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/text"
)

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

// The names of the two offline baseline judges (neither is an LLM).
const (
	LexicalJudge  = "lexical"  // word overlap
	SemanticJudge = "semantic" // similarity of offline hashed embeddings
)

// ErrOffline marks a step that needs the network in an offline run.
var ErrOffline = errors.New("engine: this step needs an endpoint, and the run is offline")

// ErrBudget stops a run whose cost reached the profile's budget; what was
// finished is in the store, so raising the budget resumes it.
var ErrBudget = errors.New("engine: the cost budget is used up; raise `budget` in the profile to resume")

// ErrTargetDown stops a run whose system under test failed question after
// question without one answer (the engine's breaker): the verdict is
// undetermined, as when a finished run's target failed most questions.
var ErrTargetDown error = text.NewError(text.New("无法判定：被测系统连续失败，没有回答任何问题",
	"Undetermined: the system under test failed question after question without one answer"), nil)

// Outcome is an evaluation's outcome: the workbook with everything the run
// added (answers, judgements) and the summary.
type Outcome struct {
	Workbook *dataset.Workbook
	Summary  *Summary
}

// PlanStep is one step's share of a pre-flight estimate.
type PlanStep struct {
	Step     string
	Label    string
	Calls    int
	Estimate llm.CostEstimate
}

// Preflight is the pre-flight estimate shown before a run starts: the endpoint
// calls each step will make at most (replies already in the store make
// fewer), the tokens they carry and their cost at the profile's prices.
type Preflight struct {
	Steps            []PlanStep
	Calls            int
	PromptTokens     int
	CompletionTokens int
	Cost             float64 // every priced step, whatever its currency (see CostBy)
	// Reasks are the calls within Calls that only happen when a judge's
	// reply cannot be read and is asked again.
	Reasks int
	// CostBy is the cost per currency; Unpriced names the endpoints
	// without a price, whose cost is unknown, never free.
	CostBy   map[string]float64
	Unpriced []string
}

// Describe lists the steps, e.g. "judge qwen 4,800 calls; bounds gen 240 calls".
func (p Preflight) Describe(lang text.Lang) string {
	var parts []string
	for _, s := range p.Steps {
		label := StepName(s.Step, lang)
		if s.Label != "" {
			label += " " + s.Label
		}
		parts = append(parts, fmt.Sprintf("%s %d", label, s.Calls))
	}
	return strings.Join(parts, "; ")
}

// Estimate is the sentence shown before a paid run: an upper bound, re-asks
// of unreadable replies included, and the cost in each currency or unknown.
func (p Preflight) Estimate(lang text.Lang) string {
	cost := llm.Spent(p.CostBy, p.Unpriced, lang)
	about, aboutZH := "; cost at most about ", "；费用至多约 "
	if len(p.CostBy) == 0 { // only unknown costs: no amount to be "about"
		about, aboutZH = "; cost ", "；"
	}
	if text.LangOf(string(lang)) == text.ZH {
		if cost != "" {
			cost = aboutZH + cost
		}
		return fmt.Sprintf("预计最多调用接口 %d 次（%s；其中 %d 次只在评审回复读不出分数、需要重问时发生），至多约 %d 个输入词元、%d 个输出词元%s。已保存在运行记录库中的结果不会重复调用。",
			p.Calls, p.Describe(lang), p.Reasks, p.PromptTokens, p.CompletionTokens, cost)
	}
	if cost != "" {
		cost = about + cost
	}
	return fmt.Sprintf("This run makes at most %d endpoint calls (%s; %d of them only if judges' replies cannot be read and are asked again), at most about %d prompt and %d completion tokens%s. Replies already in the run store are not requested again.",
		p.Calls, p.Describe(lang), p.Reasks, p.PromptTokens, p.CompletionTokens, cost)
}

// stepNames are the steps' names for people, as the window's labels.
var stepNames = map[string][2]string{
	StepQuestions: {"questions", "生成问题"},
	StepCollect:   {"collect answers", "收集回答"},
	StepBounds:    {"bound answers", "边界答案"},
	StepJudge:     {"judging", "评分"},
	StepMetrics:   {"metrics", "指标计算"},
	StepReport:    {"report", "报告"},
}

// StepName is a step's name in lang; the id itself for an unknown step.
func StepName(step string, lang text.Lang) string {
	n, ok := stepNames[step]
	if !ok {
		return step
	}
	return text.New(n[1], n[0]).In(lang)
}

// BatchFailure is one line of a batch result file that carried no usable reply.
type BatchFailure struct {
	Line   int
	Key    string
	Reason string
}

// BatchReport says what importing a batch result file did. Imported +
// AlreadyStored + Failed + Duplicates + Unknown + Malformed = Lines.
type BatchReport struct {
	Lines         int
	Imported      int // replies written to the store
	AlreadyStored int // replies the store already held (a re-import)
	Failed        int // lines with an error or a non-200 status or an unusable body
	Duplicates    int // a custom_id seen earlier in the same file
	Unknown       int // a custom_id this store never deferred
	Malformed     int // lines that are not JSON of the result shape
	Failures      []BatchFailure
	StillPending  []string // deferred requests that still have no reply
}

// Money is what the step's calls cost so far, in lang: the amount in its
// currency, "unknown" for an unpriced endpoint that made calls, "" when
// there is nothing to say.
func (e Event) Money(lang text.Lang) string {
	switch {
	case e.Unpriced && e.Calls > 0:
		return llm.Spent(nil, []string{e.Label}, lang)
	case e.Cost > 0:
		return llm.Money(e.Cost, e.Currency, lang)
	}
	return ""
}
