package target

import (
	"strings"

	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/text"
)

// Warning is something about the target's configuration that makes its
// answers unusable for a measure, found from the replies themselves. It is
// returned with the answer so Test connection and the first answer of a run
// can say it at once, naming the setting to change.
type Warning struct {
	Code    string    // one of the Warn* constants
	Setting text.Text // the system's setting to change, as its UI names it
	Message text.Text
}

// Warning codes.
const (
	// WarnNoReference: the reply carries no retrieved documents at all, so
	// Recall@k cannot be computed (RAGFlow quote off, Dify citations off).
	WarnNoReference = "no_reference"
)

// Error codes this package sets on *Error.
const (
	CodeLLMError = "llm_error" // the system's own LLM failed and it said so in the answer
)

// redactKey removes the connector's own key from a message (even one too
// short for the shared registry), then every secret the process knows of
// (judges' keys, URL passwords, Bearer echoes) through httpsafe.
func redactKey(s, key string) string {
	if len(key) >= 4 {
		s = strings.ReplaceAll(s, key, "***")
	}
	return httpsafe.Redact(s)
}
