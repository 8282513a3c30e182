package llm

import "testing"

func intp(i int) *int { return &i }

func TestRequestKeyGolden(t *testing.T) {
	// Expected values computed outside Go: printf '%s' '<canonical>' | sha256sum
	cases := []struct {
		model     string
		req       Request
		canonical string
		key       string
	}{
		{
			"qwen2.5:32b",
			Request{Messages: []Message{{Role: "system", Content: "评分规则"}, {Role: "user", Content: `Question: <a> & "b"`}},
				Temperature: 0, Seed: intp(7), MaxTokens: 512},
			`{"v":1,"model":"qwen2.5:32b","temperature":0,"seed":7,"max_tokens":512,"json":false,"messages":[{"role":"system","content":"评分规则"},{"role":"user","content":"Question: <a> & \"b\""}]}`,
			"4b6bfe0ff173052d2a982d45cb9e11a077e79d60d83862ecd16820382ec82f74",
		},
		{
			"m", Request{Temperature: 0.7, JSON: true},
			`{"v":1,"model":"m","temperature":0.7,"seed":null,"max_tokens":0,"json":true,"messages":[]}`,
			"fbe6a5c5d8617578f1f41be9122c4aa0894c8af2557a4563b781ceae7299f001",
		},
	}
	for _, c := range cases {
		if got := string(canonical(c.model, c.req)); got != c.canonical {
			t.Errorf("canonical =\n%s\nwant\n%s", got, c.canonical)
		}
		if got := RequestKey(c.model, c.req); got != c.key {
			t.Errorf("RequestKey = %s, want %s", got, c.key)
		}
	}
}

func TestRequestKeyDistinguishes(t *testing.T) {
	base := Request{Messages: []Message{{Role: "user", Content: "q"}}, Seed: intp(1)}
	k := RequestKey("a", base)
	variants := map[string]func() (string, Request){
		"model":       func() (string, Request) { return "b", base },
		"seed":        func() (string, Request) { r := base; r.Seed = intp(2); return "a", r },
		"nil seed":    func() (string, Request) { r := base; r.Seed = nil; return "a", r },
		"temperature": func() (string, Request) { r := base; r.Temperature = 0.1; return "a", r },
		"max tokens":  func() (string, Request) { r := base; r.MaxTokens = 10; return "a", r },
		"json":        func() (string, Request) { r := base; r.JSON = true; return "a", r },
		"role": func() (string, Request) {
			r := base
			r.Messages = []Message{{Role: "system", Content: "q"}}
			return "a", r
		},
	}
	for name, v := range variants {
		if RequestKey(v()) == k {
			t.Errorf("%s: key unchanged", name)
		}
	}
	// Same seed value through a different pointer: same key.
	r := base
	r.Seed = intp(1)
	if RequestKey("a", r) != k {
		t.Error("equal requests give different keys")
	}
}
