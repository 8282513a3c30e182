package llm

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

// The sentinels that carried both languages in one string are text.Errors
// (issue 21): each front end shows one language, errors.Is still finds
// them through wrapping, and their message is the string problems stored
// before (the engine's stall note looks for it in stored reasons).
func TestBilingualSentinels(t *testing.T) {
	cases := []struct {
		err    error
		stored string
		zh, en string
	}{
		{ErrStalled, "llm: 回复中途停止，长时间没有再收到数据 / the reply stopped coming (no bytes)",
			"回复中途停止", "the reply stopped coming"},
		{ErrGaveUp, "llm: 请求总时长超过上限，已放弃 / gave up: the request took longer than its total time limit",
			"请求总时长超过上限", "gave up: the request took"},
		{ErrReplyTooLarge, "llm: 回复超过大小上限，已停止读取 / reply larger than the size limit, reading stopped",
			"回复超过大小上限", "reply larger than the size limit"},
	}
	for _, c := range cases {
		if c.err.Error() != c.stored {
			t.Errorf("message %q, want the stored %q", c.err.Error(), c.stored)
		}
		wrapped := fmt.Errorf("%w for 30s", c.err)
		if !errors.Is(wrapped, c.err) {
			t.Errorf("%v: errors.Is lost it through a wrap", c.err)
		}
		var te *text.Error
		if !errors.As(wrapped, &te) {
			t.Fatalf("%v is not a text.Error", c.err)
		}
		zh, en := text.Of(wrapped).In(text.ZH), text.Of(wrapped).In(text.EN)
		if !strings.Contains(zh, c.zh) || strings.Contains(zh, c.en) || !strings.Contains(en, c.en) || strings.Contains(en, c.zh) {
			t.Errorf("one language each: zh %q, en %q", zh, en)
		}
		if Hint(wrapped).IsZero() {
			t.Errorf("%v: no hint", c.err)
		}
	}
}
