package report

import "cubeworkbench/core/text"

// The words of spotcheck.go, Chinese first.
var (
	spotHumanSpotCheck          = text.New("人工抽检：人工评分与评审模型评分对照", "Human spot check: people's ratings beside the judges'")
	spotRatingsIgnoredDimension = text.New("忽略的评分（未评估的维度或不在 0–10 之间）", "Ratings ignored (dimension not evaluated, or outside 0–10)")
	spotAgreementAmongPeople    = text.New("人工评分人之间的一致性（", "Agreement among the people (")
	spotCloseParen              = text.New("）", ")")
	spotDrawStrataSizes         = text.New("抽样设计（分层、规模、入样概率）", "The draw (strata, sizes, inclusion probability)")
	spotStratum                 = text.New("层", "Stratum")
	spotDrawn                   = text.New("抽取数", "Drawn")
	spotInclusionProbability    = text.New("入样概率", "Inclusion probability")
	spotSeedEachDrawn           = text.New("随机种子 %d。每个抽中的问题随机展示一个回答（系统回答、零上下文回答或满分回答）；均值按 1/入样概率 加权。", "Seed %d. Each drawn question shows one answer (system, no-context or gold-guide) chosen at random; means weight each answer by 1/(inclusion probability).")
	spotPeopleJudgesSide        = text.New("人工与评审模型评分对照（0–100 分，", "People and judges side by side (0–100, ")
	spotMeanPMSD                = text.New("，被评回答的均值 ± 标准差；CuBE 论文表 5 样式）", ", mean ± SD over the answers rated; Table 5 of the CuBE paper)")
	spotPeople                  = text.New("人工", "People")
	spotAnswers                 = text.New("（%d 个回答）", " (%d answers)")
	spotAgreementEachJudge      = text.New("各评审模型与人工评分的一致性（0–10 分制，95 % 置信区间）", "Agreement of each judge with people (0–10 scale, 95 % bootstrap intervals)")
	spotAnswerCount             = text.New("回答数", "Answers")
	spotMeanAbsoluteDifference  = text.New("平均绝对差", "Mean absolute difference")
	spotAllDimensions           = text.New("全部维度", "All dimensions")
	spotAllDimensionsMean       = text.New("全部维度（均值）", "All dimensions (mean)")
	spotDimensionsAveraged      = text.New("，各维度平均", ", dimensions averaged")
	spotOther                   = text.New("其他", "Other")
)
