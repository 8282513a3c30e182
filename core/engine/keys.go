package engine

import (
	"fmt"
	"strings"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/text"
)

// checkKeys looks up every key the profile names before the first call:
// the target's, each judge's, the generator's, the embedder's and the
// reranker's. An api_key_env naming a variable that is unset, with no key
// typed in the window or kept in the keyring, stops the run here, naming
// the field — not after the target was asked every question without a key.
func (r *runner) checkKeys() error {
	if r.opt.Offline {
		return nil
	}
	p := r.opt.Profile
	var missing []string
	check := func(field string, ref secret.Ref, env string) {
		if env == "" {
			return // a local endpoint that needs no key
		}
		if _, err := endpointKey(ref, env); err != nil {
			missing = append(missing, fmt.Sprintf("%s = %q", field, env))
		}
	}
	if t := p.Target; t != nil {
		check("[target] api_key_env", secret.Target(t.Kind), t.APIKeyEnv)
	}
	if r.opt.NewCompleter == nil { // an injected completer holds its own keys
		for _, j := range p.Judges {
			if !j.Offline() && !j.Imported() {
				check("[[judge]] "+j.Name+" api_key_env", secret.Judge(j.Name), j.APIKeyEnv)
			}
		}
		if g := p.Generator; g != nil && (g.BaseURL != "" || len(g.BaseURLs) > 0) {
			check("[generator] api_key_env", secret.Generator(g.Name), g.APIKeyEnv)
		}
	}
	if e := p.Embedder; e != nil && e.BaseURL != "" && r.opt.Embedder == nil {
		check("[embedder] api_key_env", secret.Embedder(e.Name), e.APIKeyEnv)
	}
	if rr := p.Reranker; rr != nil && rr.BaseURL != "" {
		check("[reranker] api_key_env", secret.Reranker("reranker"), rr.APIKeyEnv)
	}
	if len(missing) == 0 {
		return nil
	}
	return text.NewError(text.New(
		"缺少密钥："+strings.Join(missing, "；")+" — 这些环境变量未设置，窗口中也没有输入密钥",
		"missing keys: "+strings.Join(missing, "; ")+" — these variables are unset and no key was typed in the window"),
		errNoKeys)
}

// errNoKeys is llm.ErrNoKey under the name the message leads with.
var errNoKeys = text.NewError(text.New("缺少密钥", "missing keys"), llm.ErrNoKey)
