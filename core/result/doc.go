// Package result holds the types an evaluation produces and every front end
// reads: the summary (SUMMARY.json), its verdict, run record, problems,
// warnings and baselines. The engine fills them, the session hands them to
// the window and the CLI, the report and the charts read them; none of
// those keeps a copy of its own. SUMMARY.json's contract is this package's
// (contract.go, docs/summary.md), not the tags of the method packages whose
// results it maps: add fields freely, rename none.
//
// A new kind of finding another package reports (a hidden sheet, an
// unmapped retrieved document, a doubtful MFSS factor) is a Warning with a
// Source of its own, not a new field; a new section of results is one
// pointer field on Summary, nil when absent, and one block in the report.
package result
