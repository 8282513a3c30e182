package profile

import (
	"errors"
	"strings"
	"testing"
)

func TestParseCLIExample(t *testing.T) {
	src := `
language = "zh"
top_n = 8
trim = 0.10
subset = "retrieved"
weights = "correlation"
dimensions = ["relevance", "specificity", "completeness", "quality"]

[[judge]]
name = "qwen2.5-32b"
base_url = "http://127.0.0.1:11434/v1"
model = "qwen2.5:32b"
api_key_env = "QWEN_API_KEY"
concurrency = 8
repeats = 1
weights = {relevance = 0.3048, specificity = 0.2486, completeness = 0.1906, quality = 0.2560}

[generator]
base_url = "http://127.0.0.1:11434/v1"
model = "qwen2.5:32b"

[target]
kind = "ragflow"
base_url = "http://127.0.0.1:9380"
api_key_env = "RAGFLOW_API_KEY"
`
	p, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Judges) != 1 || p.Judges[0].Weights["quality"] != 0.2560 || p.Judges[0].Concurrency != 8 {
		t.Fatalf("judge = %+v", p.Judges)
	}
	if p.Generator == nil || p.Generator.Model != "qwen2.5:32b" || p.Target == nil || p.Target.Kind != "ragflow" {
		t.Fatalf("generator/target = %+v %+v", p.Generator, p.Target)
	}
	if mode, _, _ := p.WeightMode(); mode != "correlation" {
		t.Fatalf("mode = %s", mode)
	}
	if p.Bootstrap != 1000 || p.CoFE.K != 4 {
		t.Fatalf("defaults lost: %+v", p)
	}
}

func TestWeightModes(t *testing.T) {
	cases := []struct {
		src, mode string
		wantErr   bool
	}{
		{`weights = "equal"`, "equal", false},
		{`weights = {relevance = 1, quality = 0.5}`, "hand", false},
		{`weights = "magic"`, "", true},
		{`weights = {relevance = -1}`, "", true},
	}
	for _, c := range cases {
		p, err := Parse([]byte(c.src))
		if c.wantErr {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%s: err = %v, want ErrInvalid", c.src, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		mode, table, _ := p.WeightMode()
		if mode != c.mode {
			t.Errorf("%s: mode %s", c.src, mode)
		}
		if mode == "hand" && table["relevance"] != 1 {
			t.Errorf("%s: table %v", c.src, table)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	cases := map[string]string{
		"language":   `language = "fr"`,
		"top_n":      `top_n = 0`,
		"trim":       `trim = 0.5`,
		"subset":     `subset = "some"`,
		"unknown":    `colour = "red"`,
		"no model":   "[[judge]]\nname = \"a\"\nbase_url = \"http://x/v1\"",
		"twice":      "[[judge]]\nname = \"a\"\n[[judge]]\nname = \"a\"",
		"key inline": "[[judge]]\nname = \"a\"\napi_key_env = \"sk-123\"",
		"target":     "[target]\nkind = \"x\"",
	}
	for name, src := range cases {
		if _, err := Parse([]byte(src)); err == nil {
			t.Errorf("%s: accepted %q", name, src)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	p := Default()
	p.Judges = []Endpoint{{Name: "j", BaseURL: "http://127.0.0.1:1/v1", Model: "m", APIKeyEnv: "J_KEY"}}
	data, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	q, err := Parse(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if q.Judges[0].APIKeyEnv != "J_KEY" || q.TopN != 8 || !strings.Contains(string(data), "J_KEY") {
		t.Fatalf("round trip lost fields: %+v", q)
	}
}

// allow_redirects and max_reply_bytes are read for every endpoint; a
// negative cap is refused.
func TestEndpointTransportSettings(t *testing.T) {
	cases := []struct {
		toml    string
		allow   bool
		cap     int64
		invalid bool
	}{
		{"[[judge]]\nname = \"j\"\nbase_url = \"http://h/v1\"\nmodel = \"m\"\nallow_redirects = true\nmax_reply_bytes = 65536\n", true, 65536, false},
		{"[[judge]]\nname = \"j\"\nbase_url = \"http://h/v1\"\nmodel = \"m\"\n", false, 0, false},
		{"[[judge]]\nname = \"j\"\nbase_url = \"http://h/v1\"\nmodel = \"m\"\nmax_reply_bytes = -1\n", false, -1, true},
	}
	for _, c := range cases {
		p, err := Parse([]byte(c.toml))
		if c.invalid {
			if err == nil || !strings.Contains(err.Error(), "max_reply_bytes") {
				t.Errorf("%q: err = %v, want max_reply_bytes refused", c.toml, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.toml, err)
		}
		if j := p.Judges[0]; j.AllowRedirects != c.allow || j.MaxReplyBytes != c.cap {
			t.Errorf("%q: allow_redirects %v max_reply_bytes %d", c.toml, j.AllowRedirects, j.MaxReplyBytes)
		}
	}
}

// TestOfflineJudges: both offline baselines are neither imported nor in
// need of a model, and survive a round trip through TOML.
func TestOfflineJudges(t *testing.T) {
	for _, e := range []Endpoint{{Name: "lexical", Lexical: true}, {Name: "semantic", Semantic: true}} {
		if e.Imported() || !e.Offline() {
			t.Errorf("%s: imported %v, offline %v", e.Name, e.Imported(), e.Offline())
		}
	}
	p := Default()
	p.Judges = []Endpoint{{Name: "lexical", Lexical: true}, {Name: "semantic", Semantic: true}}
	if err := p.Validate(); err != nil {
		t.Errorf("valid offline judges rejected: %v", err)
	}
	data, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	q, err := Parse(data)
	if err != nil || len(q.Judges) != 2 || !q.Judges[0].Lexical || !q.Judges[1].Semantic || q.Judges[1].Lexical {
		t.Fatalf("round trip: %+v %v\n%s", q.Judges, err, data)
	}
	if !strings.Contains(string(data), "semantic = true") {
		t.Errorf("TOML lacks semantic = true:\n%s", data)
	}
}
