package httpsafe

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

func TestRedact(t *testing.T) {
	Register("sk-target-0123456789", "tok-judge-abcdef", "x") // "x" is too short to register
	t.Cleanup(func() { Forget("sk-target-0123456789", "tok-judge-abcdef") })
	cases := []struct{ name, in, want string }{
		{"registered key echoed", "invalid key sk-target-0123456789 for chat", "invalid key [redacted] for chat"},
		{"echoed Authorization header", `{"error":"bad header Authorization: Bearer sk-unknown-999999"}`, `{"error":"bad header Authorization: Bearer [redacted]"}`},
		{"api-key header of an unknown key", "api-key: abcdef123456 refused", "api-key: [redacted] refused"},
		{"url password", "dial http://admin:hunter22@10.0.0.1/v1 failed", "dial http://[redacted]@10.0.0.1/v1 failed"},
		{"query key", `Get "https://h/v1/chat?key=AIzaSECRET&x=1": EOF`, `Get "https://h/v1/chat?key=[redacted]&x=1": EOF`},
		{"url-encoded registered key", "?q=tok-judge-abcdef", "?q=[redacted]"},
		{"short registered value left alone", "x marks the spot", "x marks the spot"},
		{"ordinary words untouched", "invalid token provided; Basic authentication required", "invalid token provided; Basic authentication required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Redact(c.in); got != c.want {
				t.Fatalf("Redact(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

func TestRedactErrorKeepsChain(t *testing.T) {
	Register("sk-chain-0123456789")
	t.Cleanup(func() { Forget("sk-chain-0123456789") })
	err := RedactError(fmt.Errorf("target said sk-chain-0123456789: %w", fs.ErrPermission))
	if strings.Contains(err.Error(), "sk-chain") || !errors.Is(err, fs.ErrPermission) || !IsRedacted(err) {
		t.Fatalf("RedactError = %v (is ErrPermission %v)", err, errors.Is(err, fs.ErrPermission))
	}
	if RedactError(nil) != nil {
		t.Fatal("nil must stay nil")
	}
}

// A bilingual error (text.Error) inside a redacted one is redacted too:
// the front ends show text.Of(err) or the session's Explain, which read
// the words of the first text.Error in the chain, not err.Error() (a
// reranker's reply echoing the key in its body, quoted in the error).
func TestRedactErrorRedactsItsText(t *testing.T) {
	Register("sk-text-0123456789")
	t.Cleanup(func() { Forget("sk-text-0123456789") })
	said := text.NewError(text.New("回复中没有 results：{\"key\":\"sk-text-0123456789\"}", "reply has no results: {\"key\":\"sk-text-0123456789\"}"), fs.ErrInvalid)
	err := RedactError(fmt.Errorf("rerank: http://h/rerank: %w", said))
	var te *text.Error
	if !errors.As(err, &te) || !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("RedactError = %v: the chain is lost", err)
	}
	for _, s := range []string{text.Of(err).In(text.ZH), text.Of(err).In(text.EN), te.ZH, te.EN, te.Error(), err.Error()} {
		if strings.Contains(s, "sk-text") || !strings.Contains(s, Placeholder) {
			t.Errorf("%q: want the key redacted", s)
		}
	}
}

func TestSanitizeURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"http://user:PASSWORD@host:8080/v1?key=K123&api-version=2024", "http://host:8080/v1?key=[redacted]&api-version=2024"},
		{"https://h/v1?access_token=abc&token=def", "https://h/v1?access_token=[redacted]&token=[redacted]"},
		{"http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1"},
	}
	for _, c := range cases {
		if got := SanitizeURL(c.in); got != c.want {
			t.Errorf("SanitizeURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	sec := URLSecrets("http://user:PASSWORD@host/v1?key=K123")
	if strings.Join(sec, ",") != "PASSWORD,dXNlcjpQQVNTV09SRA==,K123" {
		t.Fatalf("URLSecrets = %v", sec)
	}
}

func TestSanitizeText(t *testing.T) {
	in := "[target]\nbase_url = \"http://user:PASSWORD@host/api?key=QQQ\"\n"
	got := SanitizeText(in)
	if strings.Contains(got, "PASSWORD") || strings.Contains(got, "QQQ") || !strings.Contains(got, `"http://host/api?key=[redacted]"`) {
		t.Fatalf("SanitizeText = %q", got)
	}
}
