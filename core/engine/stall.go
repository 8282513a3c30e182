package engine

import (
	"fmt"
	"strings"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/text"
)

// noteStall names an endpoint in the progress the first time one of its
// requests stalls or runs out of total time, so the run says which
// endpoint hangs within minutes, not in the problems at the end.
func (r *runner) noteStall(step, name string, ok bool, reason string) {
	if ok || !strings.Contains(reason, llm.ErrStalled.Error()) && !strings.Contains(reason, llm.ErrGaveUp.Error()) {
		return
	}
	if _, seen := r.stalls.LoadOrStore(name, true); seen {
		return
	}
	msg := text.New(
		fmt.Sprintf("接口 %s 卡住了：回复中途停止，或请求超过总时长上限（%s）。其余请求仍会尝试；若一直如此，请检查该服务。", name, reason),
		fmt.Sprintf("Endpoint %s stalls: a reply stopped coming, or a request ran out of its total time (%s). Its other requests are still tried; if this goes on, check that server.", name, reason))
	r.opt.Progress.Event(Event{Step: step, Label: name, Message: msg.In(r.lang)})
}
