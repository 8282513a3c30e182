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
// # Bytes per question at each stage (issue 27)
//
// Measured with CUBE_SCALE_HEAP=DIR (heap profiles after open, at each new
// high of the live heap, after evaluate and after the report; read them
// with go tool pprof -sample_index=inuse_space) at 20,000 questions over
// 2,000 guides judged by lexical and semantic, so 24 judgements a question:
//
//	stage             live heap   a question   what it is
//	after open           42 MB      1.9 KB     texts 1.13 KB (question, three answers,
//	                                           reference), Item and its answers map
//	                                           0.53 KB, retrieved list 0.10 KB;
//	                                           2,000 guides 4.7 MB
//	judging (peak)      181 MB      +3.9 KB    judgements 3.26 KB (24 × 136 B
//	                                           dataset.Judgement), the session's
//	                                           copy of the items 0.2 KB (answer maps
//	                                           shared), the judge at work's task
//	                                           list 0.48 KB; + each offline judge's
//	                                           memo, at most 8,192 texts (~30 MB),
//	                                           dropped when its judgements are made
//	after evaluate      142 MB      7.1 KB     + CuBE's item details 0.72 KB,
//	                                           baselines 0.58 KB, MFSS 0.36 KB
//	report (peak)       216 MB                 + the report writer's buffers, ~45 MB
//
// Before issue 27's memory changes the live heap peaked at 261–278 MB (the
// answer maps copied for the session's clone, 0.3 KB a question, and both
// judges' memos held through MFSS and the baselines), and the process's
// peak RSS was 637 MB against 410 MB now at this size. The garbage
// collector lets the heap grow to twice the live data (GOGC=100), so the
// peak RSS is about 2–2.5 × the largest live heap. What remains largest
// is the judgements: dataset.Judgement is 136 bytes, 24 of them a
// question; a dense store (scores indexed by item, set, judge and
// dimension, notes as codes) would make that about 0.3 KB, but every
// reader of Workbook.Scores (cube, cofe, report, explain, compare, the
// window) reads the slice, so it is a change of the workbook's type.
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
