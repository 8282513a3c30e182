package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"cubeworkbench/internal/testbook"
)

// A system under test that fails all, or most, questions gives no verdict:
// the run exits ExitTargetFailed, and the undetermined verdict quotes the
// system's own failure in the CLI and SUMMARY.json, with Recall@k null when
// no retrieval was read at all.
func TestTargetFailingMostQuestions(t *testing.T) {
	cases := []struct {
		name string
		n    int // questions
		ok   int // questions answered before the key stops working
	}{
		{"every question fails (bad key)", 4, 0},
		{"three of four fail", 4, 1},
		// Enough failures in a row trip the engine's breaker: the run stops
		// asking, and still exits with the same code and the failure.
		{"twelve of twelve fail", 12, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var completions atomic.Int64
			// RAGFlow v0.24.0 token_required (api/utils/api_utils.py):
			// a refused key is code 109 in a 200 envelope.
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/sessions") {
					io.WriteString(w, `{"code":0,"data":{"chat_id":"c","id":"s1","messages":[],"name":"cube-eval"}}`)
					return
				}
				if completions.Add(1) > int64(c.ok) {
					io.WriteString(w, `{"code":109,"data":false,"message":"Authentication error: API key is invalid!"}`)
					return
				}
				io.WriteString(w, `{"code":0,"data":{"answer":"带身份证去窗口办理。","reference":{"total":1,"chunks":[{"id":"c1","content":"材料：身份证","document_id":"d1","document_name":"G1","similarity":0.9}],"doc_aggs":[]},"session_id":"s1"}}`)
			}))
			defer srv.Close()
			dir := t.TempDir()
			b := testbook.New()
			b.Sheet("guides", "doc_id", "title", "text").Row("G1", "社保卡", "材料：身份证").Row("G2", "护照", "材料：户口簿")
			qa := b.Sheet("qa", "id", "question", "doc_id", "answer_zero", "answer_full")
			for i := 0; i < c.n; i++ {
				qa.Row(fmt.Sprintf("q%d", i+1), fmt.Sprintf("第%d个问题：怎么办社保卡？", i+1), []string{"G1", "G2"}[i%2], "请咨询当地部门。", "带身份证去窗口办理，材料：身份证。")
			}
			book := b.WriteXLSX(t, filepath.Join(dir, "book.xlsx"))
			prof := filepath.Join(dir, "p.toml")
			os.WriteFile(prof, []byte("language = \"en\"\nbootstrap = 20\n\n[[judge]]\nname = \"lexical\"\nlexical = true\n\n[target]\nkind = \"ragflow\"\nbase_url = \""+srv.URL+"\"\nchat_id = \"c\"\nconcurrency = 1\n"), 0o644)
			js := filepath.Join(dir, "SUMMARY.json")
			code, out, errOut := run(t, "evaluate", book, "--profile", prof, "--yes", "--json", js, "--store", filepath.Join(dir, "run.db"))
			if code != ExitTargetFailed {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitTargetFailed, out, errOut)
			}
			if !strings.Contains(out+errOut, "Undetermined") || !strings.Contains(out+errOut, "API key is invalid") {
				t.Errorf("the CLI does not quote the failure:\n%s\n%s", out, errOut)
			}
			if c.n > 8 {
				return // the breaker stopped the run: no summary to read
			}
			var sum struct {
				Verdict struct{ Code, ZH, EN string } `json:"verdict"`
				Recall  *float64                      `json:"recall_at_k"`
			}
			data, _ := os.ReadFile(js)
			if err := json.Unmarshal(data, &sum); err != nil {
				t.Fatal(err)
			}
			if sum.Verdict.Code != "undetermined" || !strings.Contains(sum.Verdict.ZH, "无法判定") || !strings.Contains(sum.Verdict.ZH, "API key is invalid") {
				t.Errorf("verdict %+v", sum.Verdict)
			}
			if c.ok == 0 && sum.Recall != nil {
				t.Errorf("recall_at_k = %v when no retrieval was read, want null", *sum.Recall)
			}
		})
	}
}
