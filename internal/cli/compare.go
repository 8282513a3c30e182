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
		return o, text.NewError(text.New("compare 需要一个工作簿（配合 --sets）或两个（A 与 B）",
			"compare needs one WORKBOOK (with --sets) or two, A and B"), nil)
	}
	if *sets != "" {
		parts := strings.Split(*sets, ",")
		if len(parts) != 2 || strings.TrimSpace(parts[0]) == "" || strings.TrimSpace(parts[1]) == "" {
			return o, text.NewError(text.New(fmt.Sprintf("--sets %q：须为两个答案集，如 rag,系统B", *sets),
				fmt.Sprintf("--sets %q: two answer sets, A,B (e.g. rag,v2)", *sets)), nil)
		}
		o.setA, o.setB = strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	}
	if *stores != "" {
		parts := strings.Split(*stores, ",")
		if len(parts) != 2 {
			return o, text.NewError(text.New(fmt.Sprintf("--stores %q：须为两个运行记录库，如 A.db,B.db", *stores),
				fmt.Sprintf("--stores %q: two run stores, A.db,B.db", *stores)), nil)
		}
		o.storeA, o.storeB = strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	}
	if o.langFlag != "" && o.langFlag != "zh" && o.langFlag != "en" {
		return o, fmt.Errorf("--lang %q: zh or en", o.langFlag)
	}
	return o, nil
}

// usageLang is the language a command line that cannot run is refused
// in: --lang, else CUBE_LANG, else the profile's (the default profile's
// when the named one does not load).
func usageLang(langFlag, profilePath string) text.Lang {
	if langFlag == "zh" || langFlag == "en" {
		return text.Lang(langFlag)
	}
	p, err := loadProfile(profilePath)
	if err != nil {
		p, _ = loadProfile("")
	}
	return text.LangOf(p.Language)
}

func runCompare(args []string, stdout, stderr io.Writer) int {
	o, err := parseCompare(args, stderr)
	if err != nil {
		sayErr(stderr, err, usageLang(o.langFlag, o.profilePath))
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
		fmt.Fprintln(stderr, text.New(
			"配置中没有评审模型：由词汇基线评审（离线，不是大模型）为两方评分。",
			"No judge in the profile: the offline lexical baseline judge (not an LLM) scores both sides.").In(lang))
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
		fmt.Fprintln(stderr, text.New("已写入 ", "Wrote ").In(lang)+o.jsonPath)
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
			fmt.Fprintln(stderr, pr.Message(lang))
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
	fmt.Fprintln(w, r.Headline.In(lang))
	v := compare.VerdictText(r.Verdict)
	fmt.Fprintf(w, "%s%s (%s)\n", text.New("结论：", "Verdict: ").In(lang), v.In(lang), v.In(otherLang(lang)))
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w)
		for _, m := range r.Warnings {
			fmt.Fprintf(w, "!! %s %s\n", text.New("警告", "WARNING").In(lang), m.In(lang))
		}
	}
	fmt.Fprintln(w)
	na, nb := r.Names() // rag → 被测系统回答 / system answers
	nameA, nameB := na.In(lang), nb.In(lang)
	fmt.Fprintf(w, "%s %s → %s: %d %s\n", text.New("比较", "Compared").In(lang), nameA, nameB, r.Paired,
		text.New(
			"个配对问题（B − A；配对重抽样 "+fmt.Sprint(r.BootstrapB)+" 次，种子 "+fmt.Sprint(r.Seed)+"）", "paired questions (B − A; paired resampling, "+fmt.Sprint(r.BootstrapB)+" resamples, seed "+fmt.Sprint(r.Seed)+")").In(lang),
	)
	t := &table{}
	t.add(text.New("指标", "figure").In(lang), nameA, nameB, "Δ", text.New("95% 区间", "95% CI").In(lang), text.New("可检测差异", "detectable").In(lang), text.New("结论", "verdict").In(lang))
	for _, row := range compare.Rows(r, lang) {
		d := row.Delta
		t.add(row.Label, compare.Fmt1(d.A), compare.Fmt1(d.B), compare.FmtSigned(d.Diff), compare.FmtCI(d.CI95), compare.Fmt1(d.Detectable), compare.VerdictText(d.Verdict).In(lang))
	}
	t.write(w)
	fmt.Fprintln(w)
	fmt.Fprintf(w, text.New(
		"逐题：%d 个变好，%d 个变差，%d 个基本不变，%d 个无法比较（容差 ±%.1f 分）\n", "Questions: %d better, %d worse, %d about the same, %d not comparable (tolerance ±%.1f points)\n").In(lang),
		r.Better, r.Worse, r.Same, r.NotComparable, r.Tolerance)
	if len(r.Regressions) > 0 {
		fmt.Fprintln(w, text.New("回退的问题（最严重的在前）：", "Regressions, worst first:").In(lang))
		for _, ch := range r.Regressions[:min(maxRegressions, len(r.Regressions))] {
			d := ch.Diff
			fmt.Fprintf(w, "  %-8s %7s  %s\n", ch.ID, compare.FmtSigned(&d), clip(ch.Question, 48))
		}
		if len(r.Regressions) > maxRegressions {
			fmt.Fprintf(w, text.New("……另有 %d 个（完整列表见 --json 与报告）\n", "… %d more (all in --json and the report)\n").In(lang), len(r.Regressions)-maxRegressions)
		}
	}
	for _, b := range r.Bullets {
		if b.Code == "items" || strings.HasPrefix(b.Code, "dimension:") || b.Code == "sides" {
			continue // in the table and the counts above
		}
		fmt.Fprintln(w, "→ "+b.In(lang))
	}
}

func otherLang(lang text.Lang) text.Lang {
	if lang == text.ZH {
		return text.EN
	}
	return text.ZH
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
