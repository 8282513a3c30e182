package target

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"cubeworkbench/core/text"
)

func init() {
	register(Spec{
		Kind:        "http",
		Label:       text.New("通用 HTTP JSON 接口", "Generic HTTP JSON endpoint"),
		Placeholder: "http://127.0.0.1:8080/ask",
		Retrieves:   true,
		Fields: []Field{
			{Key: "base_url", Label: text.New("请求地址", "Request URL"), Required: true}, fieldKey,
			{Key: "request_template", Label: text.New("请求模板", "Request template"), Required: true, Multiline: true,
				Hint: text.New("JSON，问题处写 {{question}}", "JSON with {{question}} where the question goes")},
			{Key: "answer_path", Label: text.New("回答路径", "Answer path"), Required: true, Hint: text.New("如 data.answer", "e.g. data.answer")},
			{Key: "docs_path", Label: text.New("检索文档路径", "Documents path"), Hint: text.New("如 data.docs[*]", "e.g. data.docs[*]")},
		},
		Cleanup: Cleanup{Markers: knownMarkers(),
			Why: "any known system's markers: a generic endpoint is mostly a wrapper around one of the " +
				"systems with connectors (RAGFlow's, FastGPT's), passing their answers on as written"},
	}, func(c client, cfg Config) (Target, error) {
		return &HTTP{client: c, URL: cfg.BaseURL, Template: cfg.RequestTemplate, AnswerPath: cfg.AnswerPath, DocsPath: cfg.DocsPath}, nil
	})
}

// HTTP asks any JSON endpoint: the body is Template with {{question}}
// replaced by the JSON-escaped question; AnswerPath and DocsPath locate the
// answer and the retrieved documents in the reply.
//
// Paths are dot-separated keys with [n] for an index and [*] for every
// element, e.g. "data.answer" or "data.reference.chunks[*].document_name".
// DocsPath may end in an object (its "id"/"document_id" and "name"/
// "document_name"/"title" fields are read) or in strings (taken as ids).
type HTTP struct {
	client
	URL        string
	Template   string
	AnswerPath string
	DocsPath   string
}

// Kind names the connector.
func (h *HTTP) Kind() string { return "http" }

// Ask fills the template, posts it and reads the paths.
func (h *HTTP) Ask(ctx context.Context, question string) (Answer, error) {
	quoted, _ := json.Marshal(question)
	body := strings.ReplaceAll(h.Template, "{{question}}", string(quoted[1:len(quoted)-1]))
	if !json.Valid([]byte(body)) {
		return Answer{}, fmt.Errorf("%w: request_template is not valid JSON once filled", ErrConfig)
	}
	data, err := h.post(ctx, "http", h.URL, []byte(body), func(int, []byte) *Error { return &Error{} })
	if err != nil {
		return Answer{}, err
	}
	var root any
	if err := json.Unmarshal(data, &root); err != nil {
		return Answer{}, &Error{Kind: "http", Status: 200, Message: "reply is not JSON: " + redactKey(snippet(data), h.key)}
	}
	answers, err := Lookup(root, h.AnswerPath)
	if err != nil || len(answers) == 0 {
		return Answer{}, &Error{Kind: "http", Status: 200, Message: fmt.Sprintf("answer_path %q not found in reply", h.AnswerPath)}
	}
	answer, ok := answers[0].(string)
	if !ok {
		return Answer{}, &Error{Kind: "http", Status: 200, Message: fmt.Sprintf("answer_path %q is not a string", h.AnswerPath)}
	}
	ans := Answer{Text: answer}
	if h.DocsPath == "" {
		return ans, nil
	}
	found, err := Lookup(root, h.DocsPath)
	if err != nil {
		return Answer{}, &Error{Kind: "http", Status: 200, Message: err.Error()}
	}
	var docs []Doc
	for _, v := range found {
		switch d := v.(type) {
		case string:
			docs = append(docs, Doc{ID: d})
		case float64:
			docs = append(docs, Doc{ID: strconv.FormatFloat(d, 'f', -1, 64)})
		case map[string]any:
			doc := Doc{ID: firstString(d, "id", "document_id", "doc_id"), Name: firstString(d, "name", "document_name", "title", "doc_name")}
			doc.Content = firstString(d, "content", "text")
			if doc.Content != "" {
				ans.Contexts = append(ans.Contexts, doc.Content)
			}
			docs = append(docs, doc)
		}
	}
	ans.Retrieved = dedupe(docs)
	return ans, nil
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
		if f, ok := m[k].(float64); ok {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	return ""
}

// Lookup evaluates a path over decoded JSON and returns every match.
func Lookup(root any, path string) ([]any, error) {
	current := []any{root}
	for _, part := range splitPath(path) {
		var next []any
		for _, node := range current {
			switch {
			case part == "[*]":
				if arr, ok := node.([]any); ok {
					next = append(next, arr...)
				}
			case strings.HasPrefix(part, "["):
				n, err := strconv.Atoi(strings.Trim(part, "[]"))
				if err != nil {
					return nil, fmt.Errorf("path %q: bad index %s", path, part)
				}
				if arr, ok := node.([]any); ok && n >= 0 && n < len(arr) {
					next = append(next, arr[n])
				}
			default:
				if obj, ok := node.(map[string]any); ok {
					if v, ok := obj[part]; ok {
						next = append(next, v)
					}
				}
			}
		}
		current = next
	}
	return current, nil
}

// splitPath turns "a.b[0].c[*]" into ["a","b","[0]","c","[*]"].
func splitPath(path string) []string {
	var parts []string
	for _, seg := range strings.Split(path, ".") {
		for seg != "" {
			i := strings.Index(seg, "[")
			switch {
			case i < 0:
				parts = append(parts, seg)
				seg = ""
			case i > 0:
				parts = append(parts, seg[:i])
				seg = seg[i:]
			default:
				j := strings.Index(seg, "]")
				if j < 0 {
					parts = append(parts, seg)
					seg = ""
					continue
				}
				parts = append(parts, seg[:j+1])
				seg = seg[j+1:]
			}
		}
	}
	return parts
}
