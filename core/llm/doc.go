// Package llm talks to any OpenAI-compatible chat and embeddings endpoint
// (Ollama, vLLM, llama.cpp, LM Studio, DeepSeek, DashScope, OpenAI, Azure)
// with per-endpoint concurrency and rate limits, retries with backoff that
// honour Retry-After, timeouts, token accounting and cost estimates.
//
// The wire format follows the OpenAI chat completions API with the quirks
// of each server recorded in spec/apis.md §5. The request body is built
// here instead of with go-openai v1.43.0 because that library drops
// temperature 0 (float32 omitempty, and Ollama then samples at 1.0), has no
// fields for DashScope's enable_thinking or DeepSeek's thinking switch,
// does not read Ollama's "reasoning" reply field, and hides the Retry-After
// headers a polite client must honour.
//
// Under faults the endpoint stays busy: a request holds its concurrency slot
// only while an attempt is on the wire (backoff and Retry-After are waited
// outside it, gate.go), 429s adapt the concurrency (AIMD), and parameters
// the model refuses are adapted to once and listed (Adaptations, adapt.go).
// Every HTTP client comes from httpsafe (no cross-host redirects), and every
// error is redacted of every known key (httpsafe.RedactError).
//
// Replies follow the score-parser rule of apis.md §5: only
// choices[0].message.content is the answer, reasoning fields are kept
// apart, <think> blocks are stripped, and an empty or cut-off reply is an
// error (ErrEmptyReply, ErrTruncated) so callers count it as unscorable.
package llm
