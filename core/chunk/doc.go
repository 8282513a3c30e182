// Package chunk splits documents into the passages a retriever indexes, with
// the three chunkers the CoFE-RAG evaluation sweeps (Liu et al. 2024,
// arXiv:2410.12248; formulas.md §3): fixed windows of tokens with overlap
// (the paper's 512/100; sweeps of 128, 256, 512), sentence packing, and one
// chunk per document (the CuBE paper's choice for service guides).
//
// Tokens are those of textmetric.TokenizeChinese — every Han character one
// token, every run of other letters or digits one token — so chunk sizes
// mean the same thing as the BM25 index's terms. Chunks carry byte spans
// into the original text so a chunk's text is always a verbatim slice.
package chunk
