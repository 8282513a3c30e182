package brief

import (
	"fmt"
	"strings"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// Texts of the page. Plain words a director uses: no "bootstrap", no symbols
// such as N_J without words (issue 15).
var texts = map[string]text.Text{
	"title":            text.New("RAG 政务问答系统部署评估简报", "RAG assistant deployment brief"),
	"verdict.label":    glossaryName(glossary.Verdict),
	"undetermined.why": text.New("未能算出 CuBE 分数，因此不作部署结论。", "No CuBE score could be computed, so no deployment verdict is given."),
	"score":            text.New("CuBE 综合得分 %s（满分 100）", "CuBE score %s out of 100"),
	"score.none":       text.New("CuBE 综合得分：未能算出", "CuBE score: could not be computed"),
	"interval":         text.New("95 %% 置信区间（重抽样 %d 次）%s 至 %s", "95 %% confidence interval (%d resamples): %s to %s"),
	"interval.none":    text.New("置信区间未能估计（可用数据太少）", "The confidence interval could not be estimated (too little data)"),
	// thresholds: %[1]s deployable at, %[2]s needs work at, %[4]s–%[6]s
	// the verdicts' words (the glossary's).
	"thresholds": text.New("判定标准（阈值来自评估配置）：CuBE 达到 %[1]s 及以上%[4]s；%[2]s 至 %[1]s（不含 %[1]s）%[5]s；低于 %[2]s %[6]s。",
		"Rule: a CuBE of %[1]s or more is deployable; %[2]s up to %[1]s (not included) needs work first; below %[2]s it is not ready. The thresholds come from the evaluation profile."),
	"why":              text.New("为什么", "Why"),
	"recs":             text.New("建议", "Recommendations"),
	"more":             text.New("（另有 %d 条未列出，见 Excel 报告）", "(%d more not shown; see the Excel report)"),
	"judges":           text.New("评审模型", "Judges"),
	"col.judge":        glossaryName(glossary.Judge),
	"col.cube":         glossaryName(glossary.CubeScore),
	"col.interval":     text.New("95 % 置信区间", "95 % interval"),
	"col.recall0":      glossaryName(glossary.GuideRecall),
	"judges.one":       text.New("仅 1 个评审模型，无法比较评审模型之间的差异。", "Only 1 judge, so agreement between judges cannot be shown."),
	"judges.none":      text.New("没有评审模型给出分数。", "No judge produced a score."),
	"judges.spread":    text.New("%d 个评审模型的 CuBE 得分标准差为 %s（越小表示评审越一致）。", "The CuBE scores of the %d judges have a standard deviation of %s (smaller means the judges agree more)."),
	"judges.nospread":  text.New("评审模型之间的差异无法计算：给出 CuBE 得分的评审模型不足 2 个。", "Agreement between judges cannot be shown: fewer than 2 judges produced a CuBE score."),
	"judges.more":      text.New("另有 %d 个评审模型未列出，见 Excel 报告。", "%d more judges not shown; see the Excel report."),
	"notice.baseline":  text.New("注意：评审使用的是离线词汇基线（非大模型），只用于演示流程，分数不能作为部署依据。", "Note: the judge is the offline lexical baseline, not an LLM; it shows the workflow and its score is no basis for deployment."),
	"notice.sample":    text.New("注意：数据是随附的虚构示例（云川省），不是真实的政务信息。", "Note: the data is the bundled fictional sample (Yunchuan province), not real government information."),
	"evaluated":        text.New("评估对象：工作簿 %s · 被测系统 %s · 评审模型 %s · 日期 %s · 工具版本 %s", "Evaluated: workbook %s · system under test %s · judges %s · date %s · tool version %s"),
	"na":               glossaryTerm(glossary.NotApplicable),
	"unknown":          text.New("未注明", "not stated"),
	"label.sep":        text.New("：", ": "),
	"range":            text.New("%.1f 至 %.1f", "%.1f to %.1f"),
	"charts.nofit":     text.New("本页放不下图表，请见 Excel 报告。", "The charts did not fit on this page; see the Excel report."),
	"list.sep":         text.New("、", ", "),
	"notcounted":       text.New("不计入结论", "not counted"),
	"judge.notcounted": text.New("评审模型 %s 不计入结论（未通过评审资格）：%s。", "Judge %s is not counted in the verdict (it failed judge qualification): %s."),
}

func tr(lang text.Lang, key string) string {
	b, ok := texts[key]
	if !ok {
		panic("brief: no text for " + key) // a programming error, caught by tests
	}
	if lang == LangEN {
		return b.EN
	}
	return b.ZH
}

// glossaryName is a glossary term as a heading: its English starts with a
// capital. The brief names things as the report and the window do.
func glossaryName(id glossary.ID) text.Text {
	en := glossary.Term(id, LangEN)
	if en != "" && en[0] >= 'a' && en[0] <= 'z' {
		en = string(en[0]-'a'+'A') + en[1:]
	}
	return text.New(glossary.Term(id, LangZH), en)
}

// glossaryTerm is a glossary term as it stands in a cell or sentence.
func glossaryTerm(id glossary.ID) text.Text {
	return text.New(glossary.Term(id, LangZH), glossary.Term(id, LangEN))
}

// recallAt names Recall@k for k as the glossary does (指南召回率@8), as a heading.
func recallAt(lang text.Lang, k int) string {
	s := glossary.GuideRecallAt(k, lang)
	if lang == LangEN {
		s = "G" + s[1:]
	}
	return s
}

// verdict is a verdict's words, the glossary's.
func verdict(lang text.Lang, c glossary.VerdictCode) string { return c.Words(lang) }

func trf(lang text.Lang, key string, a ...any) string { return fmt.Sprintf(tr(lang, key), a...) }

// numOr formats v with prec decimals, or or when v is undefined.
func numOr(v *float64, prec int, or string) string {
	if v == nil {
		return or
	}
	return fmt.Sprintf("%.*f", prec, *v)
}

// threshold prints a threshold without trailing zeros.
func threshold(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

func orUnknown(lang text.Lang, s string) string {
	if strings.TrimSpace(s) == "" {
		return tr(lang, "unknown")
	}
	return s
}
