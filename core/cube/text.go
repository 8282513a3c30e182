package cube

import (
	"fmt"
	"strings"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// Headline is the one line the report leads with: CuBE mean ± SD across
// judges, Recall@k and the mean N_J ("effectiveness on retrieved cases"),
// in lang; n/a where a value is undefined.
func (r *Result) Headline(lang text.Lang) string {
	zh := text.LangOf(string(lang)) == text.ZH
	na := "n/a"
	if zh {
		na = "不适用"
	}
	f := func(p *float64) string {
		if p == nil {
			return na
		}
		return fmt.Sprintf("%.2f", *p)
	}
	recall := na
	if r.RecallAtK != nil {
		recall = fmt.Sprintf("%.2f %%", 100**r.RecallAtK)
	}
	cube := f(r.Aggregate.Cube.Mean)
	// One judge has no spread to show: say so instead of "± n/a".
	spread := " ± " + f(r.Aggregate.Cube.SD)
	if r.Aggregate.Cube.SD == nil && r.Aggregate.Cube.N == 1 {
		spread = " (1 judge)"
		if zh {
			spread = "（仅 1 个评审模型）"
		}
	}
	eff := f(r.Aggregate.Normalized[Weighted].Mean)
	if zh {
		where := "检索命中时的回答有效性"
		if r.Subset == SubsetAll {
			where = "全部问题的回答有效性"
		}
		return fmt.Sprintf("CuBE %s%s · %s %s · %s %s", cube, spread, glossary.GuideRecallAt(r.TopN, text.ZH), recall, where, eff)
	}
	where := "effectiveness on retrieved cases"
	if r.Subset == SubsetAll {
		where = "effectiveness on all cases"
	}
	return fmt.Sprintf("CuBE %s%s · %s %s · %s %s", cube, spread, glossary.GuideRecallAt(r.TopN, text.EN), recall, where, eff)
}

// MethodNotes are the readings this evaluation made, one line each, for the
// report's Method sheet.
func (r *Result) MethodNotes(lang text.Lang) []string {
	out := make([]string, len(r.Notes))
	for i, n := range r.Notes {
		out[i] = n.In(lang)
	}
	return out
}

func methodNotes(cfg Config) []text.Text {
	subsetEN, subsetZH := "items whose gold document was retrieved (rank > 0)", "标准指南被检索命中（排名 > 0）的问题"
	if cfg.Subset == SubsetAll {
		subsetEN, subsetZH = "all items", "全部问题"
	}
	weightsEN, weightsZH := map[string]string{
		WeightsCorrelation: "the positive part of the Pearson correlation between rank score and rag score, over all cases, normalised to sum 1 (equal weights when no correlation is positive)",
		WeightsEqual:       "equal",
		WeightsHand:        "set by hand and normalised to sum 1",
	}[cfg.Weights], map[string]string{
		WeightsCorrelation: "排名得分与被测系统回答得分的皮尔逊相关系数中大于 0 的部分（全部问题），再缩放使权重之和为 1（没有正相关时改用等权重）",
		WeightsEqual:       "等权重",
		WeightsHand:        "人工设定并归一化使和为 1",
	}[cfg.Weights]
	notes := []text.Text{
		{
			EN: fmt.Sprintf("Rank: position of the gold document among the first %d retrieved ids (0 when absent); rank score = %d + 2 − rank, plus 1 when the list holds only the gold document.", cfg.TopN, cfg.TopN),
			ZH: fmt.Sprintf("排名：标准文档在前 %d 个检索结果中的位置（未命中为 0）；排名得分 = %d + 2 − 排名，若检索列表只含标准文档则再加 1。", cfg.TopN, cfg.TopN),
		},
		{
			EN: "Guide recall@k counts questions whose gold guide is known; questions without one are left out and counted.",
			ZH: "指南召回率@k 只统计标准指南已知的问题；标准指南未知的问题不计入，并单独列出数量。",
		},
		{
			EN: "An item's score is the mean of its parsable repeats; unscorable replies are counted and left out of every mean, never read as 0.",
			ZH: "每个问题的得分为可解析重复评分的平均值；无法解析的回复单独计数，不参与任何平均，也不按 0 分处理。",
		},
		{
			EN: "Weights: " + weightsEN + ". Per-judge weight tables override this.",
			ZH: "权重：" + weightsZH + "。单个评审模型的权重表优先。",
		},
		{
			EN: fmt.Sprintf("Trimmed means cut floor(%.2f·n) values from each end (scipy.stats.trim_mean); the proportion is our reading, the paper names none.", cfg.Trim),
			ZH: fmt.Sprintf("截尾均值：从两端各去掉 %.0f %% 的得分（个数向下取整，与 scipy.stats.trim_mean 相同）后求平均；这个比例是本工具的取值，论文未给出。", 100*cfg.Trim),
		},
		{
			EN: "Analysis subset (our reading): per judge and dimension, the " + subsetEN + " that have a score for all three sets rag, zero and full, so the three trimmed means cover the same item ids.",
			ZH: "分析子集（本工具的理解）：对每个评审模型和评价维度，取" + subsetZH + "中被测系统回答、零上下文回答、标准指南回答三组都有得分的问题，使三组截尾均值基于相同的问题。",
		},
		{
			EN: "Normalisation: N = 100·(rag − zero)/(full − zero); a denominator ≤ 1e-9 is a bounds collapse and reported as n/a; values outside [0, 100] are kept and flagged.",
			ZH: "上下界归一化得分 = 100 ×（被测系统回答得分 − 零上下文回答得分）÷（标准指南回答得分 − 零上下文回答得分）；分母接近 0 或为负时视为上下界塌缩，记为不适用；超出 0–100 的值保留并标记。",
		},
		{
			EN: "Each judge's CuBE score = its weighted bounded score × guide recall@k; the headline is the mean ± sample SD across judges.",
			ZH: "每个评审模型的 CuBE 得分 = 该评审模型的加权上下界归一化得分 × 指南召回率@k；总分为各评审模型得分的平均值 ± 样本标准差。",
		},
		{
			EN: fmt.Sprintf("95 %% intervals: percentile bootstrap over items, B = %d, seed %d; guide recall@k and the subset are recomputed per resample, the weights are held fixed, all judges share the resamples.", cfg.BootstrapB, cfg.Seed),
			ZH: fmt.Sprintf("95 %% 置信区间：对问题重抽样 %d 次（随机种子 %d）估计的区间；每次重抽样都重新计算指南召回率@k 和分析子集，权重保持不变，各评审模型使用同一组重抽样。", cfg.BootstrapB, cfg.Seed),
		},
		{
			EN: fmt.Sprintf("Judge qualification (our addition): a judge counts in the headline, the interval, the SD across judges and the verdict only when at least %.0f %% of its replies could be read, the 95 %% interval of its gold-guide minus no-context weighted score lies above %g points, and its weighted bounded score lies within 0–100 give or take %g; with repeats or expert ratings its agreement is checked too. A judge that fails is shown with its reasons, never averaged in.", 100*cfg.Qualify.MinReadable, cfg.Qualify.MinGap, cfg.Qualify.BoundsTolerance),
			ZH: fmt.Sprintf("评审资格（本工具的补充）：评审模型只有在至少 %.0f %% 的回复能读出分数、标准指南回答与零上下文回答的加权得分之差的 95 %% 区间高于 %g 分、加权上下界归一化得分在 0–100 之内（容差 %g）时，才计入总分、置信区间、评审模型间标准差和结论；有重复评分或人工评分时还检查一致性。未通过的评审模型连同原因一并列出，但不参与任何平均。", 100*cfg.Qualify.MinReadable, cfg.Qualify.MinGap, cfg.Qualify.BoundsTolerance),
		},
		{
			EN: "Human agreement: rag answers on the 0–100 scale (score × 10) against the mean of the raters per item; Krippendorff's α (interval) pools judges and raters over the rated item × dimension units.",
			ZH: "与人工评分的一致性：被测系统回答按 0–100 分制（得分 × 10）与每题人工评分的平均分比较；Krippendorff α（区间尺度）在有人工评分的“问题 × 评价维度”单元上合并评审模型与人工评分人计算。",
		},
	}
	return notes
}

var flagKindZH = map[string]string{
	FlagCollapse:      "上下界塌缩",
	FlagOutside:       "超出上下界",
	FlagNoData:        "无数据",
	FlagEqualFallback: "改用等权重",
	FlagRecallUndef:   glossary.Term(glossary.GuideRecall, text.ZH) + " 无定义",
}

var flagSubjectZH = map[string]string{
	Weighted:           "加权",
	flagWeightsSubject: "权重",
	flagCubeSubject:    "CuBE",
}

// FlagText is a flag ("subject: kind") in both languages: the flag itself
// in English, its subject and kind translated in Chinese.
func FlagText(flag string) text.Text {
	subject, kind, ok := strings.Cut(flag, ": ")
	if !ok {
		return text.New(flag, flag)
	}
	if zh, ok := flagKindZH[kind]; ok {
		kind = zh
	}
	zhSubject, ok := flagSubjectZH[subject]
	if !ok { // a dimension: its glossary name (质量, never quality)
		zhSubject = glossary.Name(glossary.DimensionID, subject, text.ZH)
	}
	return text.New(zhSubject+"："+kind, flag)
}
