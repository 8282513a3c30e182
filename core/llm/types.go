package llm

import "context"

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // system | user | assistant
	Content string `json:"content"`
}

// Request is one chat completion as the judge, the generator and the
// connectors ask for it. It is endpoint-neutral: the client adds the
// provider-specific fields (thinking switches, nested extra bodies).
type Request struct {
	Messages    []Message `json:"messages"`
	Temperature float64   `json:"temperature"` // always sent, 0 included (go-openai would drop 0)
	Seed        *int      `json:"seed,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	JSON        bool      `json:"json,omitempty"` // ask for a JSON object reply
}

// Usage counts tokens as the endpoint reported them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Reply is what came back. Content is choices[0].message.content; reasoning
// fields are kept apart and never parsed for a score (apis.md §5).
type Reply struct {
	Content      string `json:"content"`
	Reasoning    string `json:"reasoning,omitempty"`
	FinishReason string `json:"finish_reason,omitempty"`
	Model        string `json:"model,omitempty"`
	Usage        Usage  `json:"usage"`
	// Raw is choices[0].message.content exactly as sent, before <think>
	// stripping, kept so a parse failure can be inspected later.
	Raw string `json:"raw,omitempty"`
	// Attempts is how many HTTP requests the reply took (1 = no retry).
	Attempts int  `json:"attempts,omitempty"`
	Cached   bool `json:"-"` // served from the run store, no endpoint call
}

// Completer answers chat requests. The llm client implements it; the run
// store wraps one to make replies durable and calls unrepeatable.
type Completer interface {
	Complete(ctx context.Context, req Request) (Reply, error)
	// Model names the endpoint model, part of every request's cache key.
	Model() string
}
