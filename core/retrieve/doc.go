// Package retrieve ranks chunks for a query, as the retrieval stage of the
// CoFE-RAG full-chain evaluation (Liu et al. 2024, arXiv:2410.12248;
// formulas.md §3) needs: BM25 (Robertson & Zaragoza 2009, "The
// Probabilistic Relevance Framework: BM25 and Beyond") with Lucene's idf,
// dense cosine retrieval over an embed.Embedder, hybrid fusion by reciprocal
// rank (Cormack, Clarke & Büttcher 2009, "Reciprocal Rank Fusion Outperforms
// Condorcet and Individual Rank Learning Methods"), and a client for the
// /v1/rerank endpoints served by vLLM, Hugging Face TEI and Xinference
// (apis.md §3).
package retrieve
