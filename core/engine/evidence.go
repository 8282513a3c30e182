package engine

import (
	"fmt"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// tooFewQuestions is the reason a verdict is undetermined when CuBE rests on
// fewer questions than the profile's minimum (thresholds.min_questions,
// profile.DefaultMinQuestions): the questions that retrieved their gold
// guide, or every question with a gold guide under subset "all". ok is
// false when there are enough, or when no CuBE score was computed (which is
// undetermined already, for its own reason).
func tooFewQuestions(res *cube.Result, minimum int) (result.Reason, bool) {
	if res == nil || minimum <= 0 || res.Aggregate.Cube.Mean == nil {
		return result.Reason{}, false
	}
	n, what, whatZH := res.Retrieved, "questions that retrieved their gold guide", "个检索到标准指南的问题"
	if res.Subset == cube.SubsetAll {
		n, what, whatZH = res.Items-res.UnknownGold, "questions with a gold guide", "个标注了标准指南的问题"
	}
	if n >= minimum {
		return result.Reason{}, false
	}
	return result.Reason{Code: "too_few_questions",
		Text: text.New(fmt.Sprintf("问题太少，还需 %d 个", minimum-n), fmt.Sprintf("too few questions, %d more needed", minimum-n)),
		Detail: text.New(fmt.Sprintf("CuBE 只基于 %d %s，少于作出结论所需的 %d 个，还需 %d 个（问题太少时，一个问题就能使得分变化 3 分以上，置信区间也偏窄）", n, whatZH, minimum, minimum-n),
			fmt.Sprintf("CuBE rests on only %d %s, fewer than the %d a verdict needs; %d more are needed (with so few, one question moves the score by more than 3 points and the interval is too narrow)", n, what, minimum, minimum-n)),
	}, true
}
