// Package dimension is the registry of built-in judging dimensions: CuBE's
// rubric (relevance, specificity, completeness, quality) and CoFE-RAG's
// generation metrics (correctness, faithfulness, relevancy). Each entry holds
// everything the rest of the product needs to know about a dimension — its
// name, its titles in both languages, the advice a weak score earns, the
// rules the offline lexical and semantic judges score it by, and where its
// prompt lives — so a new built-in dimension is one entry here plus its
// prompts/ templates.
// It imports only core/text, so the methods, the charts and the report can
// use it.
package dimension
