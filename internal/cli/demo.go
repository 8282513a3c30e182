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

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/text"
)

// runDemo writes the bundled sample workbook into DIR and evaluates it
// offline with the two baseline judges, lexical (word overlap) and semantic
// (embedding similarity), so that judges side by side, the mean ± SD across
// judges and their agreement are real: the whole job with no endpoint and
// no set-up. Outputs: DIR/report.xlsx, DIR/SUMMARY.json and the run store.
func runDemo(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("out", "cube-demo", "folder for the sample, the report and SUMMARY.json")
	langFlag := fs.String("lang", envLang("zh"), "language of the report and the output: zh or en")
	if _, err := parseInterspersed(fs, args); err != nil {
		return ExitUsage
	}
	if *langFlag != "zh" && *langFlag != "en" {
		fmt.Fprintf(stderr, "--lang %q: zh or en\n", *langFlag)
		return ExitUsage
	}
	lang := text.LangOf(*langFlag) // parsed once: everything below speaks text.Lang
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		sayErr(stderr, err, lang)
		return ExitBadInput
	}
	book := filepath.Join(*dir, sample.FileName)
	if err := os.WriteFile(book, sample.Workbook(), 0o644); err != nil {
		sayErr(stderr, err, lang)
		return ExitBadInput
	}
	p := profile.Default()
	p.Language = *langFlag
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}, {Name: "semantic", Semantic: true}}
	lexical, semantic := glossary.JudgeName("lexical", lang), glossary.JudgeName("semantic", lang)
	fmt.Fprintln(stderr, text.New(
		"演示：使用内置的虚构示例数据，由两个离线基线评审评分："+lexical+"（按词语重合）与"+semantic+"（按字面相似度），都不是大模型。",
		"Demo: the bundled fictional sample, judged offline by two baseline judges, the "+lexical+" (word overlap) and the "+semantic+" (surface similarity); neither is an LLM.").In(lang))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return evaluate(ctx, evalOptions{
		workbook:  book,
		out:       filepath.Join(*dir, "report.xlsx"),
		jsonPath:  filepath.Join(*dir, "SUMMARY.json"),
		storePath: filepath.Join(*dir, "cube-sample.cube.db"),
		offline:   true,
		yes:       true,
	}, p, stdin, stdout, stderr)
}
