package target

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cubeworkbench/core/text"
)

func init() {
	register(Spec{
		Kind:        "ragflow",
		Label:       text.New("RAGFlow 聊天助理", "RAGFlow chat assistant"),
		Placeholder: "http://127.0.0.1:9380",
		Retrieves:   true,
		Fields: []Field{fieldBaseURL, fieldKey,
			{Key: "chat_id", Label: text.New("聊天助理 ID", "Chat assistant ID"), Required: true,
				Hint: text.New("RAGFlow 聊天页面地址中的 32 位 ID", "the 32-character id in the RAGFlow chat page's address")}},
		Cleanup: Cleanup{Markers: ragflowMarkers,
			Why: "RAGFlow's [ID:n] and ##n$$ citation markers (rag/nlp/search.py insert_citations, " +
				"api/db/services/dialog_service.py, infiniflow/ragflow nightly b1b8cd6)"},
		Blame: func(e *Error) (string, text.Text, bool) {
			msg := strings.ToLower(e.Message)
			ok := strings.Contains(msg, "own the assistant") || strings.Contains(msg, "own the chat") || strings.Contains(msg, "chat not found")
			return "chat_id", text.Text{}, ok
		},
		LLMFailed: text.New("系统本身的大模型调用失败（回答以 **ERROR** 开头），请检查该系统的模型设置。",
			"The system's own LLM call failed (its answer starts with **ERROR**): check the model settings inside that system."),
	}, func(c client, cfg Config) (Target, error) {
		return &RAGFlow{client: c, Base: cfg.BaseURL, ChatID: cfg.ChatID}, nil
	})
}

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

// RAGFlow's RetCode values that mean the key is missing or wrong
// (api/constants.py / common/constants.py RetCode: AUTHENTICATION_ERROR 109,
// UNAUTHORIZED 401, FORBIDDEN 403).
var ragflowAuthCodes = map[int]bool{109: true, 401: true, 403: true}

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
		return nil, &Error{Kind: "ragflow", Status: 200, Message: "reply is not JSON: " + redactKey(snippet(data), r.key)}
	}
	msg := redactKey(env.Message, r.key)
	if env.Code != 0 {
		e := &Error{Kind: "ragflow", Status: 200, Code: strconv.Itoa(env.Code), Message: msg}
		e.Auth = ragflowAuthCodes[env.Code]
		return nil, e
	}
	// token_required (api/utils/api_utils.py, ≤ v0.24) refuses a missing or
	// malformed Authorization header with code 0 and data false:
	// {"code":0,"data":false,"message":"`Authorization` can't be empty"}.
	if strings.TrimSpace(string(env.Data)) == "false" {
		return nil, &Error{Kind: "ragflow", Status: 200, Auth: true, Message: msg}
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

// ragflowErrorPrefix starts an answer RAGFlow writes when its own LLM call
// failed (rag/llm/chat_model.py ERROR_PREFIX): the reply still has code 0.
const ragflowErrorPrefix = "**ERROR**"

// Ask creates a session and asks the question in it, without streaming.
// When RAGFlow's own LLM failed (an **ERROR** answer) it asks again in a
// fresh session with backoff, like any retryable failure, and returns the
// failure only when every attempt failed.
func (r *RAGFlow) Ask(ctx context.Context, question string) (Answer, error) {
	var last error
	for attempt := 0; attempt < max(r.attempts, 1); attempt++ {
		if attempt > 0 {
			if err := r.sleep(ctx, time.Duration(1<<(attempt-1))*time.Second); err != nil {
				return Answer{}, err
			}
		}
		ans, err := r.ask(ctx, question)
		var te *Error
		if err == nil || !errors.As(err, &te) || te.Code != CodeLLMError {
			return ans, err
		}
		last = err
	}
	return Answer{}, last
}

func (r *RAGFlow) ask(ctx context.Context, question string) (Answer, error) {
	sessData, err := r.call(ctx, "/api/v1/chats/"+r.ChatID+"/sessions", map[string]string{"name": "cube-eval"})
	if err != nil {
		return Answer{}, fmt.Errorf("create session: %w", err)
	}
	var sess struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(sessData, &sess); err != nil || sess.ID == "" {
		return Answer{}, &Error{Kind: "ragflow", Status: 200, Message: "session reply has no id: " + redactKey(snippet(sessData), r.key)}
	}
	data, err := r.call(ctx, "/api/v1/chats/"+r.ChatID+"/completions",
		map[string]any{"question": question, "stream": false, "session_id": sess.ID})
	if err != nil {
		return Answer{}, err
	}
	var reply struct {
		Answer    string          `json:"answer"`
		Reference json.RawMessage `json:"reference"`
	}
	if err := json.Unmarshal(data, &reply); err != nil {
		return Answer{}, &Error{Kind: "ragflow", Status: 200, Message: "completion reply: " + err.Error()}
	}
	// The LLM behind RAGFlow failed: the answer is RAGFlow's error text
	// (alone, or after a partial answer on a line of its own:
	// chat_model.py returns ans + "\n**ERROR**: " + str(e)), not the
	// system's reply. Retryable, so a later run asks again.
	if llmFailed(reply.Answer) {
		return Answer{}, &Error{Kind: "ragflow", Status: 200, Code: CodeLLMError, Retryable: true,
			Message: "RAGFlow's LLM failed: " + redactKey(snippet([]byte(strings.TrimSpace(reply.Answer))), r.key)}
	}
	var ref struct {
		Chunks []ragflowChunk `json:"chunks"`
	}
	// structure_answer (api/db/services/conversation_service.py) turns the
	// list decorate_answer returns with quote off into {}; a list or null
	// means the same.
	_ = json.Unmarshal(reply.Reference, &ref)
	var ans Answer
	ans.Text = reply.Answer
	var docs []Doc
	for _, c := range ref.Chunks {
		// Knowledge-graph retrieval inserts a pseudo-chunk with doc_id ""
		// ("Related content in Knowledge Graph") at rank 0: not a document.
		if c.DocumentID == "" {
			continue
		}
		docs = append(docs, Doc{ID: c.DocumentID, Name: c.DocumentName, Content: c.Content, Score: c.Similarity})
		ans.Contexts = append(ans.Contexts, c.Content)
	}
	ans.Retrieved = dedupe(docs)
	if !hasChunkList(reply.Reference) {
		ans.Warnings = append(ans.Warnings, Warning{Code: WarnNoReference,
			Setting: text.New("聊天助理设置 → 显示引文（quote）", "assistant settings → Show quote (quote)"),
			Message: text.New(
				"RAGFlow 返回的 reference 为空 {}：该聊天助理的“显示引文”（quote）已关闭（或本题什么也没检索到），系统不返回检索到的文档，无法计算指南召回率@k。请在 RAGFlow 聊天助理设置中打开“显示引文”。",
				"RAGFlow returned an empty reference {}: the assistant's \"Show quote\" (quote) is off (or nothing was retrieved for this question), so no retrieved documents come back and guide recall@k cannot be computed. Turn on \"Show quote\" in the RAGFlow assistant's settings.")})
	}
	return ans, nil
}

func llmFailed(answer string) bool {
	trimmed := strings.TrimSpace(answer)
	return strings.HasPrefix(trimmed, ragflowErrorPrefix) || strings.Contains(answer, "\n"+ragflowErrorPrefix+":")
}

// hasChunkList reports whether a reference carries a chunks list (possibly
// empty: retrieval found nothing). With quote off RAGFlow sends {} instead.
func hasChunkList(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, ok := m["chunks"]
	return ok
}

func snippet(b []byte) string {
	const limit = 200
	if len(b) > limit {
		return string(b[:limit]) + "…"
	}
	return string(b)
}
