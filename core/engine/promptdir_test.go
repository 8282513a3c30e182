package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
	"cubeworkbench/internal/fakeai"
	"cubeworkbench/prompts"
)

// A user's edited copy of a built-in rubric is what the judge sends, and a
// second run with no edit reuses the cache rather than calling again.
func TestEditedPromptIsUsed(t *testing.T) {
	dir := t.TempDir()
	if err := prompts.Export(dir); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "cube", "relevance.zh.md")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const marker = "（本单位自定义标准：须引用办事指南原文）"
	edited := strings.Replace(string(text), "=== user ===", marker+"\n=== user ===", 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fakeai.New(t)
	st, err := store.Open(filepath.Join(t.TempDir(), "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p := profile.Default()
	p.Bootstrap = 0
	p.Dimensions = []string{"relevance"}
	p.PromptDir = dir
	p.Judges = []profile.Endpoint{{Name: "j", BaseURL: srv.URL(), Model: "m"}}
	if _, err := Run(context.Background(), budgetWorkbook(), Options{Profile: p, Store: st}); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, c := range srv.Chats() {
		for _, m := range c.Messages {
			if strings.Contains(m.Content, marker) {
				found++
			}
		}
	}
	if found == 0 || found != len(srv.Chats()) {
		t.Fatalf("edited rubric in %d of %d requests", found, len(srv.Chats()))
	}
}
