package report

import (
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// The words of compare.go, Chinese first.
var (
	comparePairedQuestionsEvery   = text.New("%s → %s · %d 个配对问题 · Δ 均为 B − A · 配对重抽样 %d 次，种子 %d · 逐题容差 ±%.1f 分", "%s → %s · %d paired questions · every Δ is B − A · paired bootstrap, %d resamples, seed %d · per-question tolerance ±%.1f points")
	compareWarnings               = text.New("警告", "Warnings")
	compareWarning                = text.New("警告", "warning")
	compareDifferencesTheirPaired = text.New("差异及其配对 95% 区间", "Differences with their paired 95 % intervals")
	compareFigure                 = text.New("指标", "Figure")
	compareLow95                  = text.New("下限", "95 % low")
	compareHigh95                 = text.New("上限", "95 % high")
	compareDetectable             = text.New("可检测差异", "Detectable")
	compareVerdict                = glossaryName(glossary.Verdict)
	compareQuestions              = text.New("逐题变化", "Questions")
	compareBetter                 = text.New("变好", "Better")
	compareWorse                  = text.New("变差", "Worse")
	compareAboutSame              = text.New("基本不变", "About the same")
	compareNotComparable          = text.New("无法比较", "Not comparable")
	compareRegressionsWorstFirst  = text.New("回退的问题（最严重的在前）", "Regressions, worst first")
	compareNoQuestionGot          = text.New("没有问题的得分下降超过容差。", "No question got worse beyond the tolerance.")
	compareID                     = text.New("编号", "ID")
	compareRow                    = text.New("A 中行号", "Row in A")
	compareRowB                   = text.New("B 中行号", "Row in B")
	compareAnswer                 = text.New("回答：", "Answer of ")
	compareCloseSheet             = text.New("”表）", ")")
)
