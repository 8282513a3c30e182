package target

import (
	"regexp"
	"strings"

	"cubeworkbench/core/reasoning"
)

// Cleanup is how a connector turns its system's raw answer into the text a
// citizen reads, for the judges to see: the system's own marks (citation
// markers that its web page turns into links) and a model's thinking come
// out, nothing else. Each connector's registry entry owns its Cleanup, so
// the markers of one system are never cut out of another's answers.
type Cleanup struct {
	// Markers are the system's marks in an answer, each removed where it
	// stands (with one space before it, which the system put there).
	Markers []*regexp.Regexp
	// Why says where the markers come from (the file and version of the
	// system's source that writes them) or why there are none. A connector
	// cannot register without it: "none" is a finding, not a default.
	Why string
}

// Clean is s as the citizen reads it: a reasoning model's thinking
// removed, which any system may pass on in its answer (RAGFlow splits on
// </think>, Dify's LLM node keeps it with reasoning_format "tagged", MaxKB
// without "reasoning content" on) and so every connector removes it
// (core/reasoning, the forms the judges' replies are read with); then the
// connector's markers, then the surrounding space.
//
// cut says the answer ends inside the model's reasoning (an opening tag
// never closed: the system's model ran out of tokens while thinking). The
// citizen got no answer then, and what follows the tag is thinking that
// often names the right materials: judged as an answer it would score what
// nobody was told. Clean returns "" for it and the caller says why.
func (c Cleanup) Clean(s string) (clean string, cut bool) {
	s, cut = reasoning.Strip(s)
	if cut {
		return "", true
	}
	for _, m := range c.Markers {
		s = m.ReplaceAllString(s, "")
	}
	return strings.TrimSpace(s), false
}

// The markers of the systems with connectors, named so that the
// OpenAI-compatible and the generic HTTP connectors, which often front one
// of them, can own the same list.
var (
	// RAGFlow (infiniflow/ragflow nightly b1b8cd6, 2026-08): insert_citations
	// in rag/nlp/search.py appends " [ID:n]"; repair_bad_citation_formats in
	// api/db/services/dialog_service.py rewrites the model's "[ID: n]",
	// "(ID: n)" and "【ID: n】" to [ID:n] only when n is a retrieved chunk,
	// so the others reach the answer as written; use_sql's table answers
	// carry " ##n$$" in their Source column (older versions used ##n$$ for
	// every citation). A bare "[n]" is not removed: RAGFlow reads it as a
	// citation but leaves it, and in a government answer it may be text.
	ragflowMarkers = []*regexp.Regexp{
		regexp.MustCompile(`\s?[\[【(（]\s*ID\s*[:：]?\s*\d+\s*[\]】)）]`),
		regexp.MustCompile(`\s?##\d+\$\$`),
	}
	// FastGPT (labring/FastGPT 0225519b, packages/global/core/ai/llm/utils.ts
	// removeDatasetCiteText): a quote is [24-hex id](CITE), also in
	// full-width brackets and with any link in the parentheses, and the
	// prompt's literal [id](CITE) placeholder can leak through. FastGPT
	// also takes an unclosed "(" to the end of the text; here it must close
	// or end the answer with no space in it, so a cut marker never takes
	// the answer's next sentence with it.
	fastgptMarkers = []*regexp.Regexp{
		regexp.MustCompile(`[\[【][a-f0-9]{24}[\]】](?:\([^)\s]*(?:\)|$))?`),
		regexp.MustCompile(`[\[【]id[\]】]\(CITE\)`),
	}
)

// MaxKB (1Panel-dev/MaxKB, apps/application/flow/step_node/form_node/impl/
// base_form_node.py, commit 041cf090): a workflow's form node writes
// <form_rander>{"form_field_list": …}</form_rander> into the answer, a form
// the chat page draws and the citizen must fill in before the workflow
// goes on. Its JSON is not text anyone reads, and MaxKB itself removes the
// block before reusing an answer as history (ai_chat_step_node's
// _get_history_message) or reading it aloud (the chat page's
// removeFormRander); the answer is what the node wrote around it.
var maxkbMarkers = []*regexp.Regexp{
	regexp.MustCompile(`(?s)<form_rander>.*?</form_rander>`),
}

// knownMarkers are every known system's markers, for connectors that may
// front any of them.
func knownMarkers() []*regexp.Regexp {
	return append(append([]*regexp.Regexp{}, ragflowMarkers...), fastgptMarkers...)
}
