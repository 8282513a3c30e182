package profile

import (
	"fmt"
	"strings"
)

// Reranker is the [reranker] section: the cross-encoder CoFE-RAG's
// reranking stage calls. Absent, the retrieved order is kept.
type Reranker struct {
	BaseURL   string `toml:"base_url"`
	Model     string `toml:"model,omitempty"`       // vLLM: optional; Xinference: the model UID; TEI: ignored
	APIKeyEnv string `toml:"api_key_env,omitempty"` // the variable's name, never the key
	Kind      string `toml:"kind,omitempty"`        // auto (default) | vllm | tei | xinference
}

// rerankerKinds are the kinds rerank.New understands (rerank.Kinds; a test
// there keeps the lists equal). profile links no network code, so it keeps
// its own copy to reject a bad kind before any paid call.
var rerankerKinds = []string{"auto", "vllm", "tei", "xinference"}

// problems lists what makes the section unusable.
func (r *Reranker) problems() []string {
	if r == nil {
		return nil
	}
	var out []string
	if strings.TrimSpace(r.BaseURL) == "" {
		out = append(out, "reranker has no base_url")
	}
	if r.Kind != "" && !contains(rerankerKinds, r.Kind) {
		out = append(out, fmt.Sprintf("reranker kind %q (%s)", r.Kind, strings.Join(rerankerKinds, ", ")))
	}
	if r.Kind == "xinference" && strings.TrimSpace(r.Model) == "" {
		out = append(out, "reranker kind xinference needs model (the model UID)")
	}
	if strings.Contains(strings.ToLower(r.APIKeyEnv), "sk-") {
		out = append(out, "reranker: api_key_env must name an environment variable, not hold a key")
	}
	return out
}

// RerankerKinds returns the kinds a [reranker] section may name.
func RerankerKinds() []string { return append([]string(nil), rerankerKinds...) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
