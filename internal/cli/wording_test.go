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

// TestDemoChineseNamesJudges: the Chinese demo names the offline judges
// as the glossary does (词汇基线评审), never by their ids, and counts 词元.
func TestDemoChineseNamesJudges(t *testing.T) {
	code, out, errOut := run(t, "demo", "--out", t.TempDir(), "--lang", "zh")
	if code != ExitOK {
		t.Fatalf("demo exit %d\n%s", code, errOut)
	}
	for _, id := range []string{"lexical", "semantic", "token"} {
		for _, line := range strings.Split(out+errOut, "\n") {
			if strings.Contains(line, id) {
				t.Errorf("%q in the Chinese demo: %q", id, line)
			}
		}
	}
	if !strings.Contains(out, glossary.Term(glossary.JudgeLexical, "zh")) {
		t.Errorf("the Chinese demo does not name %s:\n%s", glossary.Term(glossary.JudgeLexical, "zh"), out)
	}
}
