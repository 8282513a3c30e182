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
//	CUBE_SCALE_ITEMS=20000 CUBE_SCALE_HEAP=/tmp/heap go test -run '^$' \
//	    -bench EndToEnd -benchtime 1x ./internal/scale
//
//	stage             live heap   a question   what it is
//	after open           45 MB      2.2 KB     texts (question, three answers,
//	                                           reference), Item, its answers
//	                                           map (about 0.3 KB) and retrieved
//	                                           list ≈ 1.9 KB; 2,000 guides ~5 MB
//	judging (peak)       96 MB      +0.5 KB    judgements 0.34 KB (24 × 13 B in
//	                                           dataset.Scores' columns, with its
//	                                           tables), the judge at work's task
//	                                           list 0.17 KB (12 B a task); + the
//	                                           semantic judge's memo (~34 MB),
//	                                           dropped when its judgements are
//	                                           made; the items are not copied
//	after evaluate       88 MB      4.4 KB     + CuBE's item details ~1 KB,
//	                                           baselines 0.38 KB, MFSS 0.36 KB
//	report (peak)       101 MB                 + the report writer's buffers
//
// The process's peak RSS was 234 MB, against 374 MB for the same benchmark
// before these changes (aaac945, measured the same hour, load average 10).
// What changed: the judgements are a dataset.Scores (every text and the
// score a code into a table of distinct values, numbers in the narrowest
// width: about 13 bytes a judgement of the offline judges against 136 for
// a dataset.Judgement, so 0.3 KB a question where it was 3.26 KB); an
// evaluation shares the session's items array, which the engine copies
// only before it first writes into an item (0.2 KB a question); the judge
// task list is 12 bytes a task (was 40). The garbage collector lets the
// heap grow to twice the live data (GOGC=100), so the peak RSS is about
// 2–2.5 × the largest live heap, which is now the metrics stage: CuBE's
// item details and MFSS beside the items' texts.
//
// At 100,000 questions (2026-12-02, load average 11–18, so the times are
// not the machine's): BenchmarkEndToEnd peak RSS 893 MB (open 390 MB,
// evaluate 890 MB, report 893 MB; 117.7 s CPU), against 1,517 MB before on
// a quiet machine; `/usr/bin/time -v cubectl evaluate BIG.xlsx --offline
// --yes --profile two.toml --out r.xlsx --json S.json` 921,756 kB maximum
// resident (1,542,256 kB before), 93.0 s user + 4.6 s system. The live
// heap peaked at 484 MB in the metrics stage (CUBE_SCALE_HEAP, measured
// before the scores were coded and the items shared, about 35 MB less).
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
