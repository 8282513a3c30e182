package report

import "cubeworkbench/core/text"

// The words of summary.go, Chinese first.
var (
	summaryWhyVerdict                = text.New("为什么是这个结论", "Why this verdict")
	summaryWhatDoNext                = text.New("改进建议", "What to do next")
	summaryNoRuleFired               = text.New("没有触发任何建议规则，暂无建议。", "No rule fired: nothing to recommend.")
	summaryMoreRecommendationsMethod = text.New("另有 %d 条建议见“方法 Method”表。", "%d more recommendations are on the Method sheet.")
	summaryWeighted                  = text.New("加权", "Weighted")
)
