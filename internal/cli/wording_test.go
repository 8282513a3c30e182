package cli

import (
	"strings"
	"testing"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/result"
)

// TestRunLineChineseWords: the Chinese run line counts 词元 (the
// glossary's word), never "token", and has no other English word in it;
// the English one says tokens.
func TestRunLineChineseWords(t *testing.T) {
	r := result.RunInfo{ID: 3, Calls: 12, Attempts: 14, Replies: 12, Throttled: 1, Cached: 4, Failed: 1, Unscorable: 2, Tokens: 3456}
	var zh, en strings.Builder
	runLine(&zh, r, "zh")
	runLine(&en, r, "en")
	if !strings.Contains(zh.String(), "3456 个"+glossary.Term(glossary.Tokens, "zh")) {
		t.Errorf("zh: %q does not count 词元", zh.String())
	}
	if words := glossary.UnexpectedASCII(zh.String()); len(words) > 0 {
		t.Errorf("zh: %q has English %v", zh.String(), words)
	}
	if !strings.Contains(en.String(), "3456 tokens") {
		t.Errorf("en: %q", en.String())
	}
}
