package httpsafe

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

// TestCrossHostRedirect: a 307 to another host is refused with the
// bilingual error unless the endpoint allows redirects; a redirect within
// the same host is followed. 127.0.0.1 and localhost are two hosts to
// net/http, which is what a redirect to another machine looks like.
func TestCrossHostRedirect(t *testing.T) {
	var elsewhere int
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere++
		io.WriteString(w, `{"score":5}`)
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, otherURL+"/v1/chat", http.StatusTemporaryRedirect)
		case "/near":
			http.Redirect(w, r, "/here", http.StatusTemporaryRedirect)
		default:
			io.WriteString(w, "ok")
		}
	}))
	defer origin.Close()

	cases := []struct {
		name, path string
		allow      bool
		refused    bool
	}{
		{"other host refused", "/away", false, true},
		{"other host allowed by the profile", "/away", true, false},
		{"same host followed", "/near", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := elsewhere
			resp, err := NewClient(Options{AllowRedirects: c.allow}).Post(origin.URL+c.path, "application/json", strings.NewReader(`{"q":"guide text"}`))
			if resp != nil {
				resp.Body.Close()
			}
			if c.refused {
				if !errors.Is(err, ErrCrossHostRedirect) || !strings.Contains(err.Error(), "重定向") {
					t.Fatalf("err = %v, want ErrCrossHostRedirect", err)
				}
				// Each language on its own, both naming the hop (issue 21).
				zh, en := text.Of(err).In(text.ZH), text.Of(err).In(text.EN)
				if !strings.Contains(zh, "重定向") || strings.Contains(zh, "redirected") || strings.Contains(en, "重定向") ||
					!strings.Contains(zh, "→ http://localhost:") || !strings.Contains(en, "→ http://localhost:") {
					t.Fatalf("zh %q, en %q; want each language on its own, naming the hop", zh, en)
				}
				if elsewhere != before {
					t.Fatal("the other host was contacted")
				}
				return
			}
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("err %v status %v", err, resp)
			}
		})
	}
	// net/http's default client follows the cross-host 307 silently: this
	// is the behaviour the policy replaces.
	resp, err := http.Post(origin.URL+"/away", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

// After net/http's limit of redirects the policy stops, in each language
// on its own.
func TestTooManyRedirects(t *testing.T) {
	req := httptest.NewRequest("GET", "http://a.example/x", nil)
	via := make([]*http.Request, maxRedirects)
	for i := range via {
		via[i] = req
	}
	err := RedirectPolicy(false)(req, via)
	if zh, en := text.Of(err).In(text.ZH), text.Of(err).In(text.EN); zh != "停止于 10 次重定向" || en != "stopped after 10 redirects" {
		t.Errorf("zh %q, en %q", zh, en)
	}
}
