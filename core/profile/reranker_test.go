package profile

import (
	"errors"
	"strings"
	"testing"
)

func TestRerankerSection(t *testing.T) {
	for _, c := range []struct {
		toml string
		want string // "" = valid
	}{
		{"[reranker]\nbase_url = \"http://h:8080\"\n", ""},
		{"[reranker]\nbase_url = \"http://h:8080\"\nkind = \"tei\"\n", ""},
		{"[reranker]\nbase_url = \"http://h:9997\"\nkind = \"xinference\"\nmodel = \"bge\"\napi_key_env = \"XINF_KEY\"\n", ""},
		{"[reranker]\nkind = \"vllm\"\n", "reranker has no base_url"},
		{"[reranker]\nbase_url = \"http://h\"\nkind = \"cohere\"\n", `reranker kind "cohere"`},
		{"[reranker]\nbase_url = \"http://h\"\nkind = \"xinference\"\n", "needs model"},
		{"[reranker]\nbase_url = \"http://h\"\napi_key_env = \"sk-abc\"\n", "not hold a key"},
		{"[reranker]\nbase_url = \"http://h\"\nurl = \"x\"\n", "unknown keys reranker.url"},
	} {
		p, err := Parse([]byte(c.toml))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.toml, err)
		case c.want == "" && p.Reranker == nil:
			t.Errorf("%q: section not read", c.toml)
		case c.want != "" && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: err %v, want %q", c.toml, err, c.want)
		}
	}
	if p := Default(); p.Reranker != nil {
		t.Error("the default profile has a reranker")
	}
}
