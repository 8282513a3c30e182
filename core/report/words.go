package report

import (
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// The words more than one sheet of the report uses, Chinese first.
var (
	txtJudge              = glossaryName(glossary.Judge)
	txtRatingsUsed        = text.New("采用的评分条数", "Ratings used")
	txtRaters             = text.New("评分人", "Raters")
	txtEmbedder           = text.New("向量模型", "Embedder")
	txtSource             = text.New("来源", "Source")
	txtID                 = text.New("编号", "id")
	txtDimension          = glossaryName(glossary.Dimension)
	txtSemicolon          = text.New("；", "; ")
	txtColon              = text.New("：", ": ")
	txtQuestion           = text.New("问题", "Question")
	txtComparedWith       = text.New("与 %s 比较", "Compared with %s")
	txtSheet              = text.New("（见“", " (sheet ")
	txtCuBEScore          = glossaryName(glossary.CubeScore)
	txtLow95              = text.New("区间下限", "95 % low")
	txtHigh95             = text.New("区间上限", "95 % high")
	txtMeanAcrossJudges   = text.New("各评审模型均值", "Mean across judges")
	txtSpreadAcrossJudges = glossaryName(glossary.JudgeSpread)
	txtKind               = text.New("类型", "Kind")
	txtNote               = text.New("说明", "Note")
	txtImported           = text.New("导入", "imported")
	txtQuestions          = text.New("问题数", "Questions")
)

// Words built from others or from the glossary.
var (
	wordYes = text.New("是", "yes")
	wordNo  = text.New("否", "no")
	// compareBeforeAfter takes the second system's name, then the first's.
	compareBeforeAfter = text.New("版本对比：%[1]s 是否真的比 %[2]s 更好？", "Before and after: did %[1]s really get better than %[2]s?")
	compareUnitsNote   = text.New("CuBE、加权总分与各维度为 0–100 分；指南召回率@k 与 CoFE 正确率为百分点；MFSS 为总分 × 100。可检测差异：在这些问题上，真实差异至少这么大时，五次中有四次能被判为显著。",
		"CuBE, the weighted total and the dimensions are points on 0–100; guide recall@k and the CoFE pass rate are percentage points; MFSS is the total × 100. "+
			"Detectable: the smallest true difference these questions would show as significant four times in five.")
	// pageOnlyBaseline takes the glossary's name of the baseline judge.
	pageOnlyBaseline = text.New("仅有%s：按词语重合打分；本结论只能用于演示流程，不能作为部署依据。",
		"Only the %s scored this run: it scores word overlap; the verdict shows the method only and is no ground for deployment.")
	// judgesWeightSources names where a judge's weights came from.
	judgesWeightSources = map[string]text.Text{
		"correlation": text.New("相关系数", "correlation"),
		"equal":       text.New("等权重", "equal"),
		"hand":        text.New("人工设定", "hand"),
		"judge":       text.New("评审专属权重", "per judge"),
	}
)

// glossaryName is a glossary term as a header or label: the English
// starts with a capital (the glossary's are lower case for use inside
// sentences).
func glossaryName(id glossary.ID) text.Text {
	return text.New(glossary.Term(id, "zh"), capitalize(glossary.Term(id, "en")))
}

// glossaryTerm is a glossary term as it stands inside a sentence or a
// cell of its own (n/a stays lower case).
func glossaryTerm(id glossary.ID) text.Text {
	return text.New(glossary.Term(id, "zh"), glossary.Term(id, "en"))
}
