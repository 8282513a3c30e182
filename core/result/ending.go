package result

import (
	"context"
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
	// Reason says why a run stopped, bilingual; empty when it finished or
	// was cancelled.
	ReasonEN, ReasonZH string
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
	en, zh := stopReason(err)
	return Ending{Status: RunFailed, ReasonEN: en, ReasonZH: zh}
}

// stopReason names the cause of a stop in plain words; the error's own text
// follows for an unknown cause (its technical detail is left to Detail).
func stopReason(err error) (en, zh string) {
	switch {
	case errors.Is(err, ErrBudget):
		return "the cost budget is used up; raise the budget to resume",
			"费用预算已用完；提高预算后可继续"
	case errors.Is(err, ErrEndpointDown):
		return "an endpoint failed again and again without a single answer; check its address, model name and key",
			"接口连续多次失败且从未回复；请检查接口地址、模型名和密钥"
	case errors.Is(err, ErrOffline):
		return "the run is offline and a step needs an endpoint the run store cannot answer for",
			"离线运行，而某一步需要调用接口且运行库中没有相应结果"
	case errors.Is(err, context.DeadlineExceeded):
		return "the run took longer than its time limit", "运行超过了时间上限"
	case errors.Is(err, context.Canceled):
		return "the run was stopped from inside (not by the user)", "运行被内部中止（并非用户取消）"
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && len(msg)-i > 12 {
		msg = msg[i+2:]
	}
	return "an error: " + msg, "出现错误：" + msg
}

// Text is the ending in lang ("zh" or "en"): 已完成 / 已取消（用户取消） /
// 已停止：reason.
func (e Ending) Text(lang string) string {
	zh := strings.HasPrefix(lang, "zh")
	switch e.Status {
	case RunDone:
		if zh {
			return "已完成"
		}
		return "finished"
	case RunInterrupted:
		if zh {
			return "已取消（用户取消）"
		}
		return "cancelled by the user"
	}
	if zh {
		return "已停止：" + e.ReasonZH
	}
	return "stopped: " + e.ReasonEN
}

// Stored is the text the run store keeps beside the status: both
// languages, Chinese first, as the store's other messages.
func (e Ending) Stored() string {
	if e.Status != RunFailed {
		return ""
	}
	return e.Text("zh") + " / " + e.Text("en")
}
