package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ProviderAuto asks the server what it is, once per endpoint, before the
// first request (DetectServer); the port is only the last hint.
const ProviderAuto = "auto"

// ProviderGenericNamed is a plain OpenAI-compatible server said so in the
// profile: no quirks, no thinking switch, no probing.
const ProviderGenericNamed = "generic"

// Servers lists the values a profile's server setting may take.
var Servers = []string{ProviderAuto, ProviderOllama, ProviderVLLM, ProviderLlamaCpp, ProviderLMStudio,
	ProviderDeepSeek, ProviderDashScope, ProviderOpenAI, ProviderAzure, ProviderGenericNamed}

// probeTimeout bounds each question to the server: a server that does
// not answer a version route at once is not worth waiting for.
const probeTimeout = 5 * time.Second

// DetectServer recognises the server behind an OpenAI-compatible base URL.
// Hosted services are known by their host names; a local server is asked:
// Ollama answers GET /api/version (server/routes.go), vLLM GET /version
// (vllm/entrypoints/openai/api_server.py), llama.cpp GET /props with its
// default_generation_settings. When none answers, the port is the hint
// (DetectProvider).
func DetectServer(ctx context.Context, hc *http.Client, baseURL string) string {
	if p := DetectProvider(baseURL); p == ProviderDashScope || p == ProviderDeepSeek || p == ProviderAzure || p == ProviderOpenAI {
		return p
	}
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil {
		return DetectProvider(baseURL)
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/v1")
	u.RawQuery = ""
	root := strings.TrimRight(u.String(), "/")
	has := func(path, field string) bool {
		pctx, cancel := context.WithTimeout(ctx, probeTimeout)
		defer cancel()
		req, err := http.NewRequestWithContext(pctx, http.MethodGet, root+path, nil)
		if err != nil {
			return false
		}
		resp, err := hc.Do(req)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		var m map[string]json.RawMessage
		if resp.StatusCode != http.StatusOK || json.Unmarshal(data, &m) != nil {
			return false
		}
		_, ok := m[field]
		return ok
	}
	switch {
	case has("/api/version", "version"):
		return ProviderOllama
	case has("/version", "version"):
		return ProviderVLLM
	case has("/props", "default_generation_settings"):
		return ProviderLlamaCpp
	}
	return DetectProvider(baseURL)
}

// resolveProvider asks the server once, before the client's first request,
// when the profile says server = "auto".
func (c *Client) resolveProvider(ctx context.Context) {
	c.detectOnce.Do(func() {
		if c.ep.Provider == ProviderAuto {
			p := DetectServer(ctx, c.hc, c.ep.BaseURL)
			c.epMu.Lock()
			c.ep.Provider = p
			c.epMu.Unlock()
		}
	})
}
