package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"cubeworkbench/core/httpsafe"
)

// TestConnection sends a tiny prompt to ep and returns the answer, for the
// UI's "Test connection" button and `cubectl` checks. It retries once at
// most, so a dead endpoint is reported in seconds rather than minutes; a
// reply cut short still proves the endpoint works. Explain a failure to the
// user with Hint(err, lang).
func TestConnection(ctx context.Context, ep Endpoint, opts ...Option) (string, error) {
	ep.MaxRetries = 1
	if ep.BackoffMax <= 0 || ep.BackoffMax > 2*time.Second {
		ep.BackoffMax = 2 * time.Second
	}
	c, err := New(ep, opts...)
	if err != nil {
		return "", err
	}
	r, err := c.Complete(ctx, Request{
		Messages:  []Message{{Role: "user", Content: "Reply with the single word OK. 请只回复 OK。"}},
		MaxTokens: 64,
	})
	if errors.Is(err, ErrTruncated) {
		return r.Raw, nil
	}
	if err != nil {
		return "", err
	}
	return r.Content, nil
}

// Models lists the model names the endpoint serves (GET /models), for a
// model picker. It makes one attempt: a listing is not worth retrying.
func (c *Client) Models(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.ep.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, c.modelsURL, nil)
	if err != nil {
		return nil, fmt.Errorf("llm %s: list models: %w", c.ep.Name, err)
	}
	c.authorize(hr)
	resp, err := c.hc.Do(hr)
	if err != nil {
		return nil, c.wrap(fmt.Errorf("list models: %w", err), 1)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, c.wrap(fmt.Errorf("list models: %w", err), 1)
	}
	if resp.StatusCode != http.StatusOK {
		ae := parseAPIError(resp.StatusCode, data)
		ae.Message = httpsafe.Redact(ae.Message)
		return nil, c.wrap(fmt.Errorf("list models: %w", ae), 1)
	}
	var w struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, c.wrap(fmt.Errorf("list models: %w: %v", ErrMalformed, snippet(data)), 1)
	}
	names := make([]string, len(w.Data))
	for i, d := range w.Data {
		names[i] = d.ID
	}
	return names, nil
}
