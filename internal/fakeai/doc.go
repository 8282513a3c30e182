// Package fakeai is an in-process OpenAI-compatible server (chat
// completions, embeddings, models) for tests and benchmarks of every package
// that talks to an LLM: llm, judge, generate, engine, ui.
//
// It answers deterministically (a score derived from a hash of the
// messages), records every request it decodes, counts repeated bodies and
// the concurrency high-water mark, and injects the faults real endpoints
// show (apis.md §5): 429 with Retry-After, 5xx, slow replies, malformed
// JSON, empty choices, garbage text, out-of-range scores, <think> blocks,
// reasoning fields, finish_reason "length", and a server that dies after N
// requests. It imports nothing from the project so any package can use it.
package fakeai
