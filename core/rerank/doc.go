// Package rerank is the client for the rerank endpoints CoFE-RAG's
// reranking stage calls: vLLM and Xinference (Jina shape: model, query,
// documents, top_n → results[].relevance_score) and Hugging Face TEI (its
// own shape: query, texts → a bare array of index and score, only at
// /rerank). A profile's [reranker] section names the server kind or lets
// New detect it. It lives apart from retrieve so that the methods (cofe)
// link no network package.
package rerank
