package report

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"cubeworkbench/core/cofe"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
)

// Special answers the tests look for.
const (
	formulaAnswer = `=HYPERLINK("http://example.invalid","点击领取补贴")`
	plusAnswer    = "+86 请拨打 12345 政务服务热线"
	atAnswer      = "@SUM(A1:A9) 不是公式"
	longItem      = "q07"
	longChars     = 40000
)

var fixtureJudges = []string{"qwen2.5-32b", "deepseek-v3", "lexical"}

var guideTitles = []string{"城乡居民基本养老保险参保登记", "医疗保险异地就医备案", "个体工商户设立登记", "公积金提取（租房）", "失业保险金申领", "残疾人两项补贴申请"}

// fixture is a small realistic evaluation: Chinese service guides, 24
// questions with the three answer sets, three judges (one lexical) over the
// four dimensions with a few unscorable replies, expert ratings, MFSS on the
// offline embedder and a CoFE result.
func fixture(t testing.TB) Input {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 7))
	wb := &dataset.Workbook{Source: "/data/省政务服务评估.xlsx", Systems: []string{"rag", "zero", "full", "v2"}}
	for i, title := range guideTitles {
		id := fmt.Sprintf("G%03d", i+1)
		wb.Guides = append(wb.Guides, dataset.Guide{ID: id, Title: title,
			Text:   fmt.Sprintf("事项名称：%s\n实施主体：市人力资源和社会保障局\n受理条件：本市户籍居民\n申请材料：身份证、申请表\n办理流程：网上申请、窗口受理、审核、办结\n承诺办结时限：5 个工作日", title),
			Fields: []dataset.Field{{Name: "实施主体", Value: "市人力资源和社会保障局"}, {Name: "承诺办结时限", Value: "5 个工作日"}}})
	}
	types := []string{"factual", "analytical", "comparative", "tutorial"}
	for i := range 24 {
		g := wb.Guides[i%len(wb.Guides)]
		id := fmt.Sprintf("q%02d", i+1)
		var ret []string
		switch i % 5 {
		case 0:
			ret = []string{g.ID}
		case 1, 2:
			ret = []string{wb.Guides[(i+1)%6].ID, g.ID, wb.Guides[(i+2)%6].ID}
		case 3:
			ret = []string{wb.Guides[(i+1)%6].ID, wb.Guides[(i+2)%6].ID, wb.Guides[(i+3)%6].ID, g.ID}
		default:
			ret = []string{wb.Guides[(i+1)%6].ID, wb.Guides[(i+3)%6].ID}
		}
		it := dataset.Item{ID: id, Question: fmt.Sprintf("请问%s需要准备哪些材料？办理时限是多久？", g.Title), DocID: g.ID, Retrieved: ret,
			Reference: fmt.Sprintf("办理%s需要身份证和申请表，承诺 5 个工作日内办结。", g.Title),
			QueryType: types[i%4], Category: []string{"社保", "医保", "市场监管"}[i%3],
			Coarse: []string{g.Title[:6], "材料"}, Fine: [][]string{{"身份证", "申请表"}, {"5 个工作日"}}}
		it.SetAnswer("rag", fmt.Sprintf("您好，办理%s需要携带身份证和申请表，可在网上申请，5 个工作日内办结。", g.Title))
		it.SetAnswer("zero", "您好，建议您咨询当地政务服务中心，具体材料以窗口要求为准。")
		it.SetAnswer("full", fmt.Sprintf("根据办事指南，%s的申请材料为身份证、申请表；流程为网上申请、窗口受理、审核、办结；承诺 5 个工作日办结。", g.Title))
		it.SetAnswer("v2", fmt.Sprintf("办理%s：身份证、申请表，5 个工作日。", g.Title))
		switch id {
		case "q03":
			it.SetAnswer("rag", formulaAnswer)
		case "q04":
			it.SetAnswer("rag", plusAnswer)
		case "q05":
			it.SetAnswer("rag", atAnswer)
		case longItem:
			it.SetAnswer("rag", strings.Repeat("办", longChars))
		}
		wb.Items = append(wb.Items, it)
	}
	wb.Items[9].DocID = "" // one item without a gold document
	dims := cube.DefaultDimensions
	clamp := func(v float64) float64 { return math.Max(0, math.Min(10, math.Round(v))) }
	for jn, judge := range fixtureJudges {
		for _, dim := range dims {
			for _, it := range wb.Items {
				hit := 0.0
				for r, d := range it.Retrieved {
					if d == it.DocID && it.DocID != "" {
						hit = float64(10 - r)
					}
				}
				base := 5 + 0.6*rng.NormFloat64() + 0.2*float64(jn)
				for k, v := range []float64{base - 1.5, base + 0.25*hit - 0.5, base + 2.5} {
					set := sets[k] // zero, rag, full: a fixed order keeps the draws reproducible
					j := dataset.Judgement{ItemID: it.ID, Set: set, Judge: judge, Dimension: dim, Repeat: 1,
						Score: clamp(v + 0.5*rng.NormFloat64()), Status: dataset.StatusOK}
					j.Raw = fmt.Sprintf(`{"score": %g, "reason": "回答与指南基本一致"}`, j.Score)
					if judge == "lexical" {
						j.Raw = ""
					}
					wb.Scores.Add(j)
				}
			}
		}
	}
	// Unscorable replies, one of them formula-like.
	for k, idx := range []int{5, 77, 150} {
		j := wb.Scores.At(idx)
		j.Status, j.Score, j.Reason = dataset.StatusUnscorable, 0, "no score in the reply"
		j.Raw = []string{"我无法给出分数。", "-- 评分失败 --", "（空回复）"}[k]
		wb.Scores.Set(idx, j)
	}
	for i := range 8 {
		for _, dim := range dims {
			for _, rater := range []string{"专家A", "专家B"} {
				wb.Human = append(wb.Human, dataset.HumanRating{ItemID: wb.Items[i].ID, Dimension: dim, Rater: rater, Score: clamp(6 + rng.NormFloat64())})
			}
		}
	}
	cfg := cube.DefaultConfig()
	cfg.BootstrapB = 200
	res, err := cube.Evaluate(wb.Items, wb.Scores, wb.Human, cfg)
	if err != nil {
		t.Fatal(err)
	}
	mres, err := mfss.Evaluate(context.Background(), embed.NewHashed(), wb.Items, []string{"rag", "zero", "full", "v2"}, mfss.DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	share := func(v float64) *float64 { return &v }
	cres := &cofe.Result{K: 4, Metrics: cofe.Metrics{AccuracyAtK: share(0.625), Recall: share(0.75), Coverage: share(0.9583), MeanHitScore: share(0.8), Queries: 24},
		ByQueryType: map[string]cofe.Metrics{
			"factual":     {AccuracyAtK: share(0.8), Recall: share(0.9), Coverage: share(1), MeanHitScore: share(0.9), Queries: 6},
			"tutorial":    {AccuracyAtK: share(0.5), Recall: share(0.6), Coverage: share(0.9), MeanHitScore: share(0.7), Queries: 6},
			"analytical":  {AccuracyAtK: share(0.6), Recall: share(0.7), Coverage: share(1), MeanHitScore: share(0.8), Queries: 6},
			"comparative": {AccuracyAtK: nil, Recall: share(0.5), Coverage: share(0.9), MeanHitScore: share(0.6), Queries: 6},
		},
		Chunker: "document", Retriever: "bm25", RecallN: 30, Chunks: 6}
	bl := &result.Baselines{Items: 23, BLEU: map[string]*float64{}, RougeL: map[string]*float64{}, PerItem: map[string]map[string][2]float64{}}
	for i, it := range wb.Items {
		if it.DocID == "" {
			continue
		}
		bl.PerItem[it.ID] = map[string][2]float64{"zero": {1 + float64(i%3), 10}, "rag": {12 + float64(i%5), 35}, "full": {30, 55}}
	}
	bl.BLEU["zero"], bl.BLEU["rag"], bl.BLEU["full"] = share(2), share(14), share(30)
	bl.RougeL["zero"], bl.RougeL["rag"], bl.RougeL["full"] = share(10), share(35), share(55)
	bl.BLEUNorm, bl.RougeLNorm = share(42.86), share(55.56)

	p := profile.Default()
	p.Judges = []profile.Endpoint{
		{Name: "qwen2.5-32b", BaseURL: "https://dashscope.example.cn/compatible-mode/v1", Model: "qwen2.5-32b-instruct", APIKeyEnv: "DASHSCOPE_API_KEY"},
		{Name: "deepseek-v3", BaseURL: "http://10.0.0.8:8000/v1", Model: "deepseek-v3", APIKeyEnv: "DEEPSEEK_KEY", Repeats: 1},
		{Name: "lexical", Lexical: true},
	}
	start := time.Date(2025, 3, 14, 9, 30, 0, 0, time.FixedZone("CST", 8*3600))
	s := &result.Summary{ToolVersion: "0.1.0-test", Result: res, MFSS: mres, CoFE: cres, Baselines: bl,
		Run: result.RunInfo{ID: 3, Started: start, Finished: start.Add(17 * time.Minute), Calls: 1152, Cached: 12, Failed: 2, Unscorable: 3,
			Tokens: 812345, Cost: 1.23, Embedder: "hashed-ngram", Workbook: wb.Source, Store: "/home/officer/.cube/runs.db",
			Judges: []result.JudgeInfo{{Name: "qwen2.5-32b", Kind: "llm", Model: "qwen2.5-32b-instruct", Host: "dashscope.example.cn", Repeats: 1},
				{Name: "deepseek-v3", Kind: "llm", Model: "deepseek-v3", Host: "10.0.0.8:8000", Repeats: 1}, {Name: "lexical", Kind: "lexical", Repeats: 1}}},
		Problems: []result.Problem{{Step: "judge", ItemID: "q06", Set: "rag", Judge: "qwen2.5-32b", Dim: "relevance", Reason: "no score in the reply"}},
	}
	s.Verdict = result.VerdictFor(res.Aggregate.Cube.Mean, 60, 40)
	return Input{Summary: s, Workbook: wb, Profile: p, Lang: "zh"}
}
