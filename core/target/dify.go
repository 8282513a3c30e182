package target

import (
	"context"
	"encoding/json"
)

// Dify asks a Dify chat app through /v1/chat-messages in blocking mode.
// Retrieved documents come from metadata.retriever_resources, present when
// the app has citations turned on.
type Dify struct {
	client
	Base string // e.g. http://host/v1
	User string
}

// Kind names the connector.
func (d *Dify) Kind() string { return "dify" }

func decodeDifyError(status int, body []byte) *Error {
	var e struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) == nil && (e.Code != "" || e.Message != "") {
		return &Error{Code: e.Code, Message: e.Message}
	}
	return &Error{Message: snippet(body)}
}

// Ask sends one question in a fresh conversation.
func (d *Dify) Ask(ctx context.Context, question string) (Answer, error) {
	payload, _ := json.Marshal(map[string]any{
		"query": question, "inputs": map[string]any{}, "response_mode": "blocking",
		"user": d.User, "conversation_id": "",
	})
	data, err := d.post(ctx, "dify", d.Base+"/chat-messages", payload, decodeDifyError)
	if err != nil {
		return Answer{}, err
	}
	var reply struct {
		Answer   string `json:"answer"`
		Metadata struct {
			Resources []struct {
				Position     int     `json:"position"`
				DocumentID   string  `json:"document_id"`
				DocumentName string  `json:"document_name"`
				Content      string  `json:"content"`
				Score        float64 `json:"score"`
			} `json:"retriever_resources"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &reply); err != nil {
		return Answer{}, &Error{Kind: "dify", Status: 200, Message: "reply: " + err.Error()}
	}
	ans := Answer{Text: cleanAnswer(reply.Answer)}
	var docs []Doc
	for _, r := range reply.Metadata.Resources {
		docs = append(docs, Doc{ID: r.DocumentID, Name: r.DocumentName, Content: r.Content, Score: r.Score})
		ans.Contexts = append(ans.Contexts, r.Content)
	}
	ans.Retrieved = dedupe(docs)
	return ans, nil
}
