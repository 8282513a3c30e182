package target

import (
	"context"
	"encoding/json"
	"strings"

	"cubeworkbench/core/text"
)

func init() {
	register(Spec{
		Kind:        "openai",
		Label:       text.New("OpenAI 兼容接口（仅回答）", "OpenAI-compatible endpoint (answers only)"),
		Placeholder: "http://127.0.0.1:8000/v1",
		Fields: []Field{fieldBaseURL, fieldKey,
			{Key: "model", Label: text.New("模型名称", "Model name")}},
		Cleanup: Cleanup{Markers: knownMarkers(),
			Why: "any known system's markers: an OpenAI-compatible endpoint is often a RAG system's own " +
				"(RAGFlow's /api/v1/openai/{chat_id}/chat/completions, api/apps/backward_compat.py; " +
				"FastGPT's /api/v1/chat/completions), whose answers carry that system's markers"},
		Blame: func(e *Error) (string, text.Text, bool) {
			msg := strings.ToLower(e.Message)
			ok := e.Status == 404 || strings.Contains(msg, "model") && (strings.Contains(msg, "not found") || strings.Contains(msg, "does not exist"))
			return "model", text.Text{}, ok
		},
	}, func(c client, cfg Config) (Target, error) {
		return &OpenAI{client: c, Base: cfg.BaseURL, Model: cfg.Model}, nil
	})
}

// OpenAI asks a plain OpenAI-compatible chat endpoint: an answer and no
// retrieved list, so rank and Recall@k stay unknown for these items.
type OpenAI struct {
	client
	Base  string // …/v1
	Model string
}

// Kind names the connector.
func (o *OpenAI) Kind() string { return "openai" }

func decodeOpenAIError(status int, body []byte) *Error {
	var nested struct {
		Error struct {
			Message string `json:"message"`
			Code    any    `json:"code"`
			Type    string `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &nested) == nil && nested.Error.Message != "" {
		return &Error{Code: nested.Error.Type, Message: nested.Error.Message}
	}
	return &Error{Message: snippet(body)}
}

// Ask sends the question as a single user message.
func (o *OpenAI) Ask(ctx context.Context, question string) (Answer, error) {
	model := o.Model
	if model == "" {
		model = "model"
	}
	payload, _ := json.Marshal(map[string]any{
		"model": model, "stream": false,
		"messages": []map[string]string{{"role": "user", "content": question}},
	})
	data, err := o.post(ctx, "openai", strings.TrimRight(o.Base, "/")+"/chat/completions", payload, decodeOpenAIError)
	if err != nil {
		return Answer{}, err
	}
	var reply struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &reply); err != nil || len(reply.Choices) == 0 {
		return Answer{}, &Error{Kind: "openai", Status: 200, Message: "reply has no choices: " + redactKey(snippet(data), o.key)}
	}
	return Answer{Text: reply.Choices[0].Message.Content}, nil
}
