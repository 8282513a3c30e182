// Package llm talks to any OpenAI-compatible chat and embeddings endpoint
// (Ollama, vLLM, llama.cpp, LM Studio, DeepSeek, DashScope, OpenAI, Azure)
// with per-endpoint concurrency and rate limits, retries with backoff that
// honour Retry-After, timeouts, token accounting and cost estimates.
package llm
