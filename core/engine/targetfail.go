package engine

import (
	"fmt"

	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// TargetFailShare is the share of questions the system under test must fail
// for the verdict to be undetermined: from half on, the answers that came
// back are too few, and too chosen by the failure, to stand for the system.
const TargetFailShare = 0.5

// ErrTargetDown marks a run stopped because the system under test failed
// question after question without one answer (the breaker); it wraps
// ErrEndpointDown too. The verdict is undetermined, as in targetFailed.
var ErrTargetDown = result.ErrTargetDown

// targetTally counts what the system under test did with the questions it
// was responsible for in this run.
type targetTally struct {
	total  int    // questions the target answers (asked now, or answered before)
	failed int    // of which it failed this run
	first  string // the first failure, as the connector reported it (keys redacted)
}

// targetFailed is why the verdict is undetermined when the system under
// test failed at least TargetFailShare of its questions, quoting the first
// failure; ok is false otherwise. It is one of several reasons a verdict
// is undetermined, each its own function.
func targetFailed(t targetTally) (result.Reason, bool) {
	if t.total == 0 || t.failed == 0 || float64(t.failed) < TargetFailShare*float64(t.total) {
		return result.Reason{}, false
	}
	quote := []rune(t.first)
	if len(quote) > 80 {
		// The verdict is one line in the window: the quote is cut there,
		// and whole in the detail and the warning.
		quote = append(quote[:80], '…')
	}
	return result.Reason{Code: result.WarnTargetFailed,
		Text: text.New(fmt.Sprintf("被测系统 %d 个问题中有 %d 个没有回答（%s）", t.total, t.failed, string(quote)),
			fmt.Sprintf("the system under test failed %d of its %d questions (%s)", t.failed, t.total, string(quote))),
		Detail: text.New(fmt.Sprintf("被测系统在 %d 个问题中有 %d 个没有回答，剩下的回答不足以代表它。第一个失败：%s。请先排除这个故障（密钥、地址或被测系统自身的模型），再次评估只会重问失败的问题。", t.total, t.failed, t.first),
			fmt.Sprintf("The system under test failed %d of its %d questions; the answers left cannot stand for it. First failure: %s. Fix it first (key, address, or the system's own model); evaluating again asks only the failed questions.", t.failed, t.total, t.first)),
	}, true
}

// applyTargetFailed overrules the verdict when the system under test failed
// most questions, says so among the warnings, and leaves Recall@k and CuBE
// null when it answered none (no retrieval was read: not 0).
func (r *runner) applyTargetFailed(sum *result.Summary) {
	r.mu.Lock()
	t := r.target
	r.mu.Unlock()
	why, ok := targetFailed(t)
	if !ok {
		return
	}
	sum.Verdict.Undetermine(why)
	if t.failed == t.total && sum.Result != nil {
		withoutRecall(sum.Result)
	}
	sum.Warnings = append(sum.Warnings, result.Warning{Source: "target", Code: result.WarnTargetFailed, Text: why.Detail})
}
