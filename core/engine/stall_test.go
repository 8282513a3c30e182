package engine

import (
	"strings"
	"testing"
	"time"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
)

// stall_seconds and total_timeout_seconds reach the client; unset, the
// client's defaults (60 s without a byte, ten minutes a request) apply.
func TestStallSettingsReachTheClient(t *testing.T) {
	p, err := profile.Parse([]byte("[[judge]]\nname = \"j\"\nbase_url = \"http://127.0.0.1:11434/v1\"\nmodel = \"m\"\nstall_seconds = 5\ntotal_timeout_seconds = 90\n\n[[judge]]\nname = \"k\"\nbase_url = \"http://127.0.0.1:11434/v1\"\nmodel = \"m\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	ep := LLMEndpoint(p.Judges[0], "j", p.Judges[0].BaseURL)
	if ep.StallTimeout != 5*time.Second || ep.TotalTimeout != 90*time.Second {
		t.Errorf("endpoint %+v", ep)
	}
	c, err := llm.New(LLMEndpoint(p.Judges[1], "k", p.Judges[1].BaseURL))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Endpoint(); got.StallTimeout != llm.DefaultStallTimeout || got.TotalTimeout != llm.DefaultTotalTimeout {
		t.Errorf("defaults %v %v", got.StallTimeout, got.TotalTimeout)
	}
}

// server = "auto" (the default) makes the client ask the server once; a
// named server is taken as said; an unknown one is refused by name.
func TestServerSetting(t *testing.T) {
	base := "[[judge]]\nname = \"j\"\nbase_url = \"http://10.0.0.9:9999/v1\"\nmodel = \"m\"\n"
	for setting, want := range map[string]string{"": llm.ProviderAuto, "server = \"ollama\"\n": llm.ProviderOllama, "server = \"vLLM\"\n": llm.ProviderVLLM} {
		p, err := profile.Parse([]byte(base + setting))
		if err != nil {
			t.Fatal(err)
		}
		if got := LLMEndpoint(p.Judges[0], "j", p.Judges[0].BaseURL).Provider; got != want {
			t.Errorf("%q: provider %q, want %q", setting, got, want)
		}
	}
	if _, err := profile.Parse([]byte(base + "server = \"olama\"\n")); err == nil || !strings.Contains(err.Error(), "olama") {
		t.Errorf("a misspelt server: %v", err)
	}
}
