// Package fakemaxkb is a fake MaxKB v2 application for tests: it answers
// each question of a workbook as the workbook says the system did (its rag
// answer and its retrieved guides as paragraphs of documents named by
// hand, "<title>办事指南.pdf"). Routes and bodies follow 1Panel-dev/MaxKB
// v2.1.0: apps/chat/urls.py (open, chat_message, historical_conversation
// record), SystemToResponse.to_block_response and
// ApplicationChatRecordQuerySerializers.reset_chat_record with show_source on.
package fakemaxkb

import (
	"crypto/md5"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"cubeworkbench/core/dataset"
)

// UUID is a stable uuid-shaped id per input.
func UUID(s string) string {
	b := md5.Sum([]byte(s))
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func ok(w http.ResponseWriter, data any) {
	body, _ := json.Marshal(map[string]any{"code": 200, "message": "成功", "data": data})
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// New starts the fake for wb's questions; it closes with the test.
func New(t testing.TB, wb *dataset.Workbook) *httptest.Server {
	idx := wb.GuideIndex()
	byQuestion := map[string]dataset.Item{}
	for _, it := range wb.Items {
		if _, dup := byQuestion[it.Question]; !dup {
			byQuestion[it.Question] = it
		}
	}
	var mu sync.Mutex
	chats := 0
	records := map[string]dataset.Item{} // record id → the item answered
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/chat/api/open":
			mu.Lock()
			chats++
			id := UUID(fmt.Sprint("chat", chats))
			mu.Unlock()
			ok(w, id)
		case strings.HasPrefix(p, "/chat/api/chat_message/"):
			chatID := strings.TrimPrefix(p, "/chat/api/chat_message/")
			var req struct {
				Message string `json:"message"`
			}
			_ = json.NewDecoder(r.Body).Decode(&req)
			it, found := byQuestion[req.Message]
			if !found {
				t.Errorf("unexpected question %q", req.Message)
			}
			rec := UUID("rec" + chatID)
			mu.Lock()
			records[chatID+"/"+rec] = it
			mu.Unlock()
			answer := it.Answer(dataset.SetRAG)
			ok(w, map[string]any{"chat_id": chatID, "id": rec, "operate": true, "content": answer, "is_end": true,
				"reasoning_content": "", "answer_list": []any{map[string]any{"content": answer, "reasoning_content": ""}},
				"completion_tokens": 20, "prompt_tokens": 812})
		case strings.HasPrefix(p, "/chat/api/historical_conversation/"):
			parts := strings.Split(strings.TrimPrefix(p, "/chat/api/historical_conversation/"), "/")
			if len(parts) != 3 || parts[1] != "record" {
				w.WriteHeader(404)
				return
			}
			mu.Lock()
			it, found := records[parts[0]+"/"+parts[2]]
			mu.Unlock()
			if !found {
				ok(w, nil)
				return
			}
			paragraphs := []any{}
			for n, ref := range it.Retrieved {
				g := wb.Guides[idx[ref]]
				paragraphs = append(paragraphs, map[string]any{"id": UUID("p" + ref), "document_id": UUID("d" + g.ID),
					"knowledge_id": UUID("kb"), "content": g.Text, "title": "", "status": "nn2", "is_active": true,
					"comprehensive_score": 1 - float64(n)/20, "similarity": 1 - float64(n)/20, "knowledge_name": "办事指南",
					"document_name": g.Title + "办事指南.pdf", "knowledge_type": 0, "meta": map[string]any{}})
			}
			ok(w, map[string]any{"id": parts[2], "chat": parts[0], "vote_status": "-1", "problem_text": it.Question,
				"answer_text": it.Answer(dataset.SetRAG), "improve_paragraph_id_list": []any{}, "padding_problem_text": nil,
				"knowledge_list": []any{map[string]any{"id": UUID("kb"), "knowledge_name": "办事指南", "knowledge_type": 0}},
				"paragraph_list": paragraphs})
		default:
			w.WriteHeader(404)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}
