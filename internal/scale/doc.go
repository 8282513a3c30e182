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
//
// BenchmarkEndToEnd (issue 27) runs what `cubectl evaluate BIG.xlsx
// --offline --yes --out … --json …` runs, in one process, over 100,000
// questions and 2,000 guides judged by the two offline judges (lexical,
// semantic), and reports each stage's wall time, CPU time and the process's
// peak resident set, with the load average; scripts/bench.sh prints it into
// the README's table:
//
//	go test -run '^$' -bench EndToEnd -benchtime 1x -timeout 60m ./internal/scale
//
// The same workbook for the command line (written outside the repository):
//
//	go run ./internal/scale/bigbook -out /tmp/BIG.xlsx
//
// The figures below are the issue-8 measurement, before issue 27.
//
// Measured on the 2-core shared build machine, 100,000 questions (50,000
// guides, 2.4 million judgements on three scores sheets, 65 MB workbook):
// generate 10 s; ingest.Open 43 s, peak heap 1.9 GB; engine.Run 197 s, peak
// heap 2.4 GB, of which the BLEU/ROUGE-L baselines (engine.computeBaselines)
// take about 127 s of CPU and CuBE itself 3 s; report.Write 23 s, 99.5 MB,
// peak heap 2.1 GB.
package scale
