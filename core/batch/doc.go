// Package batch moves an evaluation's LLM calls to a GPU cluster: it
// records every request a run would send as pending in the run store,
// exports them as an OpenAI Batch API JSONL file (custom_id = the store's
// request key) — the format OpenAI's Batch API and vLLM's run-batch consume —
// and imports the result file back into the store, idempotently. A later
// run finds the replies in the store and makes no call.
package batch
