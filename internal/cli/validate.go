package cli

import (
	"context"
	"cubeworkbench/core/dataset"
	"flag"
	"fmt"
	"io"

	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// runValidate checks a workbook's schema and prints one line per problem;
// exit 1 when any is an error.
func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	langFlag := fs.String("lang", envLang("zh"), "language of the messages: zh or en (default: CUBE_LANG, else zh)")
	var hidden bool
	hiddenFlags(fs, &hidden)
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		return ExitUsage
	}
	lang := text.LangOf(*langFlag) // parsed once: everything below speaks text.Lang
	if len(positional) != 1 {
		fmt.Fprintln(stderr, "validate needs exactly one WORKBOOK")
		return ExitUsage
	}
	wb, rep, err := session.Read(context.Background(), positional[0], hidden)
	if err != nil {
		sayErr(stderr, err, lang)
		return ExitBadInput
	}
	errorsFound := false
	for _, p := range rep.Problems {
		fmt.Fprintln(stdout, p.Message(lang))
		if p.Severity == dataset.SeverityError {
			errorsFound = true
		}
	}
	if errorsFound {
		return ExitBadInput
	}
	if len(wb.Items) == 0 {
		// Guides alone, or scores without questions: nothing an evaluation
		// could score, which a schema "OK" must not hide.
		fmt.Fprintln(stdout, text.New(
			fmt.Sprintf("没有可评估的内容：未读取到任何问题（办事指南 %d 条，评分 %d 条）。请添加含“问题”列的问答集工作表（qa/问答集）。", len(wb.Guides), wb.Scores.Len()),
			fmt.Sprintf("Nothing to evaluate: no questions were read (%d guides, %d scores). Add a question sheet (qa/问答集) with a question column (问题).", len(wb.Guides), wb.Scores.Len())).In(lang))
		return ExitBadInput
	}
	fmt.Fprintln(stdout, text.New(
		fmt.Sprintf("通过：办事指南 %d 条，问题 %d 个，评分 %d 条，人工评分 %d 条。", len(wb.Guides), len(wb.Items), wb.Scores.Len(), len(wb.Human)),
		fmt.Sprintf("OK: %d guides, %d questions, %d scores, %d expert ratings.", len(wb.Guides), len(wb.Items), wb.Scores.Len(), len(wb.Human))).In(lang))
	return ExitOK
}

// hiddenFlags registers --read-hidden and its older name
// --read-hidden-sheets: hidden sheets and rows hidden by a filter or by hand
// are read too (by default each is named in a warning and left unread).
func hiddenFlags(fs *flag.FlagSet, v *bool) {
	const help = "read hidden sheets and rows hidden by a filter or by hand too (by default each is named in a warning and left unread)"
	fs.BoolVar(v, "read-hidden", false, help)
	fs.BoolVar(v, "read-hidden-sheets", false, "the same as --read-hidden (its older name)")
}

// openClean opens a workbook for a command that cannot skip bad rows:
// every problem is printed, and any error stops the command. o says where
// the run store is and whether every guide must stay in memory.
func openClean(ctx context.Context, path string, o session.OpenOptions, lang text.Lang, stderr io.Writer) (*session.Session, bool) {
	sess, err := session.Open(ctx, path, o)
	if err != nil {
		sayErr(stderr, err, lang)
		return nil, false
	}
	for _, pr := range sess.Report.Problems {
		fmt.Fprintln(stderr, pr.Message(lang))
	}
	return sess, sess.Check() == nil
}
