package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The chat body is built here rather than with go-openai's
// ChatCompletionRequest: v1.43.0 drops temperature 0 (float32 omitempty),
// has no field for DashScope's enable_thinking or DeepSeek's thinking, and
// its reply struct has no "reasoning" field (Ollama, new vLLM). A fixed
// struct also gives a byte-stable body, so one request always hashes alike.
type wireRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"` // never nil unless the model refused it: 0 must reach the server
	Seed        *int      `json:"seed,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	// MaxCompletionTokens replaces max_tokens for models that refuse it
	// (OpenAI gpt-5, o-series).
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	Stream              bool            `json:"stream"`
	ResponseFormat      *responseFormat `json:"response_format,omitempty"`

	// Thinking switches, one per provider family.
	EnableThinking     *bool          `json:"enable_thinking,omitempty"`      // DashScope, top level
	ChatTemplateKwargs map[string]any `json:"chat_template_kwargs,omitempty"` // vLLM, llama.cpp
	Thinking           *thinkingParam `json:"thinking,omitempty"`             // DeepSeek V4
	ReasoningEffort    string         `json:"reasoning_effort,omitempty"`     // Ollama ≥ 0.11
}

type responseFormat struct {
	Type string `json:"type"`
}

type thinkingParam struct {
	Type string `json:"type"`
}

// switchField names the top-level field that carries the thinking switch
// for a provider, "" when it has none.
func switchField(provider string) string {
	switch provider {
	case ProviderDashScope:
		return "enable_thinking"
	case ProviderVLLM, ProviderLlamaCpp:
		return "chat_template_kwargs"
	case ProviderDeepSeek:
		return "thinking"
	case ProviderOllama:
		return "reasoning_effort"
	}
	return ""
}

// wireOptions are the adaptations a client has learned (adapt.go).
type wireOptions struct {
	withSwitch    bool // false once the endpoint rejected the thinking switch
	maxCompletion bool // send max_completion_tokens instead of max_tokens
	noTemperature bool // leave temperature out: the model takes only its default
}

// ChatBody is the exact body a new client for ep would send for req: the
// one body builder live calls and batch files share, thinking switch
// included. A running client's Client.ChatBody adds what it has learned.
func ChatBody(ep Endpoint, req Request) ([]byte, error) {
	ep = ep.withDefaults()
	if ep.Provider == ProviderAuto {
		ep.Provider = DetectProvider(ep.BaseURL) // no network here: the port is the hint
	}
	return buildChat(ep, req, wireOptions{withSwitch: true})
}

// buildChat renders the wire body.
func buildChat(ep Endpoint, req Request, o wireOptions) ([]byte, error) {
	temp := req.Temperature
	w := wireRequest{
		Model:       ep.Model,
		Messages:    req.Messages,
		Temperature: &temp,
		Seed:        req.Seed,
		MaxTokens:   req.MaxTokens,
	}
	if o.noTemperature {
		w.Temperature = nil
	}
	if o.maxCompletion {
		w.MaxTokens, w.MaxCompletionTokens = 0, req.MaxTokens
	}
	if req.JSON {
		w.ResponseFormat = &responseFormat{Type: "json_object"}
	}
	if o.withSwitch && ep.thinkingOff() {
		switch ep.Provider {
		case ProviderDashScope:
			f := false
			w.EnableThinking = &f
		case ProviderVLLM, ProviderLlamaCpp:
			w.ChatTemplateKwargs = map[string]any{"enable_thinking": false}
		case ProviderDeepSeek:
			w.Thinking = &thinkingParam{Type: "disabled"}
		case ProviderOllama:
			// Accepted since Ollama 0.11 ("none" → think=false); an older
			// server that rejects it makes the client drop the switch.
			w.ReasoningEffort = "none"
		}
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("llm: encode request: %w", err)
	}
	return b, nil
}

type wireReply struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content          *string `json:"content"`
			Reasoning        string  `json:"reasoning"`
			ReasoningContent string  `json:"reasoning_content"`
			Thinking         string  `json:"thinking"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *Usage          `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// errMalformed marks a body that is not the JSON it should be; the caller
// retries it a limited number of times.
var errMalformed = errors.New("malformed reply")

// decodeChat turns a 200 body into a Reply. The returned error is
// errMalformed (wrapped), an *APIError carried in a 200, ErrEmptyReply or
// ErrTruncated; with the last two the Reply is still filled in.
func decodeChat(body []byte) (Reply, error) {
	var w wireReply
	if err := json.Unmarshal(body, &w); err != nil {
		return Reply{}, fmt.Errorf("%w: %v", errMalformed, err)
	}
	if len(w.Choices) == 0 {
		if len(w.Error) > 0 && string(w.Error) != "null" {
			return Reply{}, parseAPIError(200, body)
		}
		return Reply{Model: w.Model}, ErrEmptyReply
	}
	c := w.Choices[0]
	r := Reply{Model: w.Model, FinishReason: c.FinishReason}
	if w.Usage != nil {
		r.Usage = *w.Usage
	}
	if c.Message.Content != nil {
		r.Raw = *c.Message.Content
	}
	var inline string
	r.Content, inline = StripThink(r.Raw)
	r.Reasoning = firstNonEmpty(c.Message.Reasoning, c.Message.ReasoningContent, c.Message.Thinking, inline)
	switch {
	case c.FinishReason == "length":
		return r, ErrTruncated
	case c.FinishReason != "" && c.FinishReason != "stop":
		return r, fmt.Errorf("%w (finish_reason %q)", ErrUnfinished, c.FinishReason)
	case r.Content == "":
		return r, ErrEmptyReply
	}
	return r, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// StripThink applies apis.md §5 rule 2 to a reply's content: every
// <think>…</think> block goes; if a </think> is left with no opening tag
// (the chat template ate it), only the text after the last one is kept; an
// opening <think> never closed (a reply cut short) drops the rest. It
// returns the answer, trimmed, and the thinking text it removed.
func StripThink(s string) (answer, thinking string) {
	const open, close = "<think>", "</think>"
	var kept, thought strings.Builder
	think := func(t string) {
		if t = strings.TrimSpace(t); t != "" {
			if thought.Len() > 0 {
				thought.WriteString("\n")
			}
			thought.WriteString(t)
		}
	}
	rest := s
	for {
		i := strings.Index(rest, open)
		if i < 0 {
			kept.WriteString(rest)
			break
		}
		j := strings.Index(rest[i+len(open):], close)
		if j < 0 {
			kept.WriteString(rest[:i])
			think(rest[i+len(open):])
			break
		}
		kept.WriteString(rest[:i])
		think(rest[i+len(open) : i+len(open)+j])
		rest = rest[i+len(open)+j+len(close):]
	}
	answer = kept.String()
	if k := strings.LastIndex(answer, close); k >= 0 {
		think(answer[:k])
		answer = answer[k+len(close):]
	}
	return strings.TrimSpace(answer), thought.String()
}

type wireEmbedRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
}

type wireEmbedReply struct {
	Data []struct {
		Index     int             `json:"index"`
		Embedding json.RawMessage `json:"embedding"`
	} `json:"data"`
	Usage *Usage          `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// DecodeChat reads a chat.completion body as the client does (reasoning kept
// apart, <think> stripped): for replies that arrive by other roads, such as
// a batch result file.
func DecodeChat(body []byte) (Reply, error) { return decodeChat(body) }
