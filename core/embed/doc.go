// Package embed turns texts into vectors for MFSS accuracy and coherence
// (formulas.md §2). Two embedders: any OpenAI-compatible /v1/embeddings
// endpoint (the MFSS paper used all-MiniLM-L6-v2, which Ollama serves as
// all-minilm), and an offline hashed character n-gram embedder that needs no
// model, so MFSS runs anywhere and deterministically. Scores from different
// embedders are not comparable; reports name the embedder (Name).
package embed
