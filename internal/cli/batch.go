package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"cubeworkbench/core/profile"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// runBatch is `cubectl batch export|import`: move an evaluation's LLM calls
// to a GPU cluster (vLLM run-batch) or the OpenAI Batch API and back.
func runBatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "export" && args[0] != "import") {
		fmt.Fprintln(stderr, "usage: cubectl batch export WORKBOOK --out REQUESTS.jsonl [--profile P] [--store RUN.db]\n       cubectl batch import WORKBOOK RESULTS.jsonl [--store RUN.db]")
		return ExitUsage
	}
	fs := flag.NewFlagSet("batch "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	profilePath := fs.String("profile", "", "evaluation profile (TOML)")
	storePath := fs.String("store", "", "run store (default: WORKBOOK.cube.db)")
	out := fs.String("out", "", "export: the JSONL file to write")
	positional, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p, err := loadProfile(*profilePath)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitBadInput
	}
	lang := text.LangOf(p.Language)
	switch args[0] {
	case "export":
		if len(positional) != 1 || *out == "" {
			fmt.Fprintln(stderr, "batch export needs WORKBOOK and --out REQUESTS.jsonl")
			return ExitUsage
		}
		return batchExport(ctx, positional[0], storeOr(*storePath, positional[0]), *out, p, stdout, stderr)
	default:
		if len(positional) != 2 {
			fmt.Fprintln(stderr, "batch import needs WORKBOOK and RESULTS.jsonl")
			return ExitUsage
		}
		f, err := os.Open(positional[1])
		if err != nil {
			sayErr(stderr, err, lang)
			return ExitBadInput
		}
		defer f.Close()
		rep, err := session.BatchImport(ctx, storeOr(*storePath, positional[0]), f)
		if err != nil {
			sayErr(stderr, err, lang)
			return ExitBadInput
		}
		for _, fl := range rep.Failures {
			fmt.Fprintf(stderr, text.New("第 %d 行：%s\n", "line %d: %s\n").In(lang), fl.Line, fl.Reason)
		}
		fmt.Fprintf(stdout, text.New(
			"共 %d 行：导入 %d，已在运行记录库中 %d，失败 %d，重复 %d，未知 %d，格式错误 %d；仍有 %d 个请求待处理。\n",
			"%d lines: %d imported, %d already in the store, %d failed, %d duplicated, %d unknown, %d malformed; %d requests still pending.\n").In(lang),
			rep.Lines, rep.Imported, rep.AlreadyStored, rep.Failed, rep.Duplicates, rep.Unknown, rep.Malformed, len(rep.StillPending))
		return ExitOK
	}
}

func storeOr(path, workbook string) string {
	if path != "" {
		return path
	}
	return defaultStorePath(workbook)
}

// batchExport runs the evaluation with recorders in place of the judge and
// generator endpoints, then writes what they deferred.
func batchExport(ctx context.Context, workbook, storePath, out string, p profile.Profile, stdout, stderr io.Writer) int {
	lang := text.LangOf(p.Language)
	sess, ok := openClean(ctx, workbook, session.OpenOptions{StorePath: storePath}, lang, stderr)
	if !ok {
		return ExitBadInput
	}
	// Into a temporary file beside out, renamed over it when complete: a
	// full disk or an interruption never leaves a half file to upload.
	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		if cerr := session.CheckOutputs(session.File(out)); cerr != nil {
			err = cerr // names out, not the temporary file
		}
		sayErr(stderr, err, lang)
		return ExitBadInput
	}
	n, err := sess.BatchExport(ctx, p, f, newPrinter(stderr, isTerminal(stderr), lang))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), out)
	}
	if err != nil {
		os.Remove(f.Name())
		sayErr(stderr, err, lang)
		return ExitBadInput
	}
	fmt.Fprintf(stdout, text.New(
		"已将 %d 个请求写入 %s。执行后（vllm run-batch -i %s -o results.jsonl --model M，或 OpenAI Batch API），运行：cubectl batch import %s results.jsonl。上下界答案先生成：重复导出、导入直到没有待处理请求，再运行 cubectl evaluate。\n",
		"Wrote %d requests to %s. Run them (vllm run-batch -i %s -o results.jsonl --model M, or the OpenAI Batch API), then: cubectl batch import %s results.jsonl. Bound answers come first: repeat export/import until nothing is pending, then run cubectl evaluate.\n").In(lang),
		n, out, out, workbook)
	return ExitOK
}
