// Package scale measures the QA side of an evaluation end to end at a size
// the product promises (issue 8: 100,000 questions): it generates a workbook
// of N questions with two imported judges' scores, reads it (core/ingest),
// evaluates it offline (core/engine: CuBE, MFSS, baselines) and writes the
// report (core/report), timing each stage and sampling peak memory.
//
// The package holds only the generator, the memory sampler and the test:
//
//	CUBE_SCALE_ITEMS=100000 go test -run Scale -v -timeout 60m ./internal/scale
//
// Without CUBE_SCALE_ITEMS the test runs at 2,000 questions so that
// `go test ./...` stays quick.
package scale
