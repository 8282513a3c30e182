package engine

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
)

func openSampleBook(t *testing.T) *dataset.Workbook {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cube-sample.xlsx")
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	wb, rep, err := ingest.Open(context.Background(), path, ingest.Options{})
	if err != nil || rep.HasErrors() {
		t.Fatalf("sample: %v %+v", err, rep)
	}
	return wb
}

// hex32 is a document id the way RAGFlow makes them (get_uuid: uuid1().hex).
func hex32(s string) string { sum := md5.Sum([]byte(s)); return hex.EncodeToString(sum[:]) }

// ragflowNaming says what a fake RAGFlow calls a guide's document.
type ragflowNaming int

const (
	namedByHand   ragflowNaming = iota // "<title>办事指南.pdf", as people upload them
	quoteOff                           // reference {}: the assistant's quote switch is off
	namedOpaquely                      // "scan_0001.pdf": nothing to match
)

// ragflowKB answers each sample question as the workbook says the system
// did, with its retrieved guides as chunks of uploaded documents. Bodies
// follow RAGFlow v0.24.0 api/apps/sdk/session.py create() and
// chat_completion() with conversation_service.structure_answer; with quote
// off decorate_answer leaves reference {} (as core/docmatch's e2e test).
func ragflowKB(t *testing.T, wb *dataset.Workbook, naming ragflowNaming) *httptest.Server {
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
			id := hex32("session" + string(rune(sessions)))
			mu.Unlock()
			io.WriteString(w, `{"code":0,"data":{"chat_id":"chat9","id":"`+id+`","messages":[{"content":"你好","role":"assistant"}],"name":"cube-eval","user_id":""}}`)
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
		if naming != quoteOff {
			var chunks []chunk
			for n, ref := range it.Retrieved {
				g := wb.Guides[idx[ref]]
				name := g.Title + "办事指南.pdf"
				if naming == namedOpaquely {
					name = "scan_" + hex32(g.ID)[:6] + ".pdf"
				}
				chunks = append(chunks, chunk{ID: hex32("c" + ref), Content: g.Text, DocumentID: hex32(g.ID),
					DocumentName: name, DatasetID: "kb1", Similarity: 1 - float64(n)/20})
			}
			reference = map[string]any{"total": len(chunks), "chunks": chunks, "doc_aggs": []any{}}
		}
		body, _ := json.Marshal(map[string]any{"code": 0, "data": map[string]any{
			"answer": it.Answer(dataset.SetRAG), "reference": reference, "audio_binary": nil, "prompt": "",
			"created_at": 1764579601.2, "id": hex32("m" + it.ID), "session_id": req.SessionID}})
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// unasked strips what the system would supply, so the run asks for it.
func unasked(wb *dataset.Workbook) {
	for i := range wb.Items {
		delete(wb.Items[i].Answers, dataset.SetRAG)
		wb.Items[i].Retrieved, wb.Items[i].Contexts = nil, nil
	}
}

// The engine matches the target's documents to guides and puts the mapping
// report in the summary: hand-named files resolve and give the workbook's
// own Recall@8; quote off makes Recall@8 and CuBE null (never 0) with a
// warning naming the setting; unmatchable names warn loudly; a streamed
// knowledge base matches against every stored guide, not only the ones the
// questions name.
func TestTargetDocumentsMatched(t *testing.T) {
	own := openSampleBook(t)
	ownProfile := testProfile(profile.Endpoint{Name: LexicalJudge, Lexical: true})
	want, err := Run(context.Background(), cloneWorkbook(own), Options{Profile: ownProfile, Store: openStore(t, "")})
	if err != nil || want.Summary.RecallAtK == nil {
		t.Fatalf("the sample's own Recall@8: %v", err)
	}
	cases := []struct {
		name     string
		naming   ragflowNaming
		streamed bool
		check    func(t *testing.T, s *result.Summary)
	}{
		{"named by hand", namedByHand, false, func(t *testing.T, s *result.Summary) {
			m := s.DocMapping
			if s.RecallAtK == nil || *s.RecallAtK != *want.Summary.RecallAtK {
				t.Errorf("Recall@8 %v, want %v", s.RecallAtK, *want.Summary.RecallAtK)
			}
			if m.Resolved != m.Retrieved || len(m.Unmatched) != 0 || m.Loud() || hasWarning(s, "docmatch") {
				t.Errorf("mapping %+v, warnings %+v", m, s.Warnings)
			}
		}},
		{"quote off", quoteOff, false, func(t *testing.T, s *result.Summary) {
			if s.RecallAtK != nil || s.Aggregate.Cube.Mean != nil || s.Verdict.Code != "undetermined" {
				t.Errorf("Recall@8 %v, CuBE %v, verdict %s: want null and undetermined", s.RecallAtK, s.Aggregate.Cube.Mean, s.Verdict.Code)
			}
			for _, j := range s.Judges {
				if j.Cube != nil {
					t.Errorf("judge %s CuBE %v, want null", j.Judge, *j.Cube)
				}
			}
			w := warning(s, "recall_missing")
			if w == nil || !strings.Contains(w.ZH, "显示引文") || !strings.Contains(w.EN, "quote") || !s.DocMapping.RecallMissing() {
				t.Errorf("warning %+v, mapping %+v", w, s.DocMapping)
			}
			if strings.Contains(s.HeadlineText.EN, "0.00 %") {
				t.Errorf("headline says 0: %s", s.HeadlineText.EN)
			}
		}},
		{"opaque names", namedOpaquely, false, func(t *testing.T, s *result.Summary) {
			w := warning(s, "unmatched_documents")
			if w == nil || !s.DocMapping.Loud() || !strings.Contains(w.EN, "target_doc") || !strings.Contains(w.ZH, "scan_") {
				t.Errorf("warning %+v, mapping %+v", w, s.DocMapping)
			}
		}},
		{"streamed knowledge base", namedByHand, true, func(t *testing.T, s *result.Summary) {
			m := s.DocMapping
			if m.Resolved != m.Retrieved || len(m.Unmatched) != 0 || s.RecallAtK == nil {
				t.Errorf("Recall@8 %v; mapping %+v", s.RecallAtK, m)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wb := openSampleBook(t)
			srv := ragflowKB(t, openSampleBook(t), c.naming)
			unasked(wb)
			st := openStore(t, "")
			if c.streamed { // every guide in the store, only the questions' gold guides in memory
				gw, err := st.NewGuideWriter(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				for _, g := range wb.Guides {
					if err := gw.Add(g); err != nil {
						t.Fatal(err)
					}
				}
				if err := gw.Close(); err != nil {
					t.Fatal(err)
				}
				wb.Items = wb.Items[:20]
				named := map[string]bool{}
				for _, it := range wb.Items {
					named[it.DocID] = true
				}
				var kept []dataset.Guide
				for _, g := range wb.Guides {
					if named[g.ID] {
						kept = append(kept, g)
					}
				}
				others := 0 // retrieved guides that are no question's gold guide
				for _, it := range openSampleBook(t).Items[:20] {
					for _, ref := range it.Retrieved {
						if !named[ref] {
							others++
						}
					}
				}
				if others == 0 {
					t.Fatal("every retrieved guide is a gold guide: the case tests nothing")
				}
				wb.Guides = kept
			}
			p := testProfile(profile.Endpoint{Name: LexicalJudge, Lexical: true})
			p.Target = &profile.Target{Kind: "ragflow", BaseURL: srv.URL, ChatID: "chat9", Concurrency: 2}
			res, err := Run(context.Background(), wb, Options{Profile: p, Store: st, PartialGuides: c.streamed})
			if err != nil {
				t.Fatal(err)
			}
			if res.Summary.DocMapping == nil || res.Summary.DocMapping.Answers != len(wb.Items) {
				t.Fatalf("mapping report %+v", res.Summary.DocMapping)
			}
			c.check(t, res.Summary)
		})
	}
}

func warning(s *result.Summary, code string) *result.Warning {
	for i := range s.Warnings {
		if s.Warnings[i].Code == code {
			return &s.Warnings[i]
		}
	}
	return nil
}

func hasWarning(s *result.Summary, source string) bool {
	for _, w := range s.Warnings {
		if w.Source == source {
			return true
		}
	}
	return false
}
