package rerank

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/retrieve"
	"cubeworkbench/core/text"
)

// Reranker flavours: the request shape to send. Every response shape is
// understood whichever flavour is set (apis.md §3).
const (
	FlavorJina = "jina" // vLLM, Xinference, Jina, Cohere: {model, query, documents, top_n}
	FlavorTEI  = "tei"  // Hugging Face TEI: {query, texts, raw_scores, truncate}
)

// TEIMaxBatch is TEI's default --max-client-batch-size; larger requests get 422.
const TEIMaxBatch = 32

// Client calls a /v1/rerank (or TEI /rerank) endpoint with one request shape.
// New builds one from a Config, detecting the server when asked to.
type Client struct {
	URL    string // full endpoint, e.g. http://host:8000/v1/rerank
	Model  string // model name (vLLM) or model UID (Xinference); TEI ignores it
	APIKey string // sent as a Bearer token when set
	Flavor string // FlavorJina (default) or FlavorTEI
	Batch  int    // documents per request; 0 = all at once (TEI: TEIMaxBatch)
	Client *http.Client

	auto *detection // set by New for KindAuto: URL and Flavor are found on the first call
}

// Error is an endpoint's refusal, with the message parsed from
// whichever error body the server uses.
type Error struct {
	Status  int
	Type    string
	Message string
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	hint := ""
	switch e.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		hint = " (check the API key / 请检查 API 密钥)"
	case http.StatusTooManyRequests:
		hint = " (server overloaded or rate limited, retry later / 服务器繁忙或限流，请稍后重试)"
	case http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
		hint = " (request too large or invalid / 请求过大或无效)"
	}
	if e.Type != "" {
		msg = e.Type + ": " + msg
	}
	return fmt.Sprintf("rerank failed / 重排序失败: HTTP %d: %s%s", e.Status, msg, hint)
}

// Rerank scores docs against query and returns them best first. topN ≤ 0
// asks for all. With a batch limit the documents are sent in slices and
// the scores merged: cross-encoder scores are per pair, so slices compare.
func (r *Client) Rerank(ctx context.Context, query string, docs []string, topN int) ([]retrieve.Ranked, error) {
	if len(docs) == 0 {
		return nil, nil
	}
	if err := r.resolve(ctx); err != nil {
		return nil, err
	}
	batch := r.Batch
	if batch <= 0 && r.Flavor == FlavorTEI {
		batch = TEIMaxBatch
	}
	if batch <= 0 {
		batch = len(docs)
	}
	var all []retrieve.Ranked
	for lo := 0; lo < len(docs); lo += batch {
		hi := min(lo+batch, len(docs))
		part, err := r.call(ctx, query, docs[lo:hi])
		if err != nil {
			return nil, err
		}
		for _, p := range part {
			p.Index += lo
			all = append(all, p)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Score != all[j].Score {
			return all[i].Score > all[j].Score
		}
		return all[i].Index < all[j].Index
	})
	if topN > 0 && len(all) > topN {
		all = all[:topN]
	}
	return all, nil
}

func (r *Client) call(ctx context.Context, query string, docs []string) ([]retrieve.Ranked, error) {
	var body any
	if r.Flavor == FlavorTEI {
		body = map[string]any{"query": query, "texts": docs, "raw_scores": false, "truncate": true}
	} else {
		body = map[string]any{"model": r.Model, "query": query, "documents": docs, "top_n": len(docs)}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(b))
	if err != nil {
		return nil, httpsafe.RedactError(fmt.Errorf("rerank: %s: %w", httpsafe.SanitizeURL(r.URL), err))
	}
	req.Header.Set("Content-Type", "application/json")
	if r.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+r.APIKey)
	}
	resp, err := r.httpClient().Do(req)
	if err != nil {
		return nil, httpsafe.RedactError(fmt.Errorf("rerank: %s: %w", httpsafe.SanitizeURL(r.URL), err))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, httpsafe.RedactError(fmt.Errorf("rerank: %s: read reply: %w", httpsafe.SanitizeURL(r.URL), err))
	}
	if resp.StatusCode/100 != 2 {
		return nil, httpsafe.RedactError(parseError(resp.StatusCode, raw))
	}
	out, err := parseRerank(raw, len(docs))
	if err != nil {
		return nil, httpsafe.RedactError(fmt.Errorf("rerank: %s: %w", httpsafe.SanitizeURL(r.URL), err))
	}
	return out, nil
}

// parseRerank reads the TEI bare array or the vLLM/Xinference object.
func parseRerank(raw []byte, n int) ([]retrieve.Ranked, error) {
	type item struct {
		Index          *int     `json:"index"`
		Score          *float64 `json:"score"`           // TEI
		RelevanceScore *float64 `json:"relevance_score"` // vLLM, Xinference, Jina, Cohere
	}
	var items []item
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if err := json.Unmarshal(trimmed, &items); err != nil {
			return nil, text.NewError(text.New("无法解析的回复", "unreadable reply"), err)
		}
	} else {
		var obj struct {
			Results *[]item `json:"results"`
		}
		if err := json.Unmarshal(trimmed, &obj); err != nil {
			return nil, text.NewError(text.New("无法解析的回复", "unreadable reply"), err)
		}
		if obj.Results == nil {
			return nil, text.NewError(text.New(fmt.Sprintf("回复中没有 results：%.200s", trimmed), fmt.Sprintf("reply has no results: %.200s", trimmed)), nil)
		}
		items = *obj.Results
	}
	seen := make([]bool, n)
	out := make([]retrieve.Ranked, 0, len(items))
	for _, it := range items {
		if it.Index == nil || *it.Index < 0 || *it.Index >= n || seen[*it.Index] {
			return nil, text.NewError(text.New("回复中的 index 缺失、越界或重复", "reply has a missing, out-of-range or repeated index"), nil)
		}
		seen[*it.Index] = true
		s := it.RelevanceScore
		if s == nil {
			s = it.Score
		}
		if s == nil {
			return nil, text.NewError(text.New(fmt.Sprintf("回复项 %d 没有分数", *it.Index), fmt.Sprintf("reply item %d has no score", *it.Index)), nil)
		}
		out = append(out, retrieve.Ranked{Index: *it.Index, Score: *s})
	}
	return out, nil
}

// parseError reads vLLM's {"error":{message,type}} (and its older flat
// {"object":"error","message",...}), TEI's {"error":str,"error_type":str}
// and FastAPI's {"detail":str} (Xinference); 401 may come with no body.
func parseError(status int, raw []byte) error {
	e := &Error{Status: status}
	var probe map[string]json.RawMessage
	if json.Unmarshal(raw, &probe) == nil {
		if v, ok := probe["error"]; ok {
			var nested struct {
				Message string `json:"message"`
				Type    string `json:"type"`
			}
			var s string
			if json.Unmarshal(v, &nested) == nil && nested.Message != "" {
				e.Message, e.Type = nested.Message, nested.Type
			} else if json.Unmarshal(v, &s) == nil {
				e.Message = s
				_ = json.Unmarshal(probe["error_type"], &e.Type)
				e.Type = strings.ToLower(e.Type) // TEI sends "Validation", docs say "validation"
			}
		}
		if e.Message == "" {
			if v, ok := probe["message"]; ok {
				_ = json.Unmarshal(v, &e.Message)
				_ = json.Unmarshal(probe["type"], &e.Type)
			}
		}
		if e.Message == "" {
			if v, ok := probe["detail"]; ok {
				var s string
				if json.Unmarshal(v, &s) == nil {
					e.Message = s
				} else {
					e.Message = string(v) // FastAPI validation errors: a list
				}
			}
		}
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(string(raw))
		if len(e.Message) > 300 {
			e.Message = e.Message[:300]
		}
	}
	return e
}
