package engine

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/text"
)

// Every configured key is checked before the first call: an api_key_env
// that names an unset variable (and no key typed in the window or kept in
// the keyring) stops the run at once, naming the field — for the target,
// whose requests used to go out without a key, as for the judges, the
// generator, the embedder and the reranker.
func TestUnsetKeysFlaggedBeforeTheFirstCall(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(500)
	}))
	defer srv.Close()
	cases := []struct {
		name  string
		edit  func(*profile.Profile)
		field string
	}{
		{"target", func(p *profile.Profile) {
			p.Target = &profile.Target{Kind: "ragflow", BaseURL: srv.URL, ChatID: "c", APIKeyEnv: "CUBE_UNSET_TARGET_KEY"}
		}, "[target] api_key_env"},
		{"judge", func(p *profile.Profile) {
			p.Target = &profile.Target{Kind: "ragflow", BaseURL: srv.URL, ChatID: "c"}
			p.Judges = append(p.Judges, profile.Endpoint{Name: "remote", BaseURL: srv.URL + "/v1", Model: "m", APIKeyEnv: "CUBE_UNSET_JUDGE_KEY"})
		}, "[[judge]] remote api_key_env"},
		{"generator", func(p *profile.Profile) {
			p.Generator = &profile.Endpoint{Name: "gen", BaseURL: srv.URL + "/v1", Model: "m", APIKeyEnv: "CUBE_UNSET_GEN_KEY"}
		}, "[generator] api_key_env"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls.Store(0)
			wb := buildWorkbook(ragItems)
			for i := range wb.Items {
				wb.Items[i].Answers, wb.Items[i].Retrieved = nil, nil
			}
			p := testProfile(profile.Endpoint{Name: LexicalJudge, Lexical: true})
			c.edit(&p)
			_, err := Run(context.Background(), wb, Options{Profile: p, Store: openStore(t, "")})
			if !errors.Is(err, llm.ErrNoKey) || !strings.Contains(err.Error(), c.field) || !strings.Contains(err.Error(), "CUBE_UNSET_") {
				t.Fatalf("err = %v, want ErrNoKey naming %s", err, c.field)
			}
			// Each front end says it in its own language (issue 21).
			zh, en := text.Of(err).In(text.ZH), text.Of(err).In(text.EN)
			if !strings.Contains(zh, "缺少密钥") || strings.Contains(zh, "missing keys") || !strings.Contains(zh, c.field) ||
				!strings.Contains(en, "missing keys") || strings.Contains(en, "缺少密钥") || !strings.Contains(en, c.field) {
				t.Errorf("one language each, naming %s: zh %q, en %q", c.field, zh, en)
			}
			if calls.Load() != 0 {
				t.Errorf("%d calls went out before the missing key was found", calls.Load())
			}
		})
	}
}
