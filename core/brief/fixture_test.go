package brief

import (
	"strings"
	"testing"
	"time"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/text"
)

func f(v float64) *float64 { return &v }

// cubeFigure draws the per-judge CuBE bars with core/chart, as the
// integrator will.
func cubeFigure(t testing.TB, lang text.Lang, js []Judge, mean, lo, hi *float64) *chart.Figure {
	t.Helper()
	s := chart.JudgeScores{Mean: chart.Estimate{Value: mean, Lo: lo, Hi: hi}}
	for _, j := range js {
		s.Judges = append(s.Judges, j.Name)
		s.Scores = append(s.Scores, chart.Estimate{Value: j.Cube, Lo: j.Lo, Hi: j.Hi})
	}
	fig, err := chart.CuBEBars(s, chart.Options{Lang: lang})
	if err != nil {
		t.Fatal(err)
	}
	return fig
}

func boundsFigure(t testing.TB, lang text.Lang, judge string) *chart.Figure {
	t.Helper()
	fig, err := chart.BoundsBars(chart.Bounds{
		Judge:      judge,
		Dimensions: []string{"relevance", "specificity", "completeness", "quality"},
		Zero:       []*float64{f(3.1), f(2.4), f(2.2), f(3.9)},
		RAG:        []*float64{f(6.8), f(5.9), f(5.1), f(6.6)},
		Full:       []*float64{f(8.9), f(8.1), f(7.7), f(8.5)},
	}, chart.Options{Lang: lang, Title: map[text.Lang]string{LangZH: "三组答案的截尾均值", LangEN: "Answer sets, trimmed means"}[lang]})
	if err != nil {
		t.Fatal(err)
	}
	return fig
}

var date = time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)

// sampleLike is the demo: the bundled fictional sample judged by the
// offline lexical baseline, one judge.
func sampleLike(t testing.TB, lang text.Lang) Content {
	js := []Judge{{Name: "lexical-baseline", Cube: f(53.1), Lo: f(42.4), Hi: f(63.8), RecallAtK: f(0.783)}}
	why := map[text.Lang][]string{
		LangZH: {
			"检索环节是主要短板：60 个问题中有 13 个没有检索到正确的办事指南（召回率 78.3 %）。",
			"检索到正确指南时，回答质量接近给出完整指南时的水平（约为上限的 68 %）。",
			"“完整性”得分最低：回答常遗漏办理材料或办理时限。",
		},
		LangEN: {
			"Retrieval is the main weakness: 13 of 60 questions did not retrieve the right service guide (recall 78.3 %).",
			"When the right guide is retrieved, answers come close to those given the whole guide (about 68 % of the way).",
			"Completeness scores lowest: answers often leave out the documents needed or the processing time.",
		},
	}
	recs := map[text.Lang][]string{
		LangZH: {"优先改进检索：检查未命中问题对应的指南标题和关键词。", "在回答模板中要求列出办理材料和时限。", "换用大模型评审后重新评估，再作部署决定。"},
		LangEN: {"Improve retrieval first: check the titles and keywords of the guides behind the missed questions.", "Make the answer template list the documents needed and the processing time.", "Re-evaluate with an LLM judge before deciding on deployment."},
	}
	return Content{
		Lang: lang, Verdict: NeedsWork, Deployable: 70, NeedsWork: 40,
		Cube: f(53.1), Lo: f(42.4), Hi: f(63.8), Resamples: 1000,
		Why: why[lang], Recommendations: recs[lang],
		Judges: js, K: 8,
		Charts:   []Chart{{Figure: cubeFigure(t, lang, js, f(53.1), f(42.4), f(63.8))}, {Figure: boundsFigure(t, lang, "lexical-baseline")}},
		Baseline: true, Sample: true,
		Workbook: "cube-sample.xlsx", System: "demo (offline)", Date: date, ToolVersion: "0.9.0",
	}
}

// threeJudges is a real-looking run: three LLM judges.
func threeJudges(t testing.TB, lang text.Lang) Content {
	js := []Judge{
		{Name: "qwen2.5-32b", Cube: f(72.4), Lo: f(66.0), Hi: f(78.1), RecallAtK: f(0.912)},
		{Name: "deepseek-chat", Cube: f(75.9), Lo: f(70.2), Hi: f(81.0), RecallAtK: f(0.912)},
		{Name: "gpt-4o-mini", Cube: f(69.8), Lo: f(63.5), Hi: f(75.7), RecallAtK: f(0.912)},
	}
	c := sampleLike(t, lang)
	c.Verdict, c.Cube, c.Lo, c.Hi = Deployable, f(72.7), f(68.1), f(77.0)
	c.Judges, c.Spread = js, f(3.1)
	c.Baseline, c.Sample = false, false
	c.Workbook, c.System = "云川省政务问答-2026Q4.xlsx", "ragflow · 政务助手 v2"
	if lang == LangEN {
		c.Workbook, c.System = "gov-qa-2026Q4.xlsx", "ragflow · assistant v2"
	}
	c.Charts = []Chart{{Figure: cubeFigure(t, lang, js, f(72.7), f(68.1), f(77.0))}}
	return c
}

// long overflows every budget: long bullets, many of them, many judges,
// long names.
func long(t testing.TB, lang text.Lang) Content {
	c := threeJudges(t, lang)
	c.Baseline, c.Sample = true, true
	para := strings.Repeat("这是一条很长的原因说明，用于检验版面在内容过多时不会溢出到第二页，而是截断并加上省略号。", 6)
	if lang == LangEN {
		para = strings.Repeat("This is a very long reason that checks the page never spills onto a second page but is cut with an ellipsis. ", 6)
	}
	c.Why = []string{para, para, para, para, para, para, para, para}
	c.Recommendations = c.Why
	c.Judges = nil
	for i := 0; i < 12; i++ {
		c.Judges = append(c.Judges, Judge{Name: strings.Repeat("very-long-judge-model-name-", 4), Cube: f(72), Lo: f(60), Hi: f(80), RecallAtK: f(0.9)})
	}
	c.Workbook = strings.Repeat("非常长的工作簿文件名", 20) + ".xlsx"
	c.Charts = append(c.Charts, Chart{Figure: boundsFigure(t, lang, "qwen2.5-32b")})
	return c
}

// undetermined: no CuBE could be computed; no chart, interval or spread.
func undetermined(t testing.TB, lang text.Lang) Content {
	c := sampleLike(t, lang)
	c.Verdict, c.Cube, c.Lo, c.Hi, c.Resamples = Undetermined, nil, nil, nil, 0
	c.Judges = []Judge{{Name: "qwen2.5-32b"}, {Name: "deepseek-chat"}}
	c.Charts, c.Baseline, c.Sample = nil, false, false
	c.System, c.ToolVersion = "", ""
	return c
}
