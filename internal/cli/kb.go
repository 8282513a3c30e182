package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"cubeworkbench/core/kbexport"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// runKB is `cubectl kb export WORKBOOK --out DIR`: the workbook's guides as
// one document per guide, named after the guide id, to upload to the RAGFlow
// or Dify knowledge base under test so retrieved documents map back exactly.
func runKB(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "export" {
		fmt.Fprintln(stderr, "usage: cubectl kb export WORKBOOK --out DIR [--lang zh|en]")
		return ExitUsage
	}
	fs := flag.NewFlagSet("kb export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "folder to write the documents into (must not hold earlier exports)")
	langFlag := fs.String("lang", envLang("zh"), "language of the messages: zh or en")
	positional, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return ExitUsage
	}
	lang := text.LangOf(*langFlag) // parsed once: everything below speaks text.Lang
	if len(positional) != 1 || *out == "" {
		fmt.Fprintln(stderr, text.New("kb export 需要一个工作簿和 --out 文件夹", "kb export needs a WORKBOOK and --out DIR").In(lang))
		return ExitUsage
	}
	sess, ok := openClean(context.Background(), positional[0], session.OpenOptions{AllGuides: true}, lang, stderr)
	if !ok {
		return ExitBadInput
	}
	res, err := kbexport.Write(sess.Workbook.Guides, *out)
	if err != nil {
		sayErr(stderr, err, lang)
		return ExitBadInput
	}
	fmt.Fprintln(stdout, text.New(
		fmt.Sprintf("已将 %d 个文档和 %s 写入 %s。请把这些文档上传到被测 RAGFlow 助理或 Dify 应用的知识库。", len(res.Entries), kbexport.ManifestName, res.Dir),
		fmt.Sprintf("Wrote %d documents and %s to %s. Upload the documents to the knowledge base of the RAGFlow assistant or Dify app under test.", len(res.Entries), kbexport.ManifestName, res.Dir)).In(lang))
	if res.Renamed > 0 {
		fmt.Fprintln(stderr, text.New(
			fmt.Sprintf("警告：有 %d 个指南编号不能原样作为文件名（含 / 或 : 等字符、过长，或仅大小写不同）；请把 %s 的 target_doc 列复制到办事指南表，以便其文档仍能准确对应。", res.Renamed, kbexport.ManifestName),
			fmt.Sprintf("Warning: %d guide ids cannot be file names as they are (characters such as / or :, length, or two ids differing only in case); copy the target_doc column of %s into the guides sheet so their documents still map exactly.", res.Renamed, kbexport.ManifestName)).In(lang))
	}
	if res.Empty > 0 {
		fmt.Fprintln(stderr, text.New(
			fmt.Sprintf("警告：有 %d 条指南没有正文，其文档只有标题。", res.Empty),
			fmt.Sprintf("Warning: %d guides have no text; their documents hold only the title.", res.Empty)).In(lang))
	}
	return ExitOK
}
