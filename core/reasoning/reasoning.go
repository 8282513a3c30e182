// Package reasoning removes a reasoning model's thinking from text it
// wrote: the answers of the system under test (core/target) and, in the
// same forms, the replies of the judges (core/judge reads the same tags).
// The forms are those models write into their content: DeepSeek-R1, Qwen3
// and GLM-Z1 (<think>, with attributes in some wrappers), Doubao
// (<seed:think>), Kimi (◁think▷), and the <thinking>/<reasoning> tags
// some fine-tunes write. Reasoning sent in its own field
// (reasoning_content) never reaches the content and is not this package's.
package reasoning

import "regexp"

var (
	openTag  = regexp.MustCompile(`(?i)<(?:think|seed:think|thinking|reasoning)\b[^>]*>|◁think▷`)
	closeTag = regexp.MustCompile(`(?i)</(?:think|seed:think|thinking|reasoning)>|◁/think▷`)
	block    = regexp.MustCompile(`(?is)(?:<(?:think|seed:think|thinking|reasoning)\b[^>]*>|◁think▷).*?(?:</(?:think|seed:think|thinking|reasoning)>|◁/think▷)`)
)

// Strip is s without its reasoning blocks. A closing tag without its
// opening one (a chat template that ate the opening tag) makes everything
// before the last closing tag reasoning. cut says an opening tag is never
// closed: the text was cut off inside its reasoning, and what follows the
// tag is thinking, not an answer (it is returned as it is; the caller
// decides).
func Strip(s string) (rest string, cut bool) {
	s = block.ReplaceAllString(s, "")
	if locs := closeTag.FindAllStringIndex(s, -1); len(locs) > 0 {
		s = s[locs[len(locs)-1][1]:]
	}
	return s, openTag.MatchString(s)
}
