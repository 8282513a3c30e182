package target

import "cubeworkbench/core/httpsafe"

// boundKeys are the settings every stored answer has been bound to since
// issue 12, in the order the stored fingerprints use (so answers stored by
// earlier runs are still found): the kind, the base URL without secrets,
// then these config keys. The key itself is never part: a Dify app is
// known only by its key, so the name of the key's variable stands in.
var boundKeys = []string{"chat_id", "model", "request_template", "answer_path", "docs_path", "api_key_env"}

// FingerprintParts are the settings of c that decide what a target answers,
// for the run store to bind each stored answer to (core/engine hashes them
// with the question): an answer is reused only when this run would send
// the same request to the same system. They are the kind, the sanitised
// base URL and boundKeys, then every further non-empty field of the
// connector's registry entry (Spec.Fields), as "key=value": a connector that reads a
// setting declares it as a field, and so the setting is bound. A test
// changes every setting of every connector and fails when the request or
// the answer changes while these parts do not.
func FingerprintParts(c Config) []string {
	parts := []string{c.Kind, httpsafe.SanitizeURL(c.BaseURL)}
	bound := map[string]bool{"kind": true, "base_url": true}
	for _, k := range boundKeys {
		parts = append(parts, c.Get(k))
		bound[k] = true
	}
	if spec, ok := SpecOf(c.Kind); ok {
		for _, f := range spec.Fields {
			if !bound[f.Key] {
				bound[f.Key] = true
				// An empty setting adds nothing: a connector's optional
				// field left at its default keeps the fingerprint of
				// answers stored before the field existed.
				if v := c.Get(f.Key); v != "" {
					parts = append(parts, f.Key+"="+v)
				}
			}
		}
	}
	return parts
}
