// Package retrieve ranks chunks for a query, as the retrieval stage of the
// CoFE-RAG full-chain evaluation (Liu et al. 2024, arXiv:2410.12248;
// formulas.md §3) needs: BM25 (Robertson & Zaragoza 2009, "The
// Probabilistic Relevance Framework: BM25 and Beyond") with Lucene's idf,
// dense cosine retrieval over an embed.Embedder, hybrid fusion by reciprocal
// rank (Cormack, Clarke & Büttcher 2009, "Reciprocal Rank Fusion Outperforms
// Condorcet and Individual Rank Learning Methods"). The rerank endpoints'
// client is package rerank; nothing here touches the network.
package retrieve
