package report

import (
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// The words of items.go, Chinese first.
var (
	itemsMeanScoreSystem      = text.New("被测系统回答平均分（0–10）", "Mean score of the system answer (0–10)")
	itemsGoldGuideNot         = glossaryName(glossary.NotRetrieved)
	itemsJudgesDisagreeSD     = text.New("评审模型分歧（标准差，0–10）", "Judges disagree (SD, 0–10)")
	itemsRankZeroNotRetrieved = text.New("排名（0 = 未检索到）", "Rank (0 = not retrieved)")
	itemsRankScore            = glossaryName(glossary.RankScore)
	itemsGoldGuideTitle       = text.New("标准指南名称", "Gold guide title")
	itemsGoldGuideID          = text.New("标准指南编号", "Gold guide id")
	itemsSystemAnswer         = text.New("被测系统回答", "System answer")
	itemsNoContextAnswer      = text.New("零上下文回答（下界）", "No-context answer (lower bound)")
	itemsGoldGuideAnswer      = text.New("标准指南回答（上界）", "Gold-guide answer (upper bound)")
	itemsMFSSTotalRag         = text.New("MFSS 总分（rag）", "MFSS total (rag)")
)
