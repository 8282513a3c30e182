// Package gen builds the bundled sample workbook (assets/sample): a fictional
// province, 云川省, with about sixty service guides (办事指南), a question set
// for CuBE (Customizable Bounds Evaluation), MFSS (Multi-Factor Scoring) and
// CoFE-RAG (coarse/fine keyword full-chain evaluation), and expert ratings.
//
// Everything is invented and says so in the README sheet. The content is data
// in Go (guides.go, questions.go) and the answers are derived from it by
// templates (answers.go), so that every claim of an answer can be traced to a
// document: the gold one when the simulated retriever found it, a
// near-duplicate when it did not. Answer quality follows the gold document's
// rank, which gives CuBE's rank–score correlation weights something to find.
//
// Build is deterministic (a fixed-seed splitmix64, fixed document properties,
// no timestamps), so `go generate ./assets/sample` reproduces the embedded
// file byte for byte.
package gen
