package target

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// RAGFlow asks a RAGFlow chat assistant. One session per question, created
// first: up to v0.25 a completion without session_id blanks the question
// and returns only the greeting (apis.md §1).
type RAGFlow struct {
	client
	Base   string // e.g. http://127.0.0.1:9380
	ChatID string
}

// Kind names the connector.
func (r *RAGFlow) Kind() string { return "ragflow" }

// ragflowEnvelope is RAGFlow's {"code","message","data"}; most failures come
// with HTTP 200 and a nonzero code.
type ragflowEnvelope struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

type ragflowChunk struct {
	ID           string  `json:"id"`
	Content      string  `json:"content"`
	DocumentID   string  `json:"document_id"`
	DocumentName string  `json:"document_name"`
	Similarity   float64 `json:"similarity"`
}

func (r *RAGFlow) call(ctx context.Context, path string, body any) (json.RawMessage, error) {
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	data, err := r.post(ctx, "ragflow", r.Base+path, payload, decodeRAGFlowError)
	if err != nil {
		return nil, err
	}
	var env ragflowEnvelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, &Error{Kind: "ragflow", Status: 200, Message: "reply is not JSON: " + snippet(data)}
	}
	if env.Code != 0 {
		return nil, &Error{Kind: "ragflow", Status: 200, Code: strconv.Itoa(env.Code), Message: env.Message}
	}
	return env.Data, nil
}

func decodeRAGFlowError(status int, body []byte) *Error {
	var env ragflowEnvelope
	if json.Unmarshal(body, &env) == nil && (env.Code != 0 || env.Message != "") {
		return &Error{Code: strconv.Itoa(env.Code), Message: env.Message}
	}
	return &Error{Message: snippet(body)}
}

// Ask creates a session and asks the question in it, without streaming.
func (r *RAGFlow) Ask(ctx context.Context, question string) (Answer, error) {
	sessData, err := r.call(ctx, "/api/v1/chats/"+r.ChatID+"/sessions", map[string]string{"name": "cube-eval"})
	if err != nil {
		return Answer{}, fmt.Errorf("create session: %w", err)
	}
	var sess struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(sessData, &sess); err != nil || sess.ID == "" {
		return Answer{}, &Error{Kind: "ragflow", Status: 200, Message: "session reply has no id"}
	}
	data, err := r.call(ctx, "/api/v1/chats/"+r.ChatID+"/completions",
		map[string]any{"question": question, "stream": false, "session_id": sess.ID})
	if err != nil {
		return Answer{}, err
	}
	var reply struct {
		Answer    string `json:"answer"`
		Reference struct {
			Chunks []ragflowChunk `json:"chunks"`
		} `json:"reference"`
	}
	if err := json.Unmarshal(data, &reply); err != nil {
		return Answer{}, &Error{Kind: "ragflow", Status: 200, Message: "completion reply: " + err.Error()}
	}
	var ans Answer
	ans.Text = cleanAnswer(reply.Answer)
	var docs []Doc
	for _, c := range reply.Reference.Chunks {
		docs = append(docs, Doc{ID: c.DocumentID, Name: c.DocumentName, Content: c.Content, Score: c.Similarity})
		ans.Contexts = append(ans.Contexts, c.Content)
	}
	ans.Retrieved = dedupe(docs)
	return ans, nil
}

func snippet(b []byte) string {
	const limit = 200
	if len(b) > limit {
		return string(b[:limit]) + "…"
	}
	return string(b)
}
