// Package judge turns an answer into a score: it renders a rubric prompt for
// one dimension, asks an LLM judge, and parses the reply into a number (or
// declares it unscorable, never 0).
//
// CuBE (Customizable Bounds Evaluation, formulas.md §1) scores each answer on
// relevance, specificity, completeness and quality, 0–10, with a rubric of
// five two-point criteria per dimension; users may add dimensions of their
// own. CoFE-RAG (formulas.md §3) adds correctness 1–5 against a reference
// answer and faithfulness / relevancy YES/NO, after LlamaIndex's evaluators.
// The templates live in package prompts.
//
// Parsing follows apis.md §5: only the message content is read, <think>
// blocks are dropped, an empty or length-truncated reply is a failure. An
// explicitly labelled score ("Score: 7", "评分：七", {"score": 7}) is
// preferred and the last one wins; then phrases such as "7 out of 10" or
// "7分"; then a line holding nothing but a number. Replies that cannot be
// read are retried with another seed and, failing that, kept as unscorable
// with a reason code; Reparse re-reads stored replies after a parser change.
//
// Lexical is an offline baseline, NOT an LLM judge: it scores by word
// overlap between the answer, the question and the source document, so the
// pipeline can run with no model at all (demo, CI, air-gapped checks). Its
// numbers are not comparable with an LLM judge's and the report says so
// (MethodNote).
//
// Semantic is the second offline baseline, also NOT an LLM: it compares
// offline hashed embeddings (core/embed) of the answer with the question
// and with the guide's sentences, so that judges can be compared side by
// side with no model (SemanticMethodNote).
package judge
