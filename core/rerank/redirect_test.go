package rerank

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCrossHostRedirectRefused: a reranker that answers 307 to another
// host is refused — the query and the passages are not sent there.
// 127.0.0.1 and localhost are two hosts to net/http.
func TestCrossHostRedirectRefused(t *testing.T) {
	var elsewhere int
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere++
		io.WriteString(w, `{"results":[{"index":0,"relevance_score":0.9}]}`)
	}))
	defer other.Close()
	away := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, away+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer origin.Close()
	c, err := New(Config{BaseURL: origin.URL, Kind: KindVLLM})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Rerank(context.Background(), "q", []string{"办理材料：身份证"}, 1)
	if err == nil || !strings.Contains(err.Error(), "重定向") {
		t.Fatalf("err = %v, want the cross-host redirect refused", err)
	}
	if elsewhere != 0 {
		t.Fatalf("the other host was asked %d times", elsewhere)
	}
}
