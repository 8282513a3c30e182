package result

import (
	"context"
	"cubeworkbench/core/text"
	"errors"
	"strings"
)

// Run endings as the run store records them (core/store's RunDone,
// RunInterrupted, RunFailed hold the same words).
const (
	RunDone        = "done"
	RunInterrupted = "interrupted" // cancelled by the user
	RunFailed      = "failed"      // stopped, with a reason
)

// ErrEndpointDown stops a run whose judge or target never answers (the
// engine's breaker); what finished is kept.
var ErrEndpointDown = errors.New("engine: the endpoint does not answer; check base_url, the model name and the key")

// Ending is how a run ended, in the words the window, the CLI and the run
// store share: finished, cancelled by the user, or stopped with a reason
// (the budget, a failing endpoint, a judge that is not qualified …). A run
// that stopped is never called cancelled: only the user cancels.
type Ending struct {
	Status string // RunDone, RunInterrupted (cancelled) or RunFailed (stopped)
	// Reason says why a run stopped; empty when it finished or was
	// cancelled.
	Reason text.Text
}

// EndOf classifies a run's outcome: err is what Run returned, cancelled
// says the user asked it to stop (the run's context was cancelled by them,
// not by a deadline or the run itself).
func EndOf(err error, cancelled bool) Ending {
	switch {
	case err == nil:
		return Ending{Status: RunDone}
	case cancelled && errors.Is(err, context.Canceled):
		return Ending{Status: RunInterrupted}
	}
	return Ending{Status: RunFailed, Reason: stopReason(err)}
}

// stopReason names the cause of a stop in plain words; the error's own text
// follows for an unknown cause (its technical detail is left to Detail).
func stopReason(err error) text.Text {
	switch {
	case errors.Is(err, ErrBudget):
		return text.New("费用预算已用完；提高预算后可继续", "the cost budget is used up; raise the budget to resume")
	case errors.Is(err, ErrEndpointDown):
		return text.New("接口连续多次失败且从未回复；请检查接口地址、模型名和密钥",
			"an endpoint failed again and again without a single answer; check its address, model name and key")
	case errors.Is(err, ErrOffline):
		return text.New("离线运行，而某一步需要调用接口且运行记录库中没有相应结果",
			"the run is offline and a step needs an endpoint the run store cannot answer for")
	case errors.Is(err, context.DeadlineExceeded):
		return text.New("运行超过了时间上限", "the run took longer than its time limit")
	case errors.Is(err, context.Canceled):
		return text.New("运行被内部中止（并非用户取消）", "the run was stopped from inside (not by the user)")
	}
	msg := tail(err.Error())
	var te *text.Error
	if errors.As(err, &te) { // a message of its own in both languages
		t := text.New("出现错误："+te.ZH, "an error: "+te.EN)
		if !strings.Contains(te.Error(), msg) { // what the wrapping adds (an endpoint's reply)
			t = text.New(t.ZH+"（"+msg+"）", t.EN+" ("+msg+")")
		}
		return t
	}
	return text.New("出现错误："+msg, "an error: "+msg)
}

// tail is the last part of an error's chain, where its own detail is.
func tail(msg string) string {
	if i := strings.LastIndex(msg, ": "); i >= 0 && len(msg)-i > 12 {
		return msg[i+2:]
	}
	return msg
}

// Text is the ending in lang: 已完成 / 已取消（用户取消） / 已停止：reason.
func (e Ending) Text(lang text.Lang) string {
	switch e.Status {
	case RunDone:
		return text.New("已完成", "finished").In(lang)
	case RunInterrupted:
		return text.New("已取消（用户取消）", "cancelled by the user").In(lang)
	}
	return text.New("已停止："+e.Reason.ZH, "stopped: "+e.Reason.EN).In(lang)
}

// Stored is the text the run store keeps beside the status: both
// languages, Chinese first, as the store's other messages.
func (e Ending) Stored() string {
	if e.Status != RunFailed {
		return ""
	}
	return e.Text("zh") + " / " + e.Text("en")
}
