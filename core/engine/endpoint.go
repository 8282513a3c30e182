package engine

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/text"
)

// LLMEndpoint is the one conversion from a profile endpoint to the LLM
// client's, for one of its base URLs under the given name: the engine's
// live clients and core/batch's export both use it, so a batch file's
// body is exactly what a live call would send (provider, thinking switch,
// reply cap and redirects resolved the same way).
func LLMEndpoint(ep profile.Endpoint, name, base string) llm.Endpoint {
	return llm.Endpoint{
		Name: name, BaseURL: base, Model: ep.Model, APIKeyEnv: ep.APIKeyEnv,
		Concurrency: ep.Concurrency, RPM: ep.RPM, Timeout: ep.Timeout(), MaxRetries: ep.MaxRetries,
		PriceInPerMTok: ep.PriceIn, PriceOutPerMTok: ep.PriceOut, Currency: ep.Currency,
		MaxReplyBytes: ep.MaxReplyBytes, AllowRedirects: ep.AllowRedirects,
		StallTimeout: time.Duration(ep.StallSec) * time.Second, TotalTimeout: time.Duration(ep.TotalSec) * time.Second,
		Provider: serverSetting(ep.Server),
	}
}

// serverSetting is the profile's server as the client's provider: unset is
// "auto" (the server is asked once), "generic" a plain OpenAI server.
func serverSetting(s string) string {
	if s = strings.ToLower(strings.TrimSpace(s)); s == "" {
		return llm.ProviderAuto
	}
	return s
}

// endpointKey finds the key of an endpoint in core/secret's order: typed
// in the window this session, then the environment variable api_key_env
// names, then the OS keyring. An endpoint that names no variable needs no
// key unless one was typed or stored for it (a local model): "" and no
// error. One that names a variable and has no key anywhere is an error
// before any call, naming the variable.
func endpointKey(ref secret.Ref, envVar string) (string, error) {
	key, _, err := secret.Default().Get(ref, envVar)
	switch {
	case err == nil:
		return key, nil
	case envVar == "":
		return "", nil
	case errors.Is(err, secret.ErrKeyringUnavailable), errors.Is(err, secret.ErrNoKey):
		return "", text.NewError(text.New(
			fmt.Sprintf("%s：环境变量 %s 未设置，窗口中也未输入密钥", ref, envVar),
			fmt.Sprintf("%s: the environment variable %s is empty and no key was typed in the window", ref, envVar)),
			fmt.Errorf("%w (%w)", llm.ErrNoKey, err))
	default:
		return "", err
	}
}
