// Package embed turns texts into vectors for MFSS accuracy and coherence
// (formulas.md §2). It holds the Embedder interface and the offline hashed
// character n-gram embedder that needs no model, so MFSS runs anywhere and
// deterministically. The OpenAI-compatible /v1/embeddings client (the MFSS
// paper used all-MiniLM-L6-v2, which Ollama serves as all-minilm) is in
// package openaiembed, kept apart so the methods that take an Embedder do
// not link net/http. Scores from different embedders are not comparable;
// reports name the embedder (Name).
package embed
