package engine

import (
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/secret"
)

// NewCompleter is the LLM client an endpoint gets in a run (key from the
// window, the environment or the keyring; replicas pooled), for the steps a
// session runs outside one: the test-set generator.
func NewCompleter(ep profile.Endpoint, ref secret.Ref) (llm.Completer, error) {
	return defaultCompleter(ep, ref)
}
