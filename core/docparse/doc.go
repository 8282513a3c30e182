// Package docparse extracts the plain text of the documents a RAG knowledge
// base is built from (txt, md, html, docx, pptx, xlsx, pdf), so that the
// CoFE-RAG full-chain evaluation (Liu et al. 2024, "CoFE-RAG: A
// Comprehensive Full-chain Evaluation Framework for Retrieval-Augmented
// Generation with Enhanced Data Diversity", arXiv:2410.12248) can chunk and
// index the same corpus the system under test saw.
//
// Only text is kept: layout, images and formatting are dropped, paragraph
// and row breaks become newlines so that sentence splitting still works.
// A spreadsheet's cells read through core/xlsxcell, as the evaluation
// workbook's do in core/ingest.
package docparse
