package llm

import (
	"strings"
	"time"
)

// Providers the client knows the quirks of (apis.md §5). "" is a generic
// OpenAI-compatible server: nothing beyond the standard fields is sent.
const (
	ProviderGeneric   = ""
	ProviderOllama    = "ollama"
	ProviderVLLM      = "vllm"
	ProviderDeepSeek  = "deepseek"
	ProviderDashScope = "dashscope"
	ProviderLlamaCpp  = "llamacpp"
	ProviderLMStudio  = "lmstudio"
	ProviderOpenAI    = "openai"
	ProviderAzure     = "azure"
)

// Endpoint is one OpenAI-compatible model as a profile's [[judge]] or
// [generator] table describes it. Zero values take the defaults below.
type Endpoint struct {
	Name      string // shown in progress and errors; defaults to Model
	BaseURL   string // up to and including /v1, e.g. http://127.0.0.1:11434/v1
	Model     string
	APIKeyEnv string // environment variable holding the key; the key itself is never stored here

	Concurrency int           // requests in flight at once; default 4
	RPM         int           // requests per minute; 0 = unlimited
	Timeout     time.Duration // per attempt; default 120 s (large local models are slow)
	// StallTimeout aborts an attempt whose reply stops coming: no byte of
	// the body for this long after the headers (default 60 s). The wait
	// for the headers is Timeout's: a server that answers whole (stream
	// false) says nothing until it is done.
	StallTimeout time.Duration
	// TotalTimeout bounds one request, retries and waits included
	// (default DefaultTotalTimeout, or two attempts' Timeout when longer):
	// a stalling endpoint is named within minutes.
	TotalTimeout time.Duration
	MaxRetries   int           // retries after the first attempt; 0 → default 4, negative → none
	BackoffBase  time.Duration // default 0.5 s
	BackoffMax   time.Duration // default 8 s

	PriceInPerMTok  float64 // price per million prompt tokens; 0 with PriceOut 0 = unpriced
	PriceOutPerMTok float64 // price per million completion tokens
	Currency        string  // of the prices: "CNY", "USD", …; "" = not stated

	// Provider selects the quirks; auto-detected from BaseURL when empty.
	Provider string
	// DisableThinking sends the provider's switch that turns thinking off.
	// nil means true: a judge must answer, not think at length, and
	// DashScope's open qwen3 even fails without the switch.
	DisableThinking *bool

	// MaxReplyBytes caps one chat reply's body (default DefaultMaxReplyBytes);
	// a longer body is ErrReplyTooLarge, reported, not read on.
	MaxReplyBytes int64
	// AllowRedirects follows a redirect to another host (the profile's
	// allow_redirects); refused by default (httpsafe.ErrCrossHostRedirect).
	AllowRedirects bool
}

// Defaults applied by New.
const (
	DefaultConcurrency = 4
	DefaultTimeout     = 120 * time.Second
	DefaultMaxRetries  = 4
	// DefaultStallTimeout: a minute without a byte of a reply already
	// begun is a stall, not a slow model (which streams or sends nothing
	// before its headers).
	DefaultStallTimeout = 60 * time.Second
	// DefaultTotalTimeout: ten minutes for one request, retries included,
	// where five attempts of two minutes with backoff could take longer.
	DefaultTotalTimeout = 10 * time.Minute
	// Backoff after a 5xx, a timeout or a dropped connection: 0.5 s doubling
	// to at most 8 s with full jitter, openai-python's own defaults
	// (INITIAL_RETRY_DELAY, MAX_RETRY_DELAY in src/openai/_constants.py). The slot is
	// free while a call backs off, so a long wait only delays that call; but
	// the last calls of a run wait it out alone, so a longer ceiling buys
	// nothing and costs the tail. An endpoint that is down trips the
	// engine's breaker; a 429 waits its Retry-After instead.
	DefaultBackoffBase = 500 * time.Millisecond
	DefaultBackoffMax  = 8 * time.Second
	// DefaultMaxReplyBytes is 4 MiB: a judge's reply is a few kilobytes, and
	// the longest a model can write (32k tokens of reasoning at ~4 bytes a
	// token, JSON-escaped, ~0.3 MiB) still fits more than ten times over,
	// while 16 slots at the cap hold 64 MiB instead of the 1 GiB the old
	// 64 MiB cap allowed (4 GB seen with retries and decoding).
	DefaultMaxReplyBytes = 4 << 20
	// embedReplyBytes caps an embeddings batch: 32 vectors of 8,192 floats
	// as JSON text are about 6 MiB.
	embedReplyBytes = 32 << 20
)

// withDefaults fills zero fields and resolves the provider.
func (ep Endpoint) withDefaults() Endpoint {
	ep.BaseURL = strings.TrimRight(strings.TrimSpace(ep.BaseURL), "/")
	if ep.Name == "" {
		ep.Name = ep.Model
	}
	if ep.Concurrency <= 0 {
		ep.Concurrency = DefaultConcurrency
	}
	if ep.Timeout <= 0 {
		ep.Timeout = DefaultTimeout
	}
	if ep.StallTimeout <= 0 {
		ep.StallTimeout = DefaultStallTimeout
	}
	if ep.TotalTimeout <= 0 {
		ep.TotalTimeout = max(DefaultTotalTimeout, 2*ep.Timeout)
	}
	switch {
	case ep.MaxRetries == 0:
		ep.MaxRetries = DefaultMaxRetries
	case ep.MaxRetries < 0:
		ep.MaxRetries = 0
	}
	if ep.BackoffBase <= 0 {
		ep.BackoffBase = DefaultBackoffBase
	}
	if ep.BackoffMax <= 0 {
		ep.BackoffMax = DefaultBackoffMax
	}
	if ep.BackoffMax < ep.BackoffBase {
		ep.BackoffMax = ep.BackoffBase
	}
	if ep.MaxReplyBytes <= 0 {
		ep.MaxReplyBytes = DefaultMaxReplyBytes
	}
	if ep.Provider == "" {
		ep.Provider = DetectProvider(ep.BaseURL)
	}
	ep.Provider = strings.ToLower(ep.Provider)
	return ep
}

// thinkingOff reports whether the thinking switch should be sent.
func (ep Endpoint) thinkingOff() bool { return ep.DisableThinking == nil || *ep.DisableThinking }

// Priced reports whether the endpoint has prices, i.e. whether a cost of 0
// means "free" rather than "unknown".
func (ep Endpoint) Priced() bool { return ep.PriceInPerMTok > 0 || ep.PriceOutPerMTok > 0 }

// DetectProvider guesses the provider from a base URL: hosted services by
// host name, local servers by their default port. Unknown → generic.
func DetectProvider(baseURL string) string {
	u := strings.ToLower(baseURL)
	switch {
	case strings.Contains(u, "dashscope"):
		return ProviderDashScope
	case strings.Contains(u, "deepseek.com"):
		return ProviderDeepSeek
	case strings.Contains(u, ".openai.azure.com") || strings.Contains(u, ".cognitiveservices.azure.com"):
		return ProviderAzure
	case strings.Contains(u, "api.openai.com"):
		return ProviderOpenAI
	case strings.Contains(u, ":11434"):
		return ProviderOllama
	case strings.Contains(u, ":8000"):
		return ProviderVLLM
	case strings.Contains(u, ":8080"):
		return ProviderLlamaCpp
	case strings.Contains(u, ":1234"):
		return ProviderLMStudio
	}
	return ProviderGeneric
}
