// Package mfss is the Multi-Factor Scoring System: a model answer is scored
// against a reference answer on six factors — accuracy (embedding cosine),
// factual consistency (content-token overlap), readability, coherence
// (cosine of adjacent sentences), ROUGE and conciseness — and a weighted
// total, exactly as formulas.md §2 defines them (the paper's "exponential
// and quadratic penalties" and the Chinese target sentence length are our
// readings, stated there). Every factor is in [0, 1] and never NaN.
package mfss
