// Package report writes the Excel report leadership reads (issue 5): a first
// sheet that answers "can we deploy?" in plain Chinese or English, the
// method behind it, the CuBE paper's Tables 2–4 per judge and side by side
// (formulas.md §1), every item with every judge's score, the correlation
// heatmaps, agreement with experts, MFSS (§2) and CoFE-RAG (§3) when they
// ran, and the problems met on the way.
//
// The report is also a workbook (workbook.md): its `guides`, `qa`, `scores`
// and `human` sheets carry the canonical sheet and column names, so
// `cubectl evaluate` re-opens it and finds every judgement already made —
// no endpoint is called again.
//
// Words: every label and sentence the report writes is a text.Text
// (Chinese first) in its sheet's wording file (method_words.go …, words.go
// for those several sheets share); a thing the glossary names takes the
// glossary's name (glossaryName), and words_test.go fails on an inline
// pair or a second wording of a glossary term. Each analysis sheet is built
// as a page model (sheetPage; Page for the Summary) before writePage lays
// it out, so its content is tested without excelize.
//
// Safety: text from a model, a user or a document is always written as a
// string cell, never a formula, and one that starts like a formula
// (= + - @ tab CR) also carries Excel's quote-prefix so editing it in Excel
// keeps it text; text over Excel's 32,767-character limit is cut with a
// visible marker (the full text stays in the run store); keys never reach
// the file (judges are named by endpoint host only).
//
// Large sheets (Items, guides, qa, scores, Problems) stream so memory
// stays flat with the item count: excelize's StreamWriter writes each
// one's frame (columns, panes, filter, print setup) and rowWriter its rows
// — the bytes StreamWriter.SetRow would write, without its allocations —
// deflated as they come in a goroutine of their own into a temporary file;
// saving splices them into the sheet's zip part (splice.go). At 100,000
// items (2.4 million judgements) that took the writer from 51 s of CPU and
// a 1.2 GB peak (input included) to 12 s and 0.65 GB (BenchmarkWrite).
// excelize has no error bars, so the CuBE-per-judge column chart gets its
// <c:errBars> (custom plus/minus ranges from the sheet) spliced into the
// chart part before saving: it stays a native chart leadership can restyle.
package report
