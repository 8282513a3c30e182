package cli

import (
	"context"
	"cubeworkbench/core/result"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/chunk"
	"cubeworkbench/core/cofe"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// runSweep is `cubectl sweep`: CoFE-RAG over several chunkers and
// retrievers on the same corpus and questions — the data of the CoFE
// paper's chunk-size figure — as a table, JSON and a chart.
func runSweep(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	profilePath := fs.String("profile", "", "evaluation profile (TOML): k, recall_n, corpus, embedder")
	chunkers := fs.String("chunkers", "fixed:128,fixed:256,fixed:512,sentence:256,document", "chunkers to compare: fixed:SIZE, sentence:SIZE, document")
	overlap := fs.Int("overlap", -1, "overlap of fixed chunks in tokens (default: a fifth of the size)")
	retrievers := fs.String("retrievers", "bm25,dense,hybrid", "retrievers to compare: bm25, dense, hybrid")
	jsonPath := fs.String("json", "", "write the sweep as JSON here")
	pngPath := fs.String("png", "", "write the chunk-size chart (accuracy@k per retriever) here")
	positional, err := parseInterspersed(fs, args)
	if err != nil || len(positional) != 1 {
		fmt.Fprintln(stderr, "usage: cubectl sweep WORKBOOK [--profile P] [--chunkers …] [--retrievers …] [--json F] [--png F]")
		return ExitUsage
	}
	p, err := loadProfile(*profilePath)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitBadInput
	}
	lang := text.LangOf(p.Language)
	var cs []chunk.Chunker
	var sizes []int // chunk size of each chunker, 0 when it has none
	for _, spec := range strings.Split(*chunkers, ",") {
		kind, sizeText, _ := strings.Cut(strings.TrimSpace(spec), ":")
		size, _ := strconv.Atoi(sizeText)
		ov := *overlap
		if ov < 0 {
			ov = size / 5
		}
		c, err := chunk.New(kind, size, ov)
		if err != nil {
			sayErr(stderr, err, lang)
			return ExitUsage
		}
		cs = append(cs, c)
		if kind == chunk.KindFixed {
			sizes = append(sizes, size)
		} else {
			sizes = append(sizes, 0)
		}
	}
	rs := strings.Split(*retrievers, ",")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := session.CheckOutputs(session.File(*jsonPath), session.File(*pngPath)); err != nil {
		sayErr(stderr, err, lang)
		return ExitBadInput
	}
	sess, ok := openClean(ctx, positional[0], session.OpenOptions{AllGuides: true}, lang, stderr)
	if !ok {
		return ExitBadInput
	}
	pr := newPrinter(stderr, isTerminal(stderr), lang)
	res, skipped, err := sess.Sweep(ctx, p, cs, rs, func(done, total int) {
		pr.Event(result.Event{Step: "sweep", Done: done, Total: total, Finished: done == total})
	})
	for _, e := range skipped {
		fmt.Fprintln(stderr, e)
	}
	if errors.Is(err, session.ErrNoDocuments) {
		fmt.Fprintln(stderr, text.New("没有可检索的文档：工作簿没有办事指南，配置也未指定语料目录。", "No documents to retrieve over: the workbook has no guides and the profile names no corpus.").In(lang))
		return ExitBadInput
	}
	if err != nil {
		sayErr(stderr, err, lang)
		if ctx.Err() != nil {
			return ExitInterrupted
		}
		return ExitBadInput
	}
	t := &table{}
	for _, row := range res.Table() {
		t.add(row...)
	}
	t.write(stdout)
	if *jsonPath != "" {
		if err := writeJSON(*jsonPath, res); err != nil {
			sayErr(stderr, err, lang)
			return ExitBadInput
		}
	}
	if *pngPath != "" {
		if err := sweepChart(res, cs, sizes, rs, lang, *pngPath); err != nil {
			sayErr(stderr, err, lang)
			return ExitBadInput
		}
		fmt.Fprintln(stderr, text.New("已写入 ", "Wrote ").In(lang)+*pngPath)
	}
	return ExitOK
}

// sweepChart draws accuracy@k against the fixed chunk sizes, one line per
// retriever; chunkers without a size (sentence, document) are in the table.
func sweepChart(res *cofe.SweepResult, cs []chunk.Chunker, sizes []int, rs []string, lang text.Lang, path string) error {
	var lines []chart.Line
	for ri, name := range rs {
		l := chart.Line{Name: name}
		for ci := range cs {
			if sizes[ci] == 0 {
				continue
			}
			row := res.Rows[ci*len(rs)+ri]
			l.X = append(l.X, float64(sizes[ci]))
			l.Y = append(l.Y, row.AccuracyAtK)
		}
		if len(l.X) > 0 {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return fmt.Errorf("sweep: no fixed-size chunker to draw against chunk size")
	}
	fig, err := chart.ChunkSweep(chart.Sweep{Metric: "accuracy@k", Lines: lines}, chart.Options{Lang: lang})
	if err != nil {
		return err
	}
	png, err := fig.PNG()
	if err != nil {
		return err
	}
	return session.WriteFileAtomic(path, png, 0o644)
}
