package target

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Every setting a connector reads is bound to its stored answers: for each
// connector and each string setting of the config, changing the setting
// either changes nothing the connector sends or reads, or changes
// FingerprintParts. A connector that read a setting it does not declare in
// its registry entry would fail here, instead of reusing answers of another
// app or assistant without a word.
func TestFingerprintBindsEverySettingRead(t *testing.T) {
	t.Setenv("FP_KEY_A", "key-a")
	t.Setenv("FP_KEY_B", "key-b")
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("Authorization")+" "+string(body))
		mu.Unlock()
		// One reply every connector can read some of: an OpenAI choice,
		// RAGFlow's and Dify's envelopes, and the generic paths below.
		io.WriteString(w, `{"code":0,"data":{"answer":"甲","id":"s1","reference":{"chunks":[{"document_name":"指南一"}]}},
			"answer":"乙","message_id":"m","metadata":{"retriever_resources":[{"document_name":"指南二"}]},
			"choices":[{"message":{"content":"丙"}}],"alt":"丁","docs":[{"title":"指南三"}],"other":[{"title":"指南四"}]}`)
	}))
	defer srv.Close()
	// ask is what a target of c sends and what it makes of the reply.
	ask := func(c Config) string {
		mu.Lock()
		seen = nil
		mu.Unlock()
		tg, err := NewOnce(c)
		if err != nil {
			return "build: " + err.Error()
		}
		a, err := tg.Ask(context.Background(), "问题")
		b, _ := json.Marshal(a)
		mu.Lock()
		defer mu.Unlock()
		out := strings.Join(seen, "\n") + "\n" + string(b)
		if err != nil {
			out += "\n" + err.Error()
		}
		return out
	}
	base := Config{BaseURL: srv.URL, APIKeyEnv: "FP_KEY_A", ChatID: "c1", Model: "m1",
		RequestTemplate: `{"q":"{{question}}","v":1}`, AnswerPath: "answer", DocsPath: "docs[*]"}
	other := map[string]string{"api_key_env": "FP_KEY_B", "chat_id": "c2", "model": "m2", "api_version": "v1",
		"request_template": `{"q":"{{question}}","v":2}`, "answer_path": "alt", "docs_path": "other[*]"}
	for _, kind := range Kinds() {
		c := base
		c.Kind = kind
		before := ask(c)
		for _, key := range stringKeys() {
			if key == "kind" || key == "base_url" {
				continue // the kind and the server are always bound
			}
			v, ok := other[key]
			if !ok {
				t.Errorf("no second value for the setting %q: add one to this test", key)
				continue
			}
			d := c
			if err := d.Set(key, v); err != nil {
				t.Fatal(err)
			}
			if ask(d) != before && slices.Equal(FingerprintParts(c), FingerprintParts(d)) {
				t.Errorf("%s reads %s (the request or the answer changes with it) but its fingerprint does not bind it: declare it in its registry entry's Fields", kind, key)
			}
		}
	}
}

// stringKeys are the TOML keys of Config's string fields.
func stringKeys() []string {
	var out []string
	t := reflect.TypeOf(Config{})
	for i := range t.NumField() {
		if t.Field(i).Type.Kind() == reflect.String {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
			out = append(out, name)
		}
	}
	return out
}
