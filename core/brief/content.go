package brief

import (
	"fmt"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
	"math"
	"time"
)

// Verdict codes, as SUMMARY.json spells them (result.Verdict.Code); their
// words are the glossary's (glossary.VerdictCode.Words).
const (
	Deployable   = glossary.Deployable
	NeedsWork    = glossary.NeedsWork
	NotReady     = glossary.NotReady
	Undetermined = glossary.Undetermined
)

// Languages of Content.Lang.
const (
	LangZH = text.ZH
	LangEN = text.EN
)

// Content is everything the brief shows. Undefined numbers are nil and are
// written in words ("不适用"), never as 0.
type Content struct {
	Lang text.Lang // LangZH (default) or LangEN

	Verdict    glossary.VerdictCode // one of the verdict codes
	Deployable float64              // CuBE at or above which the verdict is Deployable
	NeedsWork  float64              // CuBE at or above which (and below Deployable) it is NeedsWork

	Cube      *float64 // the headline CuBE score (0–100), nil when undetermined
	Lo, Hi    *float64 // its 95 % interval, nil when it could not be estimated
	Resamples int      // how many resamples estimated the interval
	// Undetermined says, in Lang, why the verdict is undetermined when a
	// reason other than a missing score is known (too few questions); ""
	// says no CuBE score could be computed.
	Undetermined string

	Why             []string // 3–5 reasons, in Lang; more are cut with a marker
	Recommendations []string // in Lang; more are cut with a marker

	Judges []Judge
	K      int      // the k of Recall@k (the retrieval depth)
	Spread *float64 // SD of CuBE across judges; nil for fewer than two judges

	Charts []Chart // at most two are placed, each whole

	Baseline bool // the judge is the offline lexical baseline, not an LLM
	Sample   bool // the data is the bundled fictional sample

	Workbook    string    // the workbook's file name
	System      string    // the system under test, as the user named it
	Date        time.Time // when the evaluation finished
	ToolVersion string
}

// Judge is one row of the judges table.
type Judge struct {
	Name      string
	Cube      *float64
	Lo, Hi    *float64 // 95 % interval of Cube
	RecallAtK *float64 // share 0–1
	// NotCounted says why the judge is not part of the verdict (it failed
	// its qualification); "" when it is counted.
	NotCounted string
}

// Chart is a figure placed whole in the space left on the page: either a
// core/chart Figure, which the brief renders at exactly the size it is
// placed at (so its 9 pt tick labels print at 9 pt), or ready PNG bytes,
// which are scaled whole keeping their aspect (their text shrinks with them,
// so prefer Figure).
type Chart struct {
	Figure  *chart.Figure
	PNG     []byte
	Caption string // optional, printed under the chart
}

// Error is content the brief refuses to print, in both languages: a
// text.Error, so each front end says it in its own language.
type Error = text.Error

// fail is a refusal from its Chinese and English formats, filled with
// the same arguments.
func fail(zh, en string, a ...any) error {
	return text.NewError(text.New(fmt.Sprintf(zh, a...), "brief: "+fmt.Sprintf(en, a...)), nil)
}

// MaxCharts is how many charts fit beside the text.
const MaxCharts = 2

// check refuses content whose verdict does not follow from its score and
// thresholds: a forwarded page with a wrong verdict is the worst outcome.
func (c *Content) check() error {
	for _, p := range []*float64{c.Cube, c.Lo, c.Hi, c.Spread} {
		if p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0)) {
			return fail("有分数为 NaN 或无穷大；未定义的值应为空", "a score is NaN or infinite; undefined values must be nil")
		}
	}
	if c.NeedsWork > c.Deployable {
		return fail("“需改进”阈值 %g 高于“可以部署”阈值 %g", "needs-work threshold %g is above the deployable threshold %g", c.NeedsWork, c.Deployable)
	}
	want := Undetermined
	if c.Cube != nil {
		switch {
		case *c.Cube >= c.Deployable:
			want = Deployable
		case *c.Cube >= c.NeedsWork:
			want = NeedsWork
		default:
			want = NotReady
		}
	}
	switch c.Verdict {
	case Deployable, NeedsWork, NotReady, Undetermined:
	default:
		return fail("未知的判定结论 %q", "unknown verdict %q", c.Verdict)
	}
	if c.Verdict != want {
		return fail("判定结论 %q 与 CuBE %s 及阈值 %g/%g 不符（应为 %q）",
			"verdict %q does not follow from CuBE %s and thresholds %g/%g (expected %q)", c.Verdict, numOr(c.Cube, 1, "null"), c.Deployable, c.NeedsWork, want)
	}
	if (c.Lo == nil) != (c.Hi == nil) || (c.Lo != nil && *c.Lo > *c.Hi) {
		return fail("置信区间的上下限不完整或颠倒", "the interval's bounds are incomplete or reversed")
	}
	if c.Lo != nil && c.Resamples <= 0 {
		return fail("给出了置信区间却未给出重抽样次数", "an interval is given without the number of resamples")
	}
	for i, ch := range c.Charts {
		if (len(ch.PNG) == 0) == (ch.Figure == nil) {
			return fail("第 %d 张图须给出图形或 PNG 图像（二者之一）", "chart %d needs either a figure or PNG bytes", i+1)
		}
	}
	if len(c.Charts) > MaxCharts {
		return fail("给出了 %d 张图，一页最多放 %d 张", "%d charts given; the page holds at most %d", len(c.Charts), MaxCharts)
	}
	return nil
}
