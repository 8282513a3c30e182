package engine

import (
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
