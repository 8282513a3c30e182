// Package fakeragflow is a fake RAGFlow chat assistant for tests: it
// answers each question of a workbook as the workbook says the system did
// (its rag answer and its retrieved guides, as chunks of uploaded
// documents). Bodies follow RAGFlow v0.24.0 api/apps/sdk/session.py
// create() and chat_completion() with conversation_service.structure_answer;
// with quote off decorate_answer leaves reference {}.
package fakeragflow

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"cubeworkbench/core/dataset"
)

// Naming says what the fake calls a guide's document.
type Naming int

const (
	// ByHand names documents "<title>办事指南.pdf", as people upload them.
	ByHand Naming = iota
	// QuoteOff sends reference {}: the assistant's quote switch is off.
	QuoteOff
	// Opaquely names documents "scan_xxxxxx.pdf": nothing to match.
	Opaquely
)

// ChatID is the assistant id the fake answers for.
const ChatID = "chat9"

// Hex32 is a document id the way RAGFlow makes them (get_uuid:
// uuid1().hex, 32 hex digits), stable per input.
func Hex32(s string) string { sum := md5.Sum([]byte(s)); return hex.EncodeToString(sum[:]) }

// New starts the fake for wb's questions; it closes with the test.
func New(t testing.TB, wb *dataset.Workbook, naming Naming) *httptest.Server {
	idx := wb.GuideIndex()
	byQuestion := map[string]dataset.Item{}
	for _, it := range wb.Items {
		if _, dup := byQuestion[it.Question]; !dup {
			byQuestion[it.Question] = it
		}
	}
	var mu sync.Mutex
	sessions := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/sessions") {
			mu.Lock()
			sessions++
			id := Hex32("session" + string(rune(sessions)))
			mu.Unlock()
			io.WriteString(w, `{"code":0,"data":{"chat_id":"`+ChatID+`","id":"`+id+`","messages":[{"content":"你好","role":"assistant"}],"name":"cube-eval","user_id":""}}`)
			return
		}
		var req struct {
			Question  string `json:"question"`
			SessionID string `json:"session_id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		it, ok := byQuestion[req.Question]
		if !ok || req.SessionID == "" {
			t.Errorf("unexpected completion %+v", req)
		}
		type chunk struct {
			ID           string  `json:"id"`
			Content      string  `json:"content"`
			DocumentID   string  `json:"document_id"`
			DocumentName string  `json:"document_name"`
			DatasetID    string  `json:"dataset_id"`
			Similarity   float64 `json:"similarity"`
		}
		reference := map[string]any{}
		if naming != QuoteOff {
			var chunks []chunk
			for n, ref := range it.Retrieved {
				g := wb.Guides[idx[ref]]
				name := g.Title + "办事指南.pdf"
				if naming == Opaquely {
					name = "scan_" + Hex32(g.ID)[:6] + ".pdf"
				}
				chunks = append(chunks, chunk{ID: Hex32("c" + ref), Content: g.Text, DocumentID: Hex32(g.ID),
					DocumentName: name, DatasetID: "kb1", Similarity: 1 - float64(n)/20})
			}
			reference = map[string]any{"total": len(chunks), "chunks": chunks, "doc_aggs": []any{}}
		}
		body, _ := json.Marshal(map[string]any{"code": 0, "data": map[string]any{
			"answer": it.Answer(dataset.SetRAG), "reference": reference, "audio_binary": nil, "prompt": "",
			"created_at": 1764579601.2, "id": Hex32("m" + it.ID), "session_id": req.SessionID}})
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Unasked strips what the system would supply, so a run asks for it.
func Unasked(wb *dataset.Workbook) {
	for i := range wb.Items {
		delete(wb.Items[i].Answers, dataset.SetRAG)
		wb.Items[i].Retrieved, wb.Items[i].Contexts = nil, nil
	}
}
