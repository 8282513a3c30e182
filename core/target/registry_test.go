package target

import (
	"errors"
	"strings"
	"testing"
)

// Every connector registers itself with labelled fields, and New builds it
// from the registry alone.
func TestRegistry(t *testing.T) {
	want := []string{"dify", "fastgpt", "http", "maxkb", "openai", "ragflow"}
	if got := strings.Join(Kinds(), ","); got != strings.Join(want, ",") {
		t.Fatalf("kinds = %s", got)
	}
	for _, s := range Specs() {
		if s.Label.ZH == "" || s.Label.EN == "" || s.Placeholder == "" {
			t.Errorf("%s: label or placeholder missing: %+v", s.Kind, s)
		}
		secrets := 0
		cfg := Config{Kind: s.Kind}
		for _, f := range s.Fields {
			if f.Label.ZH == "" || f.Label.EN == "" {
				t.Errorf("%s.%s: no label", s.Kind, f.Key)
			}
			if f.Secret {
				secrets++
			}
			if err := cfg.Set(f.Key, "x"); err != nil {
				t.Errorf("%s.%s is not a Config field: %v", s.Kind, f.Key, err)
			}
		}
		if secrets != 1 {
			t.Errorf("%s: %d secret fields, want 1", s.Kind, secrets)
		}
		cfg.BaseURL, cfg.RequestTemplate = "http://127.0.0.1:1", `{"q":"{{question}}"}`
		tg, err := New(cfg)
		if err != nil || tg.Kind() != s.Kind {
			t.Errorf("New(%s) = %v, %v", s.Kind, tg, err)
		}
		if _, err := New(Config{Kind: s.Kind}); !errors.Is(err, ErrConfig) {
			t.Errorf("New(%s) without base_url: %v", s.Kind, err)
		}
	}
	if p := CheckKind("coze"); !strings.Contains(p, "ragflow") {
		t.Errorf("CheckKind = %q, want the known kinds listed", p)
	}
	if err := (&Config{}).Set("concurrency", "4"); err == nil {
		t.Error("Set on a non-string field succeeded")
	}
}

// A missing required field is named by its label.
func TestNewNamesMissingField(t *testing.T) {
	_, err := New(Config{Kind: "ragflow", BaseURL: "http://x"})
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "Chat assistant ID (chat_id)") {
		t.Fatalf("err = %v", err)
	}
}
