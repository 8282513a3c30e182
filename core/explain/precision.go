package explain

import (
	"fmt"
	"math"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/glossary"
)

// precision estimates the questions needed for a 95 % interval of
// ±target: the interval's width shrinks about as 1/√n (its spread is that
// of a mean over questions), so n' = n·(h/target)². It is a planning
// figure from one run's interval, not a promise, and says so.
func precision(res *cube.Result, target float64) Precision {
	p := Precision{Target: target, IsEstimate: true}
	if res == nil {
		p.ZH, p.EN = "无法估计：没有评估结果", "Cannot estimate: there is no result"
		return p
	}
	p.Questions, p.Resamples = res.Items, res.BootstrapB
	ci := res.Aggregate.CubeCI95
	name := glossary.Interval95With(res.BootstrapB, "zh")
	if ci == nil || res.Items < 2 {
		p.ZH = "无法估计所需问题数：没有" + name
		p.EN = "Cannot estimate the questions needed: there is no " + glossary.Interval95With(res.BootstrapB, "en")
		return p
	}
	h := (ci[1] - ci[0]) / 2
	p.HalfWidth = ptr(h)
	needed := res.Items
	if h > target {
		needed = int(math.Ceil(float64(res.Items) * (h / target) * (h / target)))
	}
	more := needed - res.Items
	p.Needed, p.More = &needed, &more
	if more == 0 {
		p.ZH = fmt.Sprintf("%s目前为 ±%s 分，已在 ±%s 分以内（%d 个问题）", name, two(h), points(target), res.Items)
		p.EN = fmt.Sprintf("The 95 %% interval is ±%s points now, already within ±%s (%d questions)", two(h), points(target), res.Items)
		return p
	}
	p.ZH = fmt.Sprintf("%s目前为 ±%s 分；估计约需 %d 个问题（再增加 %d 个）才能缩小到 ±%s 分（按区间宽度与问题数的平方根成反比估算）",
		name, two(h), needed, more, points(target))
	p.EN = fmt.Sprintf("The 95 %% interval is ±%s points now; about %d questions (%d more) would narrow it to ±%s (an estimate: the width shrinks as one over the square root of the number of questions)",
		two(h), needed, more, points(target))
	return p
}
