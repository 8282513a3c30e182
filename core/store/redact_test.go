package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/llm"
)

// A key inside a successful reply (a system or a judge that echoes its
// request headers) never reaches the run store: replies, answers and
// judgements are redacted on the way in, whatever wrote them (a live call,
// a batch result, an import).
func TestStoredRepliesAreRedacted(t *testing.T) {
	const key = "sk-live-9f8e7d6c5b4a39281706"
	httpsafe.Register(key)
	t.Cleanup(func() { httpsafe.Forget(key) })
	st, err := Open(filepath.Join(t.TempDir(), "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	echo := "评分：7。请求头 Authorization: Bearer " + key + "，x-api-key=" + key
	if err := st.PutReply(ctx, "k1", "m", llm.Request{Messages: []llm.Message{{Role: "user", Content: "q"}}},
		llm.Reply{Content: echo, Raw: echo, Reasoning: echo}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutAnswer(ctx, Answer{ItemID: "q1", Set: "rag", Source: "ragflow", Text: echo, Contexts: []string{echo}}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutJudgement(ctx, dataset.Judgement{ItemID: "q1", Set: "rag", Judge: "j", Dimension: "relevance", Repeat: 1,
		Status: dataset.StatusOK, Score: 7, Raw: echo}, "k1"); err != nil {
		t.Fatal(err)
	}
	var dump strings.Builder
	for _, q := range []string{`SELECT reply FROM responses`, `SELECT text || contexts FROM answers`, `SELECT raw FROM judgements`} {
		var s string
		if err := st.r.QueryRowContext(ctx, q).Scan(&s); err != nil {
			t.Fatal(err)
		}
		dump.WriteString(s)
	}
	if strings.Contains(dump.String(), key) || strings.Contains(dump.String(), key[8:]) {
		t.Fatalf("the key is in the store: %s", dump.String())
	}
	if !strings.Contains(dump.String(), "评分：7") {
		t.Fatalf("the reply itself was lost: %s", dump.String())
	}
}
