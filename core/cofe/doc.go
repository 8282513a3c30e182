// Package cofe implements the retrieval side of CoFE-RAG (Liu et al. 2024,
// "CoFE-RAG: A Comprehensive Full-chain Evaluation Framework for
// Retrieval-Augmented Generation with Enhanced Data Diversity",
// arXiv:2410.12248) exactly as formulas.md §3 states it: multi-granularity
// keyword matching over chunk lists, Accuracy@k after reranking, Recall over
// the whole retrieved list, Coverage over the whole corpus, the mean
// fine-group hit score, and sweeps over chunkers and retrievers.
//
// The reference code (Alibaba-NLP/CoFE-RAG, eval_search/) computes Coverage
// ("offline_hit") with the query string in place of the coarse keywords and
// without cleaning chunk texts; here every chunk of the corpus is cleaned and
// matched with the real coarse keywords.
package cofe
