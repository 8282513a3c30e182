package engine

import (
	"context"
	"fmt"
	"strings"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/docmatch"
	"cubeworkbench/core/result"
	"cubeworkbench/core/target"
	"cubeworkbench/core/text"
)

// matchNamesLimit bounds the guides of a streamed knowledge base whose
// names (id, title, target_doc; no text) are loaded to match retrieved
// documents against: about 300 bytes a guide with the matcher's indexes.
// Beyond it only the guides the questions name are matched, and a warning
// says so.
const matchNamesLimit = 1_000_000

// trackTarget wraps the system under test so every answer's documents are
// matched to the workbook's guides (core/docmatch) and counted for the
// mapping report. A target warning (RAGFlow quote off, Dify citations off)
// is said at once, the first time an answer carries it.
func (r *runner) trackTarget(ctx context.Context, tg target.Target) (target.Target, error) {
	guides := r.wb.Guides
	if r.opt.PartialGuides {
		all, ok, err := r.guideNames(ctx)
		if err != nil {
			return nil, err
		}
		if ok {
			guides = all
		} else {
			r.warn(result.Warning{Source: "docmatch", Code: "partial_matching", Text: text.Text{
				ZH: fmt.Sprintf("知识库超过 %d 条指南，检索到的文档只与问题涉及的指南对应；其他指南的文档会显示为“未对应”。", matchNamesLimit),
				EN: fmt.Sprintf("The knowledge base holds more than %d guides: retrieved documents are matched only against the guides the questions name, so documents of other guides show as unmatched.", matchNamesLimit)}})
		}
	}
	r.mapping = docmatch.NewTally(docmatch.New(guides), func(w target.Warning) {
		r.opt.Progress.Event(Event{Step: StepCollect, Message: w.Message.In(r.lang)})
	})
	return &docmatch.Tracked{Target: tg, Tally: r.mapping}, nil
}

// guideNames reads every stored guide's id, title and target_doc (not its
// text), or says there are too many.
func (r *runner) guideNames(ctx context.Context) ([]dataset.Guide, bool, error) {
	n, err := r.opt.Store.CountGuides(ctx)
	if err != nil {
		return nil, false, err
	}
	if n > matchNamesLimit {
		return nil, false, nil
	}
	out := make([]dataset.Guide, 0, n)
	err = r.opt.Store.GuideNames(ctx, func(g dataset.Guide) error {
		out = append(out, g)
		return nil
	})
	return out, err == nil, err
}

// applyMapping puts the mapping report into the summary. When no answer
// carried documents because the target does not send them (quote or
// citations off), Recall@k — and CuBE, which is the weighted score ×
// Recall@k — is undefined: null, never 0, with a warning naming the setting.
// When most retrieved documents match no guide, a warning says Recall@k
// measures naming, not retrieval.
func (r *runner) applyMapping(sum *result.Summary) {
	if r.mapping == nil {
		return
	}
	rep := r.mapping.Report()
	sum.DocMapping = &rep
	if rep.RecallMissing() {
		if sum.Result != nil {
			withoutRecall(sum.Result)
		}
		zh, en := []string{}, []string{}
		for _, w := range rep.Warnings {
			zh, en = append(zh, w.Message.ZH), append(en, w.Message.EN)
		}
		sum.Warnings = append(sum.Warnings, result.Warning{Source: "docmatch", Code: "recall_missing", Text: text.Text{
			ZH: fmt.Sprintf("被测系统的 %d 个回答都没有返回检索到的文档，指南召回率@k 和 CuBE 无法计算（记为空，不是 0）。请打开被测系统的引用设置：RAGFlow 聊天助理的“显示引文”（quote）、Dify 应用的“引用和归属”（Citations and Attributions），或 MaxKB 应用的“显示知识来源”，然后重新评估。%s",
				rep.Answers, strings.Join(zh, " ")),
			EN: fmt.Sprintf("None of the system's %d answers carried retrieved documents, so guide recall@k and CuBE cannot be computed (null, not 0). Turn on the system's citations: \"quote\" (显示引文) on the RAGFlow assistant, \"Citations and Attributions\" on the Dify app, or \"Show knowledge source\" on the MaxKB application, and evaluate again. %s",
				rep.Answers, strings.Join(en, " "))}})
		return
	}
	if rep.Loud() {
		sum.Warnings = append(sum.Warnings, result.Warning{Source: "docmatch", Code: "unmatched_documents",
			Text: text.New(strings.Join(rep.Messages("zh", 20), "\n"), strings.Join(rep.Messages("en", 20), "\n"))})
	}
}

// withoutRecall makes Recall@k and every CuBE figure null and drops the
// finding of low recall, which a missing Recall@k must not make.
func withoutRecall(res *cube.Result) {
	res.RecallAtK = nil
	for i := range res.Judges {
		res.Judges[i].Cube, res.Judges[i].CubeCI95 = nil, nil
	}
	res.Aggregate.Cube = cube.MeanSD{}
	res.Aggregate.CubeCI95 = nil
	fs := res.Findings[:0:0]
	for _, f := range res.Findings {
		if f.Rule != cube.RuleRecallLow {
			fs = append(fs, f)
		}
	}
	res.Findings = fs
	res.HeadlineText = cube.Text{EN: res.Headline("en"), ZH: res.Headline("zh")}
}
