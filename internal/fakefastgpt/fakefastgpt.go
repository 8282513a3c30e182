// Package fakefastgpt is a fake FastGPT app for tests: it answers each
// question of a workbook as the workbook says the system did (its rag
// answer, with FastGPT's [id](CITE) markers, and its retrieved guides as
// quotes of uploaded files named by hand, "<title>办事指南.pdf"). Bodies
// follow labring/FastGPT projects/app/src/pages/api/v1/chat/completions.ts
// (main at 004c0f13, v4.9.x) for stream false, detail true and an app key:
// responseData is every node's response, the datasetSearchNode's quoteList
// holding SearchDataResponseItemType items.
package fakefastgpt

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"cubeworkbench/core/dataset"
)

// Hex24 is an id the way MongoDB makes them (24 hex digits), stable per input.
func Hex24(s string) string { sum := md5.Sum([]byte(s)); return hex.EncodeToString(sum[:])[:24] }

// New starts the fake for wb's questions under /api; it closes with the test.
func New(t testing.TB, wb *dataset.Workbook) *httptest.Server {
	idx := wb.GuideIndex()
	byQuestion := map[string]dataset.Item{}
	for _, it := range wb.Items {
		if _, dup := byQuestion[it.Question]; !dup {
			byQuestion[it.Question] = it
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role, Content string
			} `json:"messages"`
			Detail bool `json:"detail"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		if r.URL.Path != "/api/v1/chat/completions" || len(req.Messages) == 0 || !req.Detail {
			t.Errorf("unexpected request %s %+v", r.URL.Path, req)
			w.WriteHeader(404)
			return
		}
		it, ok := byQuestion[req.Messages[len(req.Messages)-1].Content]
		if !ok {
			t.Errorf("unexpected question %+v", req)
		}
		type score struct {
			Type  string  `json:"type"`
			Value float64 `json:"value"`
			Index int     `json:"index"`
		}
		type quote struct {
			ID           string  `json:"id"`
			UpdateTime   string  `json:"updateTime"`
			Q            string  `json:"q"`
			A            string  `json:"a"`
			ChunkIndex   int     `json:"chunkIndex"`
			DatasetID    string  `json:"datasetId"`
			CollectionID string  `json:"collectionId"`
			SourceID     string  `json:"sourceId"`
			SourceName   string  `json:"sourceName"`
			Score        []score `json:"score"`
		}
		quotes := []quote{}
		answer := it.Answer(dataset.SetRAG)
		for n, ref := range it.Retrieved {
			g := wb.Guides[idx[ref]]
			quotes = append(quotes, quote{ID: Hex24("d" + ref), UpdateTime: "2026-11-20T08:00:00.000Z", Q: g.Text,
				DatasetID: Hex24("kb"), CollectionID: Hex24("c" + g.ID), SourceID: Hex24("f" + g.ID),
				SourceName: g.Title + "办事指南.pdf", Score: []score{{"embedding", 1 - float64(n)/20, n}}})
			if n == 0 {
				answer += "[" + Hex24("d"+ref) + "](CITE)"
			}
		}
		body, _ := json.Marshal(map[string]any{
			"responseData": []any{
				map[string]any{"id": "n1", "nodeId": "workflowStartNodeId", "moduleName": "流程开始", "moduleType": "workflowStart", "runningTime": 0},
				map[string]any{"id": "n2", "nodeId": "iKBoX2vIzETU", "moduleName": "知识库搜索", "moduleType": "datasetSearchNode",
					"runningTime": 0.6, "query": it.Question, "similarity": 0.4, "limit": 3000, "searchMode": "embedding", "quoteList": quotes},
				map[string]any{"id": "n3", "nodeId": "7BdojPlukIQw", "moduleName": "AI 对话", "moduleType": "chatNode", "runningTime": 2.1, "quoteList": quotes},
			},
			"newVariables": map[string]any{}, "id": "", "model": "",
			"usage":   map[string]int{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 1},
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": answer}, "finish_reason": "stop", "index": 0}},
		})
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}
