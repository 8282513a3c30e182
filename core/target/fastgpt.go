package target

import (
	"context"
	"encoding/json"
	"strings"

	"cubeworkbench/core/text"
)

func init() {
	register(Spec{
		Kind:        "fastgpt",
		Label:       text.New("FastGPT 应用", "FastGPT app"),
		Placeholder: "http://127.0.0.1:3000/api",
		Retrieves:   true,
		Fields: []Field{
			{Key: "base_url", Label: text.New("API 根地址", "API base URL"), Required: true,
				Hint: text.New("应用“发布渠道 → API 访问”页上的 API 根地址，以 /api 结尾", "the API base shown under the app's Publish → API access, ending in /api")},
			{Key: "api_key_env", Label: text.New("应用 API 密钥", "App API key"), Secret: true,
				Hint: text.New("在该应用的“API 访问”里创建的 fastgpt- 开头的密钥（应用专属密钥，不是账号密钥）", "the fastgpt-… key created under that app's API access (the app's own key, not an account key)")},
		},
		Cleanup: Cleanup{Markers: fastgptMarkers,
			Why: "FastGPT's quote markers [24-hex id](CITE) (removeDatasetCiteText, packages/global/core/ai/llm/utils.ts, labring/FastGPT 0225519b)"},
		Blame: fastgptBlame,
	}, func(c client, cfg Config) (Target, error) {
		return &FastGPT{client: c, Base: cfg.BaseURL}, nil
	})
}

// FastGPT asks a FastGPT app through its OpenAI-compatible
// /api/v1/chat/completions with detail true and stream false. With an app
// key the handler (projects/app/src/pages/api/v1/chat/completions.ts,
// authHeaderRequest: responseAllData true) returns every node's response
// in responseData; the dataset search node's quoteList holds the chunks it
// retrieved, in rank order, each naming its collection (the uploaded file:
// collectionId, sourceName).
type FastGPT struct {
	client
	Base string // e.g. http://host:3000/api
}

// Kind names the connector.
func (f *FastGPT) Kind() string { return "fastgpt" }

// fastgptQuote is one SearchDataResponseItemType
// (packages/global/core/dataset/type.d.ts).
type fastgptQuote struct {
	ID           string `json:"id"`
	Q            string `json:"q"`
	A            string `json:"a"`
	CollectionID string `json:"collectionId"`
	SourceName   string `json:"sourceName"`
	SourceID     string `json:"sourceId"`
	Score        []struct {
		Type  string  `json:"type"`
		Value float64 `json:"value"`
	} `json:"score"`
}

type fastgptNode struct {
	ModuleType string          `json:"moduleType"`
	ModuleName string          `json:"moduleName"`
	QuoteList  *[]fastgptQuote `json:"quoteList"`
	ErrorText  string          `json:"errorText"`
	// Tool calls and plugins nest the responses of the nodes they ran.
	ToolDetail   []fastgptNode `json:"toolDetail"`
	PluginDetail []fastgptNode `json:"pluginDetail"`
}

// FastGPT's auth failures come as HTTP 500 with the error's own code in
// the body (packages/service/common/response/index.ts jsonRes,
// packages/global/common/error/errorCode.ts ERROR_RESPONSE):
// unAuthorization 403, unAuthApiKey 514.
var fastgptAuth = map[string]bool{"unAuthorization": true, "unAuthApiKey": true}

func decodeFastGPTError(status int, body []byte) *Error {
	var e struct {
		Code       json.Number `json:"code"`
		StatusText string      `json:"statusText"`
		Message    any         `json:"message"`
	}
	if json.Unmarshal(body, &e) == nil && (e.StatusText != "" || e.Message != nil) {
		msg, _ := e.Message.(string)
		if msg == "" && e.Message != nil {
			b, _ := json.Marshal(e.Message)
			msg = string(b)
		}
		code := e.StatusText
		if code == "" || code == "error" {
			code = e.Code.String()
		}
		out := &Error{Code: code, Message: msg}
		out.Auth = fastgptAuth[e.StatusText] || e.Code.String() == "403" || e.Code.String() == "514" ||
			strings.Contains(msg, "app key rather than the account key")
		return out
	}
	return decodeOpenAIError(status, body)
}

// Ask sends the question in a fresh chat (no chatId: the history comes from
// messages alone, so earlier questions cannot leak into this one).
func (f *FastGPT) Ask(ctx context.Context, question string) (Answer, error) {
	payload, _ := json.Marshal(map[string]any{
		"stream": false, "detail": true, "variables": map[string]any{},
		"messages": []map[string]string{{"role": "user", "content": question}},
	})
	data, err := f.post(ctx, "fastgpt", f.Base+"/v1/chat/completions", payload, decodeFastGPTError)
	if err != nil {
		return Answer{}, err
	}
	var reply struct {
		Error        any             `json:"error"`
		ResponseData json.RawMessage `json:"responseData"`
		Choices      []struct {
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &reply); err != nil || len(reply.Choices) == 0 {
		return Answer{}, &Error{Kind: "fastgpt", Status: 200, Message: "reply is not JSON with choices: " + redactKey(snippet(data), f.key)}
	}
	// The last node failed (the model behind FastGPT, a tool): the handler
	// still answers 200 and puts the node's error beside the answer.
	if reply.Error != nil {
		b, _ := json.Marshal(reply.Error)
		return Answer{}, &Error{Kind: "fastgpt", Status: 200, Code: CodeLLMError, Retryable: true,
			Message: "FastGPT's workflow failed: " + redactKey(snippet(b), f.key)}
	}
	ans := Answer{Text: fastgptText(reply.Choices[0].Message.Content)}
	var nodes []fastgptNode
	if json.Unmarshal(reply.ResponseData, &nodes) != nil || len(reply.ResponseData) == 0 {
		ans.Warnings = append(ans.Warnings, fastgptNoDetail())
		return ans, nil
	}
	quotes, searched := fastgptQuotes(nodes)
	if !searched && fastgptHasSearchNode(nodes) {
		// filterPublicNodeResponseData drops quoteList unless the caller
		// may see details (an app key may; a share link only with "return
		// quotes" on): the search ran, its list was withheld.
		ans.Warnings = append(ans.Warnings, fastgptNoDetail())
		return ans, nil
	}
	var docs []Doc
	for _, q := range quotes {
		content := strings.TrimSpace(q.Q + "\n" + q.A)
		score := 0.0
		if len(q.Score) > 0 {
			score = q.Score[0].Value
		}
		docs = append(docs, Doc{ID: q.CollectionID, Name: q.SourceName, Content: content, Score: score})
		ans.Contexts = append(ans.Contexts, content)
	}
	ans.Retrieved = dedupe(docs)
	if !searched {
		ans.Warnings = append(ans.Warnings, Warning{Code: WarnNoReference,
			Setting: text.New("应用编排 → 知识库搜索（关联知识库）", "app workflow → Dataset search (linked knowledge base)"),
			Message: text.New(
				"FastGPT 的回复里没有任何知识库搜索节点的引用（quoteList）：该应用没有关联知识库，或工作流里没有“知识库搜索”节点，无法计算指南召回率@k。请在应用里关联知识库并发布。",
				"FastGPT's reply holds no dataset search node with a quoteList: the app has no knowledge base linked, or its workflow has no Dataset search node, so guide recall@k cannot be computed. Link the knowledge base in the app and publish it.")})
	}
	return ans, nil
}

// fastgptText reads choices[0].message.content: a string, or with detail
// and several answers a list of {type:"text", text:{content}} values.
func fastgptText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text *struct {
			Content string `json:"content"`
		} `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var out []string
	for _, p := range parts {
		if p.Text != nil && p.Text.Content != "" {
			out = append(out, p.Text.Content)
		}
	}
	return strings.Join(out, "\n")
}

// fastgptQuotes gathers the quote lists of the dataset search nodes, in
// the order they ran (nested tool and plugin nodes included). The AI chat
// node repeats the quotes it was given; it is read only when no search
// node reported, so a filtered copy never shifts the ranks.
func fastgptQuotes(nodes []fastgptNode) (quotes []fastgptQuote, searched bool) {
	var walk func([]fastgptNode, bool)
	walk = func(ns []fastgptNode, searchOnly bool) {
		for _, n := range ns {
			if n.QuoteList != nil && (!searchOnly || n.ModuleType == "datasetSearchNode") {
				searched = true
				quotes = append(quotes, *n.QuoteList...)
			}
			walk(n.ToolDetail, searchOnly)
			walk(n.PluginDetail, searchOnly)
		}
	}
	walk(nodes, true)
	if !searched {
		walk(nodes, false)
	}
	return quotes, searched
}

func fastgptHasSearchNode(nodes []fastgptNode) bool {
	for _, n := range nodes {
		if n.ModuleType == "datasetSearchNode" || fastgptHasSearchNode(n.ToolDetail) || fastgptHasSearchNode(n.PluginDetail) {
			return true
		}
	}
	return false
}

func fastgptNoDetail() Warning {
	return Warning{Code: WarnNoReference,
		Setting: text.New("API 地址与应用密钥（需返回 responseData）", "API base URL and app key (responseData must come back)"),
		Message: text.New(
			"FastGPT 的回复没有带出检索到的引用（responseData 或其中的 quoteList 缺失），无法计算指南召回率@k。请使用该应用自己的 API 密钥（不是分享链接或账号密钥），地址指向 /api。",
			"FastGPT's reply does not carry the retrieved quotes (no responseData, or no quoteList in it), so guide recall@k cannot be computed. Use the app's own API key (not a share link or an account key) with the /api base URL.")}
}

// fastgptBlame names the app key when FastGPT says the app it belongs to
// is gone or out of the key's reach (packages/global/common/error/code/app.ts,
// labring/FastGPT 7c9d4a93: AppErrEnum unExist 应用不存在 502000, unAuthApp
// 无权操作该应用 502001; later versions prefix them "app"). A FastGPT key
// belongs to one app, so the key is the setting to change.
func fastgptBlame(e *Error) (string, text.Text, bool) {
	switch e.Code {
	case "unExist", "appUnExist", "502000", "unAuthApp", "appUnAuthApp", "502001":
	default:
		if !strings.Contains(e.Message, "应用不存在") && !strings.Contains(e.Message, "无权操作该应用") {
			return "", text.Text{}, false
		}
	}
	return "api_key_env", text.Text{
		ZH: "“应用 API 密钥”所属的应用已不存在，或该密钥无权使用它：请在要评测的应用的“发布渠道 → API 访问”里新建密钥并填入。",
		EN: "The app the App API key belongs to no longer exists, or the key may not use it: create a key under Publish → API access of the app to evaluate, and use that."}, true
}
