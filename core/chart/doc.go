// Package chart draws the figures of the CuBE, MFSS and CoFE-RAG reports with
// gonum/plot and renders them to image.Image, PNG or SVG. It knows nothing of
// Fyne (the ui shows the images, core/report puts the PNGs into Excel).
//
// Figures follow the papers: score histograms per judge × dimension and the
// rank-score/score correlation heatmaps of CuBE (Figures 1–4 of "CuBE:
// Customizable Bounds Evaluation"), the zero/rag/full bound bars and the
// per-judge CuBE score with bootstrap intervals (formulas.md §1), the six-factor
// radar of MFSS (§2) and the per-query-type and chunk-size figures of CoFE-RAG
// (§3).
//
// All text is drawn with the printed pages' face of assets/fonts (Noto Sans CJK SC, subset),
// because gonum/plot has no per-glyph fallback and titles mix Han and Latin.
// Undefined values are nil pointers and are drawn as "n/a" (不适用), never as 0.
package chart
