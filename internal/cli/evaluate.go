package cli

import (
	"bufio"
	"context"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"golang.org/x/term"

	"cubeworkbench/core/cofe"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/querytype"
	"cubeworkbench/core/result"
	"cubeworkbench/core/session"
)

// evalOptions are evaluate's flags.
type evalOptions struct {
	workbook, profilePath, out, jsonPath, storePath string
	offline, yes, skipBad, streamGuides             bool
	reask, readHidden                               bool
	gate                                            bool // exit with the verdict's code (gateExit)
}

func parseEvaluate(args []string, stderr io.Writer) (evalOptions, error) {
	var o evalOptions
	fs := flag.NewFlagSet("evaluate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.profilePath, "profile", "", "evaluation profile (TOML)")
	fs.StringVar(&o.out, "out", "", "write the Excel report here")
	fs.StringVar(&o.jsonPath, "json", "", "write SUMMARY.json here")
	fs.StringVar(&o.storePath, "store", "", "run store (default: WORKBOOK.cube.db beside the workbook)")
	fs.BoolVar(&o.offline, "offline", false, "forbid every network call")
	fs.BoolVar(&o.yes, "yes", false, "do not ask before making paid calls")
	fs.BoolVar(&o.skipBad, "skip-bad-rows", false, "evaluate without the rows that have errors (they are listed in the report)")
	fs.BoolVar(&o.streamGuides, "stream-guides", false, "keep the knowledge base in the run store, not memory (automatic above 64 MB)")
	fs.BoolVar(&o.reask, "reask-unscorable", false, "ask again, with new seeds, the judgements whose every reply was unreadable (the rest come from the store)")
	fs.BoolVar(&o.gate, "gate", false, "exit with the verdict: 0 deployable, 10 needs work, 11 not ready, 12 undetermined (without it a finished run exits 0 whatever its verdict)")
	hiddenFlags(fs, &o.readHidden)
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		return o, err
	}
	if len(positional) != 1 {
		return o, fmt.Errorf("evaluate needs exactly one WORKBOOK")
	}
	o.workbook = positional[0]
	if o.storePath == "" {
		o.storePath = defaultStorePath(o.workbook)
	}
	return o, nil
}

// parseInterspersed lets flags follow the positional arguments, as users type
// them ("evaluate book.xlsx --offline").
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

func defaultStorePath(workbook string) string { return session.StorePath(workbook) }

func runEvaluate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseEvaluate(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitUsage
	}
	p, err := loadProfile(o.profilePath)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitBadInput
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return evaluate(ctx, o, p, stdin, stdout, stderr)
}

// evaluate is the shared body of evaluate and demo: a thin adapter that
// prints what the session does.
func evaluate(ctx context.Context, o evalOptions, p profile.Profile, stdin io.Reader, stdout, stderr io.Writer) int {
	lang := text.LangOf(p.Language)
	sess, err := session.Open(ctx, o.workbook, session.OpenOptions{SkipBadRows: o.skipBad, StreamGuides: o.streamGuides, StorePath: o.storePath,
		ReadHiddenSheets: o.readHidden})
	if err != nil {
		sayErr(stderr, err, lang)
		return ExitBadInput
	}
	if sess.Streamed > 0 {
		fmt.Fprintf(stderr, text.New("已将 %d 条指南写入 %s；载入问题涉及的 %d 条。\n", "%d guides stored in %s; %d named by the questions loaded.\n").In(lang),
			sess.Streamed, o.storePath, len(sess.Workbook.Guides))
	}
	if rep := sess.Report; rep != nil {
		for _, pr := range rep.Problems {
			fmt.Fprintln(stderr, pr.Message(lang))
		}
	}
	if sess.Check() != nil {
		fmt.Fprintln(stderr, text.New(
			"工作簿有错误：请修正，或加 --skip-bad-rows 跳过出错的行后评估。",
			"The workbook has errors; fix them, or pass --skip-bad-rows to evaluate without those rows.").In(lang))
		return ExitBadInput
	}
	outputs := []session.Output{session.File(o.jsonPath), session.File(o.out)}
	if err := session.CheckOutputs(outputs...); err != nil {
		sayErr(stderr, err, lang) // before the estimate: nothing is asked or paid for
		return ExitBadInput
	}
	plan := sess.Plan(p)
	if plan.Calls > 0 && !o.offline {
		fmt.Fprintln(stderr, plan.Estimate(lang))
		if !o.yes && isTerminal(stdin) {
			fmt.Fprint(stderr, text.New("继续吗？[y/N] ", "Go ahead? [y/N] ").In(lang))
			line, _ := bufio.NewReader(stdin).ReadString('\n')
			if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" && a != "是" {
				fmt.Fprintln(stderr, text.New("未调用任何接口。", "Nothing was called.").In(lang))
				return ExitOK
			}
		}
	}

	pr := newPrinter(stderr, isTerminal(stderr), lang)
	res, err := sess.Evaluate(ctx, p, session.EvalOptions{Offline: o.offline, Progress: pr, ReaskUnscorable: o.reask, Outputs: outputs})
	if err != nil {
		return stopped(ctx, err, o.storePath, lang, stderr)
	}
	printResults(stdout, res, lang)
	runLine(stdout, res.Summary.Run, lang)
	if o.jsonPath != "" {
		if err := sess.WriteSummary(o.jsonPath); err != nil {
			sayErr(stderr, err, lang)
			return ExitBadInput
		}
		fmt.Fprintln(stderr, text.New("已写入 ", "Wrote ").In(lang)+o.jsonPath)
	}
	code := ExitOK
	if o.out != "" {
		code = writeReport(ctx, sess, o.out, lang, pr, stderr)
	}
	if code == ExitOK && res.Summary.TargetFailed() {
		// The outputs are written (they say why); the exit says no verdict.
		fmt.Fprintln(stderr, res.Summary.Verdict.Text.In(lang))
		for _, w := range res.Summary.Warnings {
			if w.Code == result.WarnTargetFailed {
				fmt.Fprintln(stderr, w.In(lang))
			}
		}
		return ExitTargetFailed
	}
	if code == ExitOK && o.gate {
		return gateExit(string(res.Summary.Verdict.Code))
	}
	return code
}

// writeReport writes the session's report (and its brief) with a progress
// bar, and says where; evaluate and compare share it.
func writeReport(ctx context.Context, sess *session.Session, path string, lang text.Lang, pr *printer, stderr io.Writer) int {
	err := sess.WriteReport(ctx, path, lang, func(done, total int) {
		pr.Event(result.Event{Step: result.StepReport, Done: done, Total: total, Finished: done == total})
	})
	if err != nil {
		sayErr(stderr, err, lang)
		return ExitBadInput
	}
	fmt.Fprintln(stderr, text.New("已写入 ", "Wrote ").In(lang)+path)
	return ExitOK
}

func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return session.WriteFileAtomic(path, append(data, '\n'), 0o644)
}

// printResults prints the headline, the per-judge tables and MFSS.
func printResults(w io.Writer, res *result.Outcome, lang text.Lang) {
	s := res.Summary
	if s.Result == nil && s.MFSS == nil && s.CoFE == nil {
		fmt.Fprintln(w, nothingToScore(res.Workbook, lang))
		return
	}
	if s.Result != nil {
		fmt.Fprintln(w, s.Headline(lang))
		fmt.Fprintf(w, "%s%s\n\n", text.New("结论：", "Verdict: ").In(lang), s.Verdict.Text.In(lang))
		if m := s.DocMapping; m != nil {
			if lines := m.Messages(lang, 20); len(lines) > 0 {
				for _, l := range lines {
					fmt.Fprintln(w, l)
				}
				fmt.Fprintln(w)
			}
		}
		for _, j := range s.Judges {
			fmt.Fprintf(w, "%s %s\n", text.New("评审模型", "Judge").In(lang), glossary.JudgeName(j.Judge, lang))
			if !j.Counted() {
				// Shown with its figures, never averaged in (cube's judge qualification).
				fmt.Fprintf(w, "  ✗ %s\n", glossary.Term(glossary.JudgeNotCounted, lang))
				for _, r := range j.QualificationReasons {
					fmt.Fprintf(w, "    - %s\n", r.In(lang))
				}
			}
			t := &table{}
			header := []string{glossary.Term(glossary.Dimension, lang), glossary.Term(glossary.SetZeroShort, lang), glossary.Term(glossary.SetRAG, lang),
				glossary.Term(glossary.SetFullShort, lang), text.New("权重", "weight").In(lang), glossary.Term(glossary.BoundedScore, lang)}
			t.add(header...)
			for _, d := range append(append([]string{}, s.Dimensions...), "weighted") {
				weight := "1.0000"
				if d != "weighted" {
					weight = fmt.Sprintf("%.4f", j.Weights[d])
				}
				label := glossary.Name(glossary.DimensionID, d, lang)
				if d == "weighted" {
					label = text.New("加权", "weighted").In(lang)
				}
				t.add(label, num(j.TrimmedMeans["zero"][d], 4), num(j.TrimmedMeans["rag"][d], 4), num(j.TrimmedMeans["full"][d], 4),
					weight, num(j.Normalized[d], 2))
			}
			t.write(w)
			fmt.Fprintf(w, "CuBE = %s", num(j.Cube, 2))
			if j.CubeCI95 != nil {
				fmt.Fprintf(w, text.New("  %s：%.2f 至 %.2f", "  %s [%.2f, %.2f]").In(lang), glossary.Interval95With(s.BootstrapB, lang), j.CubeCI95[0], j.CubeCI95[1])
			}
			if j.Unscorable > 0 {
				fmt.Fprintf(w, "  %s %d", text.New("无法评分", "unscorable").In(lang), j.Unscorable)
			}
			fmt.Fprintln(w)
			for _, f := range j.Flags {
				fmt.Fprintln(w, "  ! "+cube.FlagText(f).In(lang))
			}
			fmt.Fprintln(w)
		}
		printSpotCheck(w, s, lang)
		// The why of the verdict: the same bullets and recommendations the
		// window and the report show (core/explain, one source).
		if e := s.Explanation; e != nil {
			for _, l := range e.Lines(lang) {
				fmt.Fprintln(w, l)
			}
			fmt.Fprintln(w)
		} else {
			for _, r := range s.Recommendations() {
				fmt.Fprintln(w, "→ "+r.In(lang))
			}
			if len(s.Recommendations()) > 0 {
				fmt.Fprintln(w)
			}
		}
	}
	if s.MFSS != nil {
		fmt.Fprintln(w, text.New("MFSS（对照参考答案的多因素评分）", "MFSS (multi-factor score against the reference answer)").In(lang))
		t := &table{}
		g := func(id glossary.ID) string { return glossary.Term(id, lang) }
		t.add(text.New("回答", "answers").In(lang), g(glossary.MFSSAccuracy), g(glossary.MFSSFactualConsistency), g(glossary.MFSSReadability),
			g(glossary.MFSSCoherence), g(glossary.MFSSRouge), g(glossary.MFSSConciseness), g(glossary.MFSSTotal))
		names := make([]string, 0, len(s.MFSS.Systems))
		for name := range s.MFSS.Systems {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			f := s.MFSS.Systems[name]
			t.add(glossary.Name(glossary.SetID, name, lang), factor(f, "accuracy", f.Accuracy), factor(f, "factual_consistency", f.FactualConsistency), factor(f, "readability", f.Readability),
				factor(f, "coherence", f.Coherence), factor(f, "rouge", f.Rouge), factor(f, "conciseness", f.Conciseness), f3(f.Total))
		}
		t.write(w)
		fmt.Fprintf(w, "%s%s\n", text.New("向量模型：", "embedder: ").In(lang), s.MFSS.Embedder)
		for _, fl := range s.MFSS.Uninformative {
			fmt.Fprintln(w, "  ! "+fl.Reason.In(lang))
		}
		if s.MFSS.ZeroVectors.Texts > 0 {
			m := s.MFSS.ZeroVectors.Message()
			fmt.Fprintln(w, "  ! "+m.In(lang))
		}
		fmt.Fprintln(w)
	}
	if c := s.CoFE; c != nil && c.Chunks > 0 {
		fmt.Fprintf(w, text.New("CoFE-RAG（关键词评估；%s 分块，%s 检索，共 %d 块）\n", "CoFE-RAG (keywords; %s chunks, %s retrieval, %d chunks)\n").In(lang),
			c.Chunker, c.Retriever, c.Chunks)
		t := &table{}
		t.add(text.New("问题类型", "query type").In(lang), text.New("问题数", "queries").In(lang), fmt.Sprintf("Acc@%d", c.K), "Recall", "Coverage", text.New("命中分", "hit score").In(lang))
		types := make([]string, 0, len(c.ByQueryType))
		for qt := range c.ByQueryType {
			types = append(types, qt)
		}
		sort.Strings(types)
		row := func(label string, m cofe.Metrics) {
			t.add(label, fmt.Sprint(m.Queries), pct(m.AccuracyAtK), pct(m.Recall), pct(m.Coverage), num(m.MeanHitScore, 3))
		}
		for _, qt := range types {
			row(queryTypeLabel(qt, lang), c.ByQueryType[qt])
		}
		row(text.New("全部", "all").In(lang), c.Metrics)
		t.write(w)
		if c.EmptyKeywordQueries > 0 {
			fmt.Fprintf(w, text.New("%d 个问题没有关键词（计入所有分母）\n", "%d queries have no keywords (counted in every denominator)\n").In(lang), c.EmptyKeywordQueries)
		}
		fmt.Fprintln(w)
	}
	if c := s.CoFE; c != nil && c.Generation != nil {
		fmt.Fprintln(w, text.New("CoFE-RAG 生成评估（被测系统回答对照参考答案）", "CoFE-RAG generation (the system's answers against the reference answers)").In(lang))
		t := &table{}
		t.add(text.New("评审模型", "judge").In(lang), text.New("问题类型", "query type").In(lang), text.New("回答数", "answers").In(lang), text.New("正确性 1–5", "correct 1–5").In(lang),
			text.New("通过率 ≥4", "pass ≥4").In(lang), text.New("忠实", "faithful").In(lang), text.New("相关", "relevant").In(lang), "BLEU", "ROUGE-L")
		for _, jg := range c.Generation.Judges {
			row := func(label string, m cofe.GenMetrics) {
				t.add(glossary.JudgeName(jg.Judge, lang), label, fmt.Sprint(m.Queries), num(m.Correctness, 2), pct(m.PassRate), pct(m.Faithfulness), pct(m.Relevancy), num(m.BLEU, 1), num(m.RougeL, 1))
			}
			types := make([]string, 0, len(jg.ByQueryType))
			for qt := range jg.ByQueryType {
				types = append(types, qt)
			}
			sort.Strings(types)
			for _, qt := range types {
				row(queryTypeLabel(qt, lang), jg.ByQueryType[qt])
			}
			row(text.New("全部", "all").In(lang), jg.GenMetrics)
		}
		t.write(w)
		fmt.Fprintln(w)
	}
}

// runLine says what the run cost the endpoints: calls, and what the
// servers saw (attempts with retries, replies, 429s), and each parameter an
// endpoint refused and the client changed.
func runLine(w io.Writer, r result.RunInfo, lang text.Lang) {
	fmt.Fprintf(w, text.New(
		"运行 %d：调用 %d 次（HTTP 请求 %d 次，收到回复 %d 次，限流 %d 次），运行记录库提供 %d 次，失败 %d 次，无法评分 %d 条，%d 个"+glossary.Term(glossary.Tokens, "zh"),
		"Run %d: %d calls (%d HTTP attempts, %d replies, %d throttled), %d from the store, %d failed, %d unscorable, %d tokens").In(lang),
		r.ID, r.Calls, r.Attempts, r.Replies, r.Throttled, r.Cached, r.Failed, r.Unscorable, r.Tokens)
	if m := r.Spent(lang); m != "" {
		fmt.Fprintf(w, text.New("，费用 %s", ", cost %s").In(lang), m)
	}
	if r.Deferred > 0 {
		fmt.Fprintf(w, text.New("，%d 个留待批量文件", ", %d left for a batch file").In(lang), r.Deferred)
	}
	fmt.Fprintln(w)
	for _, a := range r.Adaptations {
		fmt.Fprintf(w, "  %s (%s): %s\n", a.Endpoint, a.Param, a.In(lang))
	}
}

// factor is an MFSS factor's value, n/a when no answer could measure it
// (never 0).
func factor(f mfss.Factors, name string, v float64) string {
	if !f.Has(name) {
		return "n/a"
	}
	return f3(v)
}

func pct(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f %%", 100**v)
}

func queryTypeLabel(qt string, lang text.Lang) string {
	if t, ok := querytype.Lookup(qt); ok && lang == text.ZH {
		return t.TitleZH
	}
	return qt
}

func f3(v float64) string { return fmt.Sprintf("%.3f", v) }

// nothingToScore explains an evaluation that produced no figure: what the
// workbook lacks for each method.
func nothingToScore(wb *dataset.Workbook, lang text.Lang) string {
	answers, refs, keywords := 0, 0, 0
	for _, it := range wb.Items {
		if it.Answer(dataset.SetRAG) != "" {
			answers++
		}
		if it.Reference != "" {
			refs++
		}
		if len(it.Coarse) > 0 {
			keywords++
		}
	}
	if lang == text.ZH {
		return fmt.Sprintf("没有可计算的结果。问题 %d 个，其中有被测系统回答的 %d 个、参考答案 %d 个、关键词 %d 个；办事指南 %d 条。\n"+
			"CuBE 需要回答（或在配置中设置 [target] 去收集）和评审模型；MFSS 需要回答和参考答案；CoFE-RAG 需要关键词和办事指南（或语料目录）。",
			len(wb.Items), answers, refs, keywords, len(wb.Guides))
	}
	return fmt.Sprintf("Nothing to report. %d questions: %d with an answer of the system under test, %d with a reference answer, %d with keywords; %d guides.\n"+
		"CuBE needs answers (or a [target] in the profile to collect them) and judges; MFSS needs answers and reference answers; CoFE-RAG needs keywords and guides (or a corpus folder).",
		len(wb.Items), answers, refs, keywords, len(wb.Guides))
}

// stopped prints why a run ended without a result, in session.Explain's
// words (the window shows the same; an offline refusal adds which flag
// forbade the calls), and returns the exit code: an
// interruption or a budget stop can be resumed (ExitInterrupted), anything
// else is the input's or the profile's (ExitBadInput).
func stopped(ctx context.Context, err error, storePath string, lang text.Lang, stderr io.Writer) int {
	st := session.Explain(ctx, err, storePath)
	fmt.Fprintln(stderr, st.Text.In(lang))
	if st.Kind == session.StopOffline { // how, in this front end's terms
		fmt.Fprintln(stderr, text.New("（--offline 禁止了这些调用；去掉它即可调用。）", "(--offline forbids the calls; remove it to allow them.)").In(lang))
	}
	if st.Resumable {
		return ExitInterrupted
	}
	if st.Kind == session.StopTargetFailed {
		return ExitTargetFailed
	}
	return ExitBadInput
}

// sayErr prints an error in lang: a bilingual error (text.Error, the
// session's refusals) in that language only, any other as it is.
func sayErr(w io.Writer, err error, lang text.Lang) {
	fmt.Fprintln(w, text.Of(err).In(lang))
}
