package cli

import (
	"context"
	"cubeworkbench/core/result"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"unicode/utf8"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// compareUsage is compare's line of the usage text.
const compareUsage = `  cubectl compare A [B] [--sets rag,系统B] [--profile P] [--json F] [--out F] [--stores A.db,B.db] [--offline] [--lang zh|en]
                                 did B really get better than A? two workbooks, or two answer sets of one
`

type compareOptions struct {
	a, b           string
	setA, setB     string
	profilePath    string
	langFlag       string
	jsonPath, out  string
	storeA, storeB string
	offline        bool
	regressions    int
}

func parseCompare(args []string, stderr io.Writer) (compareOptions, error) {
	var o compareOptions
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sets := fs.String("sets", "", "the two answer sets compared, A,B (default: rag and the workbook's other system)")
	stores := fs.String("stores", "", "the run stores of A and B, A.db,B.db (default: beside each workbook)")
	fs.StringVar(&o.profilePath, "profile", "", "evaluation profile (TOML)")
	fs.StringVar(&o.jsonPath, "json", "", "write the comparison as JSON here")
	fs.StringVar(&o.out, "out", "", "write the Excel report of A with its Comparison sheet here")
	fs.StringVar(&o.langFlag, "lang", "", "language of the output: zh or en (default: the profile's)")
	fs.BoolVar(&o.offline, "offline", false, "forbid every network call")
	fs.IntVar(&o.regressions, "regressions", 10, "how many regressions to list")
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		return o, err
	}
	switch len(positional) {
	case 1:
		o.a = positional[0]
	case 2:
		o.a, o.b = positional[0], positional[1]
	default:
		return o, fmt.Errorf("compare needs one WORKBOOK (with --sets) or two, A and B / compare 需要一个工作簿（配合 --sets）或两个（A 与 B）")
	}
	if *sets != "" {
		parts := strings.Split(*sets, ",")
		if len(parts) != 2 || strings.TrimSpace(parts[0]) == "" || strings.TrimSpace(parts[1]) == "" {
			return o, fmt.Errorf("--sets %q: two answer sets, A,B (e.g. rag,系统B) / --sets 须为两个答案集，如 rag,系统B", *sets)
		}
		o.setA, o.setB = strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	}
	if *stores != "" {
		parts := strings.Split(*stores, ",")
		if len(parts) != 2 {
			return o, fmt.Errorf("--stores %q: two run stores, A.db,B.db / --stores 须为两个运行记录库", *stores)
		}
		o.storeA, o.storeB = strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	}
	if o.langFlag != "" && o.langFlag != "zh" && o.langFlag != "en" {
		return o, fmt.Errorf("--lang %q: zh or en", o.langFlag)
	}
	return o, nil
}

func runCompare(args []string, stdout, stderr io.Writer) int {
	o, err := parseCompare(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitUsage
	}
	p, err := loadProfile(o.profilePath)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitBadInput
	}
	if o.langFlag != "" {
		p.Language = o.langFlag
	}
	lang := text.LangOf(p.Language)
	if len(p.Judges) == 0 {
		// As the demo and the window's default: a first comparison works
		// anywhere, and says plainly that the judge is not an LLM.
		p.Judges = []profile.Endpoint{{Name: result.LexicalJudge, Lexical: true}}
		fmt.Fprintln(stderr, pick(lang,
			"No judge in the profile: the offline lexical baseline judge (not an LLM) scores both sides.",
			"配置中没有评审模型：由词汇基线评审（离线，不是大模型）为两方评分。"))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	pr := newPrinter(stderr, isTerminal(stderr), lang)
	co := session.CompareOptions{EvalOptions: session.EvalOptions{Offline: o.offline, Progress: pr}}
	var res *compare.Result
	var sessA *session.Session
	if o.b == "" {
		sessA, err = session.Open(ctx, o.a, session.OpenOptions{StorePath: o.storeA})
		if err == nil {
			if err = checked(sessA, lang, stderr); err == nil {
				res, err = sessA.CompareSets(ctx, p, o.setA, o.setB, co)
			}
		}
	} else {
		var c *session.Comparison
		c, err = session.CompareWorkbooks(ctx, p, session.CompareSide{Path: o.a, Set: o.setA, Store: o.storeA},
			session.CompareSide{Path: o.b, Set: o.setB, Store: o.storeB}, co)
		if c != nil {
			res, sessA = c.Result, c.A
		}
	}
	if err != nil {
		return compareFailed(ctx, err, lang, stderr)
	}
	printComparison(stdout, res, lang, o.regressions)
	if o.jsonPath != "" {
		if err := writeJSON(o.jsonPath, res); err != nil {
			sayErr(stderr, err, lang)
			return ExitBadInput
		}
		fmt.Fprintln(stderr, pick(lang, "Wrote ", "已写入 ")+o.jsonPath)
	}
	if o.out != "" {
		return writeReport(ctx, sessA, o.out, lang, pr, stderr)
	}
	return ExitOK
}

// checked prints what the reader found and refuses a workbook with errors.
func checked(s *session.Session, lang text.Lang, stderr io.Writer) error {
	if rep := s.Report; rep != nil {
		for _, pr := range rep.Problems {
			fmt.Fprintln(stderr, pr.Message(lang.String()))
		}
	}
	return s.Check()
}

func compareFailed(ctx context.Context, err error, lang text.Lang, stderr io.Writer) int {
	return stopped(ctx, err, "", lang, stderr)
}

// printComparison prints the headline, the verdict, the warnings, the delta
// table, the per-question counts and the regressions worst first.
func printComparison(w io.Writer, r *compare.Result, lang text.Lang, maxRegressions int) {
	fmt.Fprintln(w, r.Headline.In(lang.String()))
	v := compare.VerdictText(r.Verdict)
	fmt.Fprintf(w, "%s%s (%s)\n", pick(lang, "Verdict: ", "结论："), v.In(lang.String()), v.In(otherLang(lang)))
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w)
		for _, m := range r.Warnings {
			fmt.Fprintf(w, "!! %s %s\n", pick(lang, "WARNING", "警告"), m.In(lang.String()))
		}
	}
	fmt.Fprintln(w)
	na, nb := r.Names() // rag → 被测系统回答 / system answers
	nameA, nameB := na.In(lang), nb.In(lang)
	fmt.Fprintf(w, "%s %s → %s: %d %s\n", pick(lang, "Compared", "比较"), nameA, nameB, r.Paired,
		pick(lang, "paired questions (B − A; paired resampling, "+fmt.Sprint(r.BootstrapB)+" resamples, seed "+fmt.Sprint(r.Seed)+")",
			"个配对问题（B − A；配对重抽样 "+fmt.Sprint(r.BootstrapB)+" 次，种子 "+fmt.Sprint(r.Seed)+"）"))
	t := &table{}
	t.add(pick(lang, "figure", "指标"), nameA, nameB, "Δ", pick(lang, "95% CI", "95% 区间"), pick(lang, "detectable", "可检测差异"), pick(lang, "verdict", "结论"))
	for _, row := range compare.Rows(r, lang.String()) {
		d := row.Delta
		t.add(row.Label, compare.Fmt1(d.A), compare.Fmt1(d.B), compare.FmtSigned(d.Diff), compare.FmtCI(d.CI95), compare.Fmt1(d.Detectable), compare.VerdictText(d.Verdict).In(lang.String()))
	}
	t.write(w)
	fmt.Fprintln(w)
	fmt.Fprintf(w, pick(lang, "Questions: %d better, %d worse, %d about the same, %d not comparable (tolerance ±%.1f points)\n",
		"逐题：%d 个变好，%d 个变差，%d 个基本不变，%d 个无法比较（容差 ±%.1f 分）\n"), r.Better, r.Worse, r.Same, r.NotComparable, r.Tolerance)
	if len(r.Regressions) > 0 {
		fmt.Fprintln(w, pick(lang, "Regressions, worst first:", "回退的问题（最严重的在前）："))
		for _, ch := range r.Regressions[:min(maxRegressions, len(r.Regressions))] {
			d := ch.Diff
			fmt.Fprintf(w, "  %-8s %7s  %s\n", ch.ID, compare.FmtSigned(&d), clip(ch.Question, 48))
		}
		if len(r.Regressions) > maxRegressions {
			fmt.Fprintf(w, pick(lang, "… %d more (all in --json and the report)\n", "……另有 %d 个（完整列表见 --json 与报告）\n"), len(r.Regressions)-maxRegressions)
		}
	}
	for _, b := range r.Bullets {
		if b.Code == "items" || strings.HasPrefix(b.Code, "dimension:") || b.Code == "sides" {
			continue // in the table and the counts above
		}
		fmt.Fprintln(w, "→ "+b.In(lang.String()))
	}
}

func otherLang(lang text.Lang) string {
	if lang == "zh" {
		return "en"
	}
	return "zh"
}

// clip shortens s to n characters with an ellipsis.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
