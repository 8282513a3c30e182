package engine

import (
	"fmt"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// retrievalUnread says why the workbook's retrieval data was not read, or
// nothing (the zero Text) when it was: no question with a gold guide has a retrieved list (the
// column is missing, unrecognised or empty), or no list names any guide of
// the knowledge base (the lists hold something else: chunk texts, another
// system's ids). Recall@k of retrieval that was never read is not a
// measured 0.
func retrievalUnread(wb *dataset.Workbook) text.Text {
	lists, named, gold := 0, false, false
	idx := wb.GuideIndex()
	for _, it := range wb.Items {
		gold = gold || it.DocID != ""
		if it.DocID == "" || len(it.Retrieved) == 0 {
			continue
		}
		lists++
		if len(idx) == 0 {
			named = true // no guides to check the lists against
		}
		for _, ref := range it.Retrieved {
			if _, ok := idx[ref]; ok {
				named = true
			}
		}
	}
	switch {
	case !gold:
		return text.Text{} // no question names its gold guide: said by the explanation already
	case lists == 0:
		return text.New("没有一个带标准文档的问题有检索文档列表（“检索文档”列缺失、未被识别或为空），因此未读取检索数据",
			"no question with a gold guide has a retrieved list (the retrieved column, 检索文档, is missing, unrecognised or empty), so no retrieval data was read")
	case !named:
		return text.New(fmt.Sprintf("%d 个问题的检索文档列表中没有任何一项是办事指南的编号或名称，检索数据无法读取", lists),
			fmt.Sprintf("the retrieved lists of %d questions name no guide of the knowledge base by id or title, so the retrieval data could not be read", lists))
	}
	return text.Text{}
}

// applyRetrievalRead makes Recall@k and CuBE null, with the reason, when the
// workbook's retrieval data was not read; the answers are judged as ever,
// but the advice never says to raise TOP-N for lists nobody read. A run
// that asked the system under test is covered by applyMapping instead.
func (r *runner) applyRetrievalRead(sum *result.Summary) {
	if r.mapping != nil || sum.Result == nil {
		return
	}
	why := retrievalUnread(r.wb)
	if why.IsZero() {
		return
	}
	withoutRecall(sum.Result)
	sum.Result.RecallNA = &cube.Text{
		ZH: "指南召回率和 CuBE 得分为空（不是 0）：" + why.ZH + "。请在问答集中填写“检索文档”列（被测系统检索到的办事指南编号，按排名），或连接被测系统后重新评估。",
		EN: "Guide recall and the CuBE score are n/a (not 0): " + why.EN + ". Fill the QA sheet's retrieved column (检索文档: the ids of the guides the system retrieved, in rank order), or connect the system under test, and evaluate again.",
	}
	sum.Warnings = append(sum.Warnings, result.Warning{Source: "engine", Code: "retrieval_unread",
		Text: *sum.Result.RecallNA})
}
