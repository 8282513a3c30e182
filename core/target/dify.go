package target

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"

	"cubeworkbench/core/text"
)

func init() {
	register(Spec{
		Kind:        "dify",
		Label:       text.New("Dify 聊天应用", "Dify chat app"),
		Placeholder: "http://127.0.0.1/v1",
		Retrieves:   true,
		Fields: []Field{
			{Key: "base_url", Label: text.New("API 服务器地址", "API server"), Required: true,
				Hint: text.New("应用“访问 API”页面上的服务器地址，以 /v1 结尾", "the API server shown on the app's \"Access API\" page, ending in /v1")},
			{Key: "api_key_env", Label: text.New("应用 API 密钥", "App API key"), Secret: true,
				Hint: text.New("应用“访问 API”页面创建的 app- 开头的密钥", "the app-… key created on the app's \"Access API\" page")},
		},
		Cleanup: Cleanup{Why: "none: Dify sends its citations apart from the answer, in message_end's " +
			"metadata.retriever_resources, and writes no marker into the text (langgenius/dify 0035587f, " +
			"api/core/workflow/nodes/llm/node.py: the LLM node's only inline mark is <think>, kept with " +
			"reasoning_format \"tagged\", which every connector removes)"},
		Blame: func(e *Error) (string, text.Text, bool) {
			if e.Code != "not_chat_app" && e.Code != "app_unavailable" {
				return "", text.Text{}, false
			}
			return "api_key_env", text.Text{
				ZH: "“应用 API 密钥”属于一个不能对话或不可用的应用：请使用聊天助手、Agent 或 Chatflow 应用的密钥，并确认应用已发布。",
				EN: "The App API key belongs to an app that cannot chat or is unavailable: use the key of a chatbot, agent or chatflow app, and publish it."}, true
		},
	}, func(c client, cfg Config) (Target, error) {
		return &Dify{client: c, Base: cfg.BaseURL, User: "cube-eval"}, nil
	})
}

// Dify asks a Dify chat app through /v1/chat-messages in streaming mode:
// agent-chat apps refuse blocking mode (AgentChatAppGenerator.generate
// raises "Agent Chat App does not support blocking mode", a 400
// invalid_param), and chat and chatflow apps stream too. Retrieved documents
// come from the message_end event's metadata.retriever_resources, present
// only when the app has "Citations and Attributions" turned on.
type Dify struct {
	client
	Base string // e.g. http://host/v1
	User string

	citeOnce sync.Once
	citeOff  *bool // the app's "Citations and Attributions" as /parameters says it; nil: unknown
}

// citationsOff asks GET /parameters once whether the app's "Citations and
// Attributions" is off: retriever_resource.enabled
// (get_parameters_from_feature_dict). nil when the server does not say.
func (d *Dify) citationsOff(ctx context.Context) *bool {
	d.citeOnce.Do(func() {
		c := d.client
		c.attempts = 1
		data, err := c.get(ctx, "dify", d.Base+"/parameters", decodeDifyError)
		if err != nil {
			return
		}
		var p struct {
			RetrieverResource *struct {
				Enabled bool `json:"enabled"`
			} `json:"retriever_resource"`
		}
		if json.Unmarshal(data, &p) == nil && p.RetrieverResource != nil {
			off := !p.RetrieverResource.Enabled
			d.citeOff = &off
		}
	})
	return d.citeOff
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

type difyResource struct {
	Position     int     `json:"position"`
	DocumentID   string  `json:"document_id"`
	DocumentName string  `json:"document_name"`
	Content      string  `json:"content"`
	Score        float64 `json:"score"`
}

// difyEvent is one SSE data line: message / agent_message carry answer
// deltas, message_replace replaces the answer (moderation), message_end
// the metadata, error a failure reported inside a 200 stream.
type difyEvent struct {
	Event    string `json:"event"`
	Answer   string `json:"answer"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Status   int    `json:"status"`
	Metadata *struct {
		Resources *[]difyResource `json:"retriever_resources"`
	} `json:"metadata"`
}

// Ask sends one question in a fresh conversation.
func (d *Dify) Ask(ctx context.Context, question string) (Answer, error) {
	payload, _ := json.Marshal(map[string]any{
		"query": question, "inputs": map[string]any{}, "response_mode": "streaming",
		"user": d.User, "conversation_id": "",
	})
	data, err := d.post(ctx, "dify", d.Base+"/chat-messages", payload, decodeDifyError)
	if err != nil {
		return Answer{}, err
	}
	var (
		answer    strings.Builder
		resources *[]difyResource
		ended     bool
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "data:") {
			continue // "event: ping" keep-alives and blank separators
		}
		var ev difyEvent
		if err := json.Unmarshal([]byte(strings.TrimSpace(line[len("data:"):])), &ev); err != nil {
			return Answer{}, &Error{Kind: "dify", Status: 200, Message: "stream event is not JSON: " + redactKey(snippet([]byte(line)), d.key)}
		}
		switch ev.Event {
		case "message", "agent_message":
			answer.WriteString(ev.Answer)
		case "message_replace":
			answer.Reset()
			answer.WriteString(ev.Answer)
		case "message_end":
			ended = true
			if ev.Metadata != nil {
				resources = ev.Metadata.Resources
			}
		case "error":
			e := &Error{Kind: "dify", Status: ev.Status, Code: ev.Code, Message: redactKey(ev.Message, d.key)}
			e.Retryable = ev.Status == 429 || ev.Status >= 500
			return Answer{}, e
		}
	}
	if err := sc.Err(); err != nil {
		return Answer{}, &Error{Kind: "dify", Status: 200, Message: "reading the stream: " + err.Error(), Retryable: true}
	}
	if !ended {
		// A JSON body instead of a stream: a blocking reply (an old server or
		// a proxy that buffers); read its metadata the same way.
		var reply difyEvent
		if json.Unmarshal(data, &reply) == nil && reply.Answer != "" {
			answer.WriteString(reply.Answer)
			if reply.Metadata != nil {
				resources = reply.Metadata.Resources
			}
		} else {
			return Answer{}, &Error{Kind: "dify", Status: 200, Retryable: true, Message: "the stream ended without message_end: " + redactKey(snippet(data), d.key)}
		}
	}
	ans := Answer{Text: answer.String()}
	var docs []Doc
	// Dify 1.x always sends the list (TaskStateMetadata defaults it to
	// []), so an empty one is citations off unless /parameters says they
	// are on (then retrieval found nothing: a real miss).
	off := resources == nil
	if resources != nil && len(*resources) == 0 {
		known := d.citationsOff(ctx)
		off = known == nil || *known
	}
	if !off {
		for _, r := range *resources {
			docs = append(docs, Doc{ID: r.DocumentID, Name: r.DocumentName, Content: r.Content, Score: r.Score})
			ans.Contexts = append(ans.Contexts, r.Content)
		}
	} else {
		ans.Warnings = append(ans.Warnings, Warning{Code: WarnNoReference,
			Setting: text.New("编排 → 功能 → 引用和归属", "Orchestrate → Features → Citations and Attributions"),
			Message: text.New(
				"Dify 的回复里 retriever_resources 为空或缺失：该应用的“引用和归属”已关闭（预览里仍会显示引用，API 却不返回），无法计算指南召回率@k 和 CuBE（记为 n/a，不是 0）。请在应用编排的“功能”中打开“引用和归属”并重新发布。",
				"Dify's reply has an empty or no retriever_resources: the app's \"Citations and Attributions\" is off (the Studio preview still shows them, the API returns none), so guide recall@k and CuBE cannot be computed (n/a, not 0). Turn on \"Citations and Attributions\" under the app's Features and publish again.")})
	}
	ans.Retrieved = dedupe(docs)
	return ans, nil
}
