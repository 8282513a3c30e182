// Package ingest reads the evaluation workbook (spec/workbook.md) into the
// shared nouns of package dataset: an .xlsx file, a folder of CSV files, or a
// QA set as JSONL or JSON (our column names, ragas' names, or CoFE-RAG's
// `{"examples":[...]}` form, Liu et al. 2024, arXiv:2410.12248).
//
// Reading never stops at the first problem: every problem of a file is a
// Problem in the Report, bilingual and located by file, sheet, row and
// column, so an officer can fix a workbook in one pass. Sheets are streamed
// row by row by our own readers (the .xlsx parts through archive/zip and
// encoding/xml behind a filter that bounds every token; CSV by an RFC 4180
// parser), so a knowledge base of hundreds of thousands of service items
// costs the guides themselves and little else, a hostile file costs at most
// a cell's worth per token, and damage is reported where it is. What a cell
// says (escapes, dates, numbers) is read by core/xlsxcell, the cell reader
// core/docparse uses too.
package ingest
