package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"cubeworkbench/core/aspect"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/generate"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/querytype"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

const generateUsage = `  cubectl generate WORKBOOK --per-guide N --out QA.xlsx [--types factual,…] [--aspects 申请材料,…]
                            [--sample K] [--seed S] [--column 实施主体 --values A,B] [--profile P]
                            [--no-critic] [--keep-flagged] [--store RUN.db] [--yes]
                                 a test set from the guides, filtered; the questions no filter doubts are saved
`

// GenerateOptions are generate's flags.
type GenerateOptions struct {
	Workbook, ProfilePath, Out, StorePath string
	PerGuide, Sample                      int
	Seed                                  int64
	Types, Aspects                        []string // canonical names
	Column                                string
	Values                                []string
	NoCritic, KeepFlagged, Yes            bool
	// NewCompleter replaces the generator's client (tests).
	NewCompleter func(profile.Endpoint) (llm.Completer, error)
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '，' || r == '、' }) {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parseGenerate(args []string, stderr io.Writer) (GenerateOptions, error) {
	var o GenerateOptions
	var types, aspects, values string
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.PerGuide, "per-guide", 1, "questions per guide")
	fs.StringVar(&o.Out, "out", "", "write the reviewed set here (.xlsx)")
	fs.StringVar(&types, "types", "", "query types, comma-separated: factual, analytical, comparative, tutorial (or 事实类…); default all four")
	fs.StringVar(&aspects, "aspects", "", "aspects, comma-separated: "+strings.Join(aspect.Names(), ", ")+" (or 申请材料…); default none in particular")
	fs.IntVar(&o.Sample, "sample", 0, "a random sample of this many guides (0: every guide chosen)")
	fs.Int64Var(&o.Seed, "seed", 1, "seed of the guide sample")
	fs.StringVar(&o.Column, "column", "", "keep the guides whose COLUMN (a department or region) is one of --values")
	fs.StringVar(&values, "values", "", "values of --column to keep, comma-separated")
	fs.StringVar(&o.ProfilePath, "profile", "", "evaluation profile (TOML) naming the [generator]")
	fs.StringVar(&o.StorePath, "store", "", "run store (default: WORKBOOK.cube.db beside the workbook)")
	fs.BoolVar(&o.NoCritic, "no-critic", false, "do not ask the generator whether each question's guide answers it")
	fs.BoolVar(&o.KeepFlagged, "keep-flagged", false, "save the questions a filter doubts too (their reasons stay in the review sheet)")
	fs.BoolVar(&o.Yes, "yes", false, "do not ask before making paid calls")
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		return o, err
	}
	if len(positional) != 1 || o.Out == "" {
		return o, errors.New("generate needs exactly one WORKBOOK and --out QA.xlsx")
	}
	if o.PerGuide < 1 {
		return o, fmt.Errorf("--per-guide %d: at least 1", o.PerGuide)
	}
	if o.Column != "" && values == "" || o.Column == "" && values != "" {
		return o, errors.New("--column and --values go together")
	}
	o.Workbook, o.Values = positional[0], splitList(values)
	for _, t := range splitList(types) {
		name := dataset.CanonicalQueryType(t)
		if _, ok := querytype.Lookup(name); !ok {
			return o, fmt.Errorf("--types: unknown query type %q (factual, analytical, comparative, tutorial)", t)
		}
		o.Types = append(o.Types, name)
	}
	for _, a := range splitList(aspects) {
		x, ok := aspect.Lookup(a)
		if !ok {
			return o, fmt.Errorf("--aspects: unknown aspect %q (%s)", a, strings.Join(aspect.Names(), ", "))
		}
		o.Aspects = append(o.Aspects, x.Name)
	}
	return o, nil
}

func runGenerate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseGenerate(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		fmt.Fprint(stderr, generateUsage)
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return GenerateSet(ctx, o, stdin, stdout, stderr)
}

// GenerateSet is `cubectl generate`: write, filter and save a test set.
// With no officer to review it, the questions no filter doubts are
// accepted and the others rejected (--keep-flagged accepts them too); the
// review sheet of the saved file records every question and its reasons.
func GenerateSet(ctx context.Context, o GenerateOptions, stdin io.Reader, stdout, stderr io.Writer) int {
	p := profile.Default()
	var err error
	if o.ProfilePath != "" {
		if p, err = profile.Load(o.ProfilePath); err != nil {
			fmt.Fprintln(stderr, err)
			return ExitBadInput
		}
	}
	lang := text.LangOf(p.Language)
	sess, ok := openClean(ctx, o.Workbook, session.OpenOptions{AllGuides: true, StorePath: o.StorePath}, lang, stderr)
	if !ok {
		return ExitBadInput
	}
	if p.Generator == nil {
		fmt.Fprintln(stderr, text.New(
			"评估配置中没有 [generator] 生成模型：请添加（base_url、model）后再生成问题。", "The profile names no [generator] model: add one (base_url, model) to write questions.").In(lang))
		return ExitBadInput
	}
	if !o.Yes && isTerminal(stdin) {
		per := 2
		if o.NoCritic {
			per = 1
		}
		fmt.Fprintf(stderr, text.New("每个问题最多调用 %s %d 次。继续吗？[y/N] ", "Up to %d calls per question to %s. Go ahead? [y/N] ").In(lang), per, p.Generator.Name)
		line, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" && a != "是" {
			fmt.Fprintln(stderr, text.New("未调用任何接口。", "Nothing was called.").In(lang))
			return ExitOK
		}
	}
	ts, err := sess.Generate(ctx, p, session.GenerateOptions{
		Select:       generate.Selection{Column: o.Column, Values: o.Values, Sample: o.Sample, Seed: o.Seed},
		Spec:         generate.Spec{PerGuide: o.PerGuide, Types: o.Types, Aspects: o.Aspects},
		NoCritic:     o.NoCritic,
		NewCompleter: o.NewCompleter,
	})
	if ts != nil {
		for _, pr := range ts.Problems {
			fmt.Fprintf(stderr, text.New("指南 %s：未能生成问题：%v\n", "guide %s: no question: %v\n").In(lang), pr.GuideID, pr.Err)
		}
	}
	if err != nil {
		sayErr(stderr, err, lang)
		if ctx.Err() != nil {
			return ExitInterrupted
		}
		return ExitBadInput
	}
	for _, c := range ts.Candidates {
		for _, f := range c.Flags {
			fmt.Fprintf(stdout, "%s %s\n    %s\n", c.ID, c.Question, f.In(lang))
		}
	}
	var accepted, rejected int
	if o.KeepFlagged {
		for i := range ts.Candidates {
			ts.Candidates[i].Decision = generate.Accepted
		}
		accepted = len(ts.Candidates)
	} else {
		accepted, rejected = ts.AcceptUnflagged()
	}
	printCounts(stdout, ts, lang)
	fmt.Fprintln(stdout, text.New(
		fmt.Sprintf("由 %d 条指南生成 %d 个问题；保留 %d 个，筛除 %d 个。", len(ts.Guides), len(ts.Candidates), accepted, rejected),
		fmt.Sprintf("%d questions written from %d guides; %d kept, %d set aside by the filters.", len(ts.Candidates), len(ts.Guides), accepted, rejected)).In(lang))
	if accepted == 0 {
		fmt.Fprintln(stderr, text.New("没有问题通过筛选，未保存。", "No question passed the filters; nothing saved.").In(lang))
		return ExitBadInput
	}
	if _, err := sess.SaveTestSet(o.Out, ts, lang); err != nil {
		sayErr(stderr, err, lang)
		return ExitBadInput
	}
	fmt.Fprintln(stderr, text.New("已写入 ", "Wrote ").In(lang)+o.Out)
	return ExitOK
}

// printCounts prints the kept questions per query type and aspect.
func printCounts(w io.Writer, ts *session.TestSet, lang text.Lang) {
	byType, byAspect := ts.Counts(generate.Accepted)
	var parts []string
	for _, t := range querytype.All() {
		if n := byType[t.Name]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", t.Title(lang), n))
		}
	}
	fmt.Fprintln(w, text.New("按问题类型：", "By query type: ").In(lang)+strings.Join(parts, text.New("，", ", ").In(lang)))
	parts = nil
	for _, a := range aspect.All() {
		if n := byAspect[a.Name]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", a.Title(lang), n))
		}
	}
	if n := byAspect[""]; n > 0 {
		parts = append(parts, fmt.Sprintf("%s %d", text.New("未指定方面", "no aspect asked").In(lang), n))
	}
	fmt.Fprintln(w, text.New("按方面：", "By aspect: ").In(lang)+strings.Join(parts, text.New("，", ", ").In(lang)))
}
