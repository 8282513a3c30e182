// Package textmetric holds the text measures that compare an answer with a
// reference without a model: the MFSS tokenisation rules (formulas.md §2),
// ROUGE as google-research rouge-score computes it (Lin 2004, "ROUGE: A
// Package for Automatic Evaluation of Summaries") and BLEU as sacreBLEU
// computes it (Papineni et al. 2002; Post 2018, "A Call for Clarity in
// Reporting BLEU Scores").
//
// Everything here is pure and deterministic so that reports are reproducible
// and checkable against the reference implementations' own test vectors.
package textmetric
