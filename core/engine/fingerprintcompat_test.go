package engine

import (
	"testing"

	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/target"
)

// Answers stored before the connectors owned their fingerprint are still
// found: for every connector of today the fingerprint is the one issue 12
// defined, byte for byte (a change would make every resumed run ask and
// pay again).
func TestTargetFingerprintUnchanged(t *testing.T) {
	for _, kind := range target.Kinds() {
		c := profile.Target{Kind: kind, BaseURL: "https://user:pw@rag.example/api?token=s", APIKeyEnv: "RAG_KEY", ChatID: "c1",
			Model: "m", RequestTemplate: `{"q":"{{question}}"}`, AnswerPath: "a", DocsPath: "d[*]"}
		old := fingerprint("rag/1", c.Kind, httpsafe.SanitizeURL(c.BaseURL), c.ChatID, c.Model,
			c.RequestTemplate, c.AnswerPath, c.DocsPath, c.APIKeyEnv, "问题")
		if got := targetFingerprint(c, "问题"); got != old {
			t.Errorf("%s: fingerprint changed: stored answers would not be found", kind)
		}
	}
}
