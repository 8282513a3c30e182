package session

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"testing"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// The session's refusals are bilingual errors: Explain gives each front end
// one language — Chinese without English words, English without Chinese —
// and errors.Is still finds the sentinel through any wrapping.
func TestExplainRefusalsInOneLanguage(t *testing.T) {
	han := regexp.MustCompile(`\p{Han}`)
	for _, c := range []struct {
		err      error
		sentinel error
	}{
		{ErrNoBackend, ErrNoBackend},
		{ErrNoResult, ErrNoResult},
		{ErrNoGenerator, ErrNoGenerator},
		{summaryOnly("/tmp/x/SUMMARY.json"), ErrSummaryOnly},
		{fmt.Errorf("engine: %w: the ragflow target failed 5 times", result.ErrTargetDown), result.ErrTargetDown},
		{refusal("两方是同一个答案集“被测系统回答”", `both sides are the answer set "rag"`), nil},
	} {
		if c.sentinel != nil && !errors.Is(c.err, c.sentinel) {
			t.Errorf("%v: errors.Is does not find its sentinel", c.err)
		}
		st := Explain(context.Background(), c.err, "")
		zh, en := st.Text.In(text.ZH), st.Text.In(text.EN)
		if bad := glossary.UnexpectedASCII(zh, "/tmp/x/SUMMARY.json", "cubeworkbench/core/session/backend"); len(bad) > 0 || !han.MatchString(zh) {
			t.Errorf("%v: Chinese %q has English %v", c.err, zh, bad)
		}
		if han.MatchString(en) || en == "" {
			t.Errorf("%v: English %q", c.err, en)
		}
	}
}
