package target

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"cubeworkbench/core/text"
)

func init() {
	register(Spec{
		Kind:        "maxkb",
		Label:       text.New("MaxKB 应用", "MaxKB application"),
		Placeholder: "http://127.0.0.1:8080",
		Retrieves:   true,
		Fields: []Field{
			{Key: "base_url", Label: text.New("服务地址", "Base URL"), Required: true,
				Hint: text.New("MaxKB 的访问地址（不带 /api），如 http://10.0.0.7:8080", "MaxKB's address without /api, e.g. http://10.0.0.7:8080")},
			{Key: "api_key_env", Label: text.New("应用 API Key", "Application API key"), Secret: true,
				Hint: text.New("应用“概览 → API 访问凭据 → API Key”里创建的 application- 开头的密钥", "the application-… key created under the application's Overview → API access → API Key")},
			{Key: "api_version", Label: text.New("MaxKB 版本", "MaxKB version"),
				Hint: text.New("v1 或 v2；留空时自动识别", "v1 or v2; empty: detected")},
		},
		Cleanup: Cleanup{Markers: maxkbMarkers,
			Why: "a workflow's form node writes <form_rander>{json}</form_rander> into the answer " +
				"(1Panel-dev/MaxKB 041cf090, apps/application/flow/step_node/form_node/impl/base_form_node.py); " +
				"sources come apart from the content, in the chat record's paragraph_list (v2.1.0-10-g121614fb, " +
				"v1.10.10-lts the same); its <think> block, when \"reasoning content\" is off, is removed by every connector"},
		Blame: maxkbBlame,
	}, func(c client, cfg Config) (Target, error) {
		return &MaxKB{client: c, Base: cfg.BaseURL, Version: strings.ToLower(strings.TrimSpace(cfg.APIVersion))}, nil
	})
}

// MaxKB asks a MaxKB application through its chat API, one chat per
// question, with an application key:
//
//	v1 (≤ v1.10): GET /api/application/profile (the key's application id),
//	  GET /api/application/{id}/chat/open, POST /api/application/chat_message/{chat_id},
//	  GET /api/application/{id}/chat/{chat_id}/chat_record/{record_id}
//	v2 (≥ v2.0):  GET /chat/api/open, POST /chat/api/chat_message/{chat_id},
//	  GET /chat/api/historical_conversation/{chat_id}/record/{record_id}
//
// The blocking chat_message reply (SystemToResponse.to_block_response)
// carries the answer and the record id but no paragraphs; the chat record
// does (reset_chat_record: paragraph_list from the search step or the
// search-knowledge nodes). v2 lists them only when the application shows
// its knowledge sources (ApplicationAccessToken.show_source).
type MaxKB struct {
	client
	Base    string
	Version string // "v1", "v2", or "" to detect once

	mu    sync.Mutex
	appID string // v1: the application the key belongs to
}

// Kind names the connector.
func (m *MaxKB) Kind() string { return "maxkb" }

// maxkbEnvelope is common/result Result: {"code","message","data"}. Failures
// raised in serializers come as HTTP 200 or 500 with code 500; a bad key as
// HTTP 401 with code 1002 or 1003 (AppAuthenticationFailed).
type maxkbEnvelope struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

var maxkbAuthCodes = map[int]bool{1002: true, 1003: true, 401: true, 403: true}

func decodeMaxKBError(status int, body []byte) *Error {
	var env maxkbEnvelope
	if json.Unmarshal(body, &env) == nil && (env.Code != 0 || env.Message != "") {
		// base_chat_step's failed model call: HTTP 500 whose envelope says
		// "成功" and whose data.content is 'Exception:' + str(e).
		var data struct {
			Content string `json:"content"`
		}
		if json.Unmarshal(env.Data, &data) == nil && strings.HasPrefix(strings.TrimSpace(data.Content), "Exception:") {
			return &Error{Code: CodeLLMError, Message: "MaxKB's model failed: " + snippet([]byte(data.Content))}
		}
		return &Error{Code: strconv.Itoa(env.Code), Message: env.Message, Auth: maxkbAuthCodes[env.Code]}
	}
	return &Error{Message: snippet(body)}
}

func (m *MaxKB) call(ctx context.Context, method, path string, body any) (json.RawMessage, error) {
	var data []byte
	var err error
	if method == "GET" {
		data, err = m.get(ctx, "maxkb", m.Base+path, decodeMaxKBError)
	} else {
		payload, _ := json.Marshal(body)
		data, err = m.post(ctx, "maxkb", m.Base+path, payload, decodeMaxKBError)
	}
	if err != nil {
		return nil, err
	}
	var env maxkbEnvelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, &Error{Kind: "maxkb", Status: 200, Message: "reply is not JSON: " + redactKey(snippet(data), m.key)}
	}
	if env.Code != 200 {
		return nil, &Error{Kind: "maxkb", Status: 200, Code: strconv.Itoa(env.Code), Auth: maxkbAuthCodes[env.Code],
			Message: redactKey(env.Message, m.key)}
	}
	return env.Data, nil
}

// version returns the API generation, asking the server once when the
// profile does not say: v2 answers GET /chat/api/open, v1 has no such path.
func (m *MaxKB) version(ctx context.Context) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Version == "v1" || m.Version == "v2" {
		return m.Version, nil
	}
	_, err := m.get(ctx, "maxkb", m.Base+"/chat/api/open", decodeMaxKBError)
	if te, ok := err.(*Error); ok && (te.Status == 404 || te.Status == 405) {
		m.Version = "v1"
	} else if err == nil || ok && te.Status != 0 {
		m.Version = "v2"
	} else {
		return "", err
	}
	return m.Version, nil
}

// paths are the routes of one API generation.
type maxkbPaths struct{ open, message, record string }

func (m *MaxKB) paths(ctx context.Context, v string) (maxkbPaths, error) {
	if v == "v2" {
		return maxkbPaths{"/chat/api/open", "/chat/api/chat_message/", "/chat/api/historical_conversation/%s/record/%s"}, nil
	}
	m.mu.Lock()
	id := m.appID
	m.mu.Unlock()
	if id == "" {
		data, err := m.call(ctx, "GET", "/api/application/profile", nil)
		if err != nil {
			return maxkbPaths{}, err
		}
		var p struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(data, &p) != nil || p.ID == "" {
			return maxkbPaths{}, &Error{Kind: "maxkb", Status: 200, Message: "application profile has no id: " + redactKey(snippet(data), m.key)}
		}
		id = url.PathEscape(p.ID)
		m.mu.Lock()
		m.appID = id
		m.mu.Unlock()
	}
	app := "/api/application/" + id
	return maxkbPaths{app + "/chat/open", "/api/application/chat_message/", app + "/chat/%s/chat_record/%s"}, nil
}

// maxkbParagraph is one retrieved paragraph (ParagraphPipelineModel.to_dict:
// v1 dataset_*, v2 knowledge_*).
type maxkbParagraph struct {
	ID           string  `json:"id"`
	DocumentID   string  `json:"document_id"`
	DocumentName string  `json:"document_name"`
	Title        string  `json:"title"`
	Content      string  `json:"content"`
	Similarity   float64 `json:"similarity"`
}

// Ask opens a chat, asks in it without streaming, then reads the chat
// record for the paragraphs the answer was built on.
func (m *MaxKB) Ask(ctx context.Context, question string) (Answer, error) {
	v, err := m.version(ctx)
	if err != nil {
		return Answer{}, err
	}
	p, err := m.paths(ctx, v)
	if err != nil {
		return Answer{}, err
	}
	data, err := m.call(ctx, "GET", p.open, nil)
	if err != nil {
		return Answer{}, err
	}
	var chatID string
	if json.Unmarshal(data, &chatID) != nil || chatID == "" {
		return Answer{}, &Error{Kind: "maxkb", Status: 200, Message: "chat open reply has no chat id: " + redactKey(snippet(data), m.key)}
	}
	data, err = m.call(ctx, "POST", p.message+url.PathEscape(chatID), map[string]any{"message": question, "re_chat": false, "stream": false})
	if err != nil {
		return Answer{}, err
	}
	var reply struct {
		ID      string `json:"id"`
		Content string `json:"content"`
	}
	if json.Unmarshal(data, &reply) != nil || reply.ID == "" {
		return Answer{}, &Error{Kind: "maxkb", Status: 200, Message: "chat reply has no record id: " + redactKey(snippet(data), m.key)}
	}
	// The pipeline's own model failed: base_chat_step answers
	// 'Exception:' + str(e) (HTTP 500 in the blocking case, but a proxy
	// may pass the body on).
	if strings.HasPrefix(strings.TrimSpace(reply.Content), "Exception:") {
		return Answer{}, &Error{Kind: "maxkb", Status: 200, Code: CodeLLMError, Retryable: true,
			Message: "MaxKB's model failed: " + redactKey(snippet([]byte(reply.Content)), m.key)}
	}
	ans := Answer{Text: reply.Content}
	data, err = m.call(ctx, "GET", strings.Replace(strings.Replace(p.record, "%s", url.PathEscape(chatID), 1), "%s", url.PathEscape(reply.ID), 1), nil)
	if err != nil {
		return Answer{}, err
	}
	var record struct {
		Paragraphs *[]maxkbParagraph `json:"paragraph_list"`
	}
	_ = json.Unmarshal(data, &record)
	if record.Paragraphs == nil {
		ans.Warnings = append(ans.Warnings, Warning{Code: WarnNoReference,
			Setting: text.New("应用 → 概览 → 显示设置 → 显示知识来源", "application → Overview → Display settings → Show knowledge source"),
			Message: text.New(
				"MaxKB 的对话记录里没有 paragraph_list：该应用的“显示知识来源”已关闭，API 不返回检索到的分段，无法计算指南召回率@k。请在应用概览的显示设置中打开“显示知识来源”（工作流应用还需在知识库检索节点打开“显示知识来源”）。",
				"MaxKB's chat record has no paragraph_list: the application's \"Show knowledge source\" is off, so the API returns no retrieved paragraphs and guide recall@k cannot be computed. Turn on \"Show knowledge source\" in the application's display settings (and in the knowledge search node of a workflow application).")})
		return ans, nil
	}
	var docs []Doc
	for _, pg := range *record.Paragraphs {
		docs = append(docs, Doc{ID: pg.DocumentID, Name: pg.DocumentName, Content: pg.Content, Score: pg.Similarity})
		ans.Contexts = append(ans.Contexts, pg.Content)
	}
	ans.Retrieved = dedupe(docs)
	return ans, nil
}

// maxkbBlame names the application key when MaxKB says its application is
// gone or not published (apps/chat/serializers/chat.py, 1Panel-dev/MaxKB
// v2.1.0-10-g121614fb: AppApiException(500, "Application does not exist" /
// "The application has not been published. Please use it after
// publishing."), 应用不存在 / 应用未发布 in zh_CN). The key names the
// application, so the key is the setting to change, or the application
// is to be published.
func maxkbBlame(e *Error) (string, text.Text, bool) {
	msg := strings.ToLower(e.Message)
	switch {
	case strings.Contains(msg, "not been published") || strings.Contains(e.Message, "应用未发布"):
		return "api_key_env", text.Text{
			ZH: "“应用 API Key”所属的应用尚未发布：请在 MaxKB 中发布该应用后再测试。",
			EN: "The application the Application API key belongs to is not published: publish it in MaxKB and test again."}, true
	case strings.Contains(msg, "application does not exist") || strings.Contains(e.Message, "应用不存在"):
		return "api_key_env", text.Text{
			ZH: "“应用 API Key”所属的应用已不存在：请在要评测的应用的“概览 → API 访问凭据”里新建 API Key 并填入。",
			EN: "The application the Application API key belongs to no longer exists: create a key under Overview → API access of the application to evaluate, and use that."}, true
	}
	return "", text.Text{}, false
}
