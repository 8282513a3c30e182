package session

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// StopKind says why an evaluation, comparison or export ended without a
// result; the CLI maps it to its exit code, the window to its status line.
type StopKind string

// The kinds of stop.
const (
	StopInterrupted StopKind = "interrupted" // cancelled (Ctrl-C, the window's Cancel)
	StopBudget      StopKind = "budget"      // the profile's cost budget is used up
	StopOffline     StopKind = "offline"     // an offline run needs a call the run store cannot answer
	StopFailed      StopKind = "failed"      // anything else
	// StopTargetFailed: the system under test failed question after
	// question without one answer; no verdict (the CLI exits 4).
	StopTargetFailed StopKind = "target_failed"
)

// Stop is why a run ended, in the words both front ends show.
type Stop struct {
	Kind StopKind
	Text text.Text
	// Resumable says everything finished is in the run store and running
	// the same evaluation again goes on from there.
	Resumable bool
}

// Explain turns the error of Evaluate, CompareSets, CompareWith,
// CompareWorkbooks or BatchExport into a plain message in both languages:
// the one explainer of both front ends, so the window and the CLI say the
// same thing. ctx is the run's context (a cancelled one is an
// interruption whatever the error says); storePath is the run store named
// in the message ("" leaves it out).
func Explain(ctx context.Context, err error, storePath string) Stop {
	where := text.Text{ZH: "运行记录库中", EN: "the run store"}
	if storePath != "" {
		where = text.Text{ZH: "运行记录库 " + storePath + " 中", EN: "the run store " + storePath}
	}
	switch {
	case err == nil:
		return Stop{}
	case errors.Is(err, context.Canceled) || ctx != nil && ctx.Err() != nil:
		return Stop{Kind: StopInterrupted, Resumable: true, Text: text.New(
			"已取消（用户取消）。已完成的结果都保存在"+where.ZH+"；再次运行同一评估即可继续。",
			"Cancelled by the user. Everything finished is in "+where.EN+"; run the same evaluation again to resume.")}
	case errors.Is(err, result.ErrBudget):
		return Stop{Kind: StopBudget, Resumable: true, Text: text.New(
			"已达到费用预算而停止。已完成的结果都保存在"+where.ZH+"；请提高配置中的费用预算后再次运行同一评估即可继续。",
			"Stopped at the cost budget. Everything finished is in "+where.EN+"; raise the budget in the profile and run the same evaluation again to resume.")}
	case errors.Is(err, result.ErrOffline):
		what := offlineDetail(err)
		return Stop{Kind: StopOffline, Text: text.New(
			fmt.Sprintf("离线运行：这一步需要调用接口（%s），而运行记录库中没有相应结果。请允许联网调用、导入批量结果，或在工作簿中补齐。", what),
			fmt.Sprintf("Offline: this step needs endpoint calls (%s) that the run store cannot answer. Allow network calls, import a batch result, or fill the workbook.", what))}
	}
	if errors.Is(err, result.ErrTargetDown) {
		t := text.Of(err)
		if last := lastFailure(err); last != "" { // the endpoint's own words
			t = text.New(t.ZH+"\n最后一次失败："+last, t.EN+"\nLast failure: "+last)
		}
		return Stop{Kind: StopTargetFailed, Text: withHint(t, err)}
	}
	var ce *compare.Error
	if errors.As(err, &ce) {
		return Stop{Kind: StopFailed, Text: text.New(ce.In("zh"), ce.In("en"))}
	}
	var te *text.Error
	if errors.As(err, &te) {
		// A refusal in words of its own (the session's, a connector's …):
		// said as it is, one language per front end, with the LLM client's
		// hint when the cause has one.
		return Stop{Kind: StopFailed, Text: withHint(te.Text, err)}
	}
	// Stopped, in the words the window and the run store use (Ending),
	// then the error itself.
	end := EndOf(err, false)
	t := text.Of(err)
	t = text.New(end.Text("zh")+"\n"+t.ZH, end.Text("en")+"\n"+t.EN)
	return Stop{Kind: StopFailed, Text: withHint(t, err)}
}

// withHint is t and, on a line of its own, the LLM client's hint for err.
func withHint(t text.Text, err error) text.Text {
	if h := llm.Hint(err); !h.IsZero() {
		t = text.New(t.ZH+"\n"+h.ZH, t.EN+"\n"+h.EN)
	}
	return t
}

// refusal is an error of the session said to a person: both languages,
// which each front end shows one of (through Explain or text.Of).
func refusal(zh, en string) error { return text.NewError(text.New(zh, en), nil) }

// setName is an answer set's name as people read it in Chinese (被测系统回答
// for rag); a further system keeps its own name.
func setName(set string) string { return glossary.Name(glossary.SetID, set, text.ZH) }

// lastFailure is the system under test's last failure that the engine's
// breaker quotes ("… (last: ragflow: HTTP 401 …)"), or "".
func lastFailure(err error) string {
	msg := err.Error()
	i := strings.LastIndex(msg, "(last: ")
	if i < 0 {
		return ""
	}
	return strings.TrimSuffix(msg[i+len("(last: "):], ")")
}

// offlineDetail is what an offline refusal names after the engine's own
// sentence: "target ragflow", "judge qwen", "embedder http://…".
func offlineDetail(err error) string {
	s := strings.Replace(err.Error(), result.ErrOffline.Error(), "", 1)
	s = strings.Trim(s, " :()")
	s = strings.ReplaceAll(s, "(", "")
	s = strings.ReplaceAll(s, ")", "")
	return strings.TrimSpace(s)
}
