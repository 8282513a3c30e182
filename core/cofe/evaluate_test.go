package cofe

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"cubeworkbench/core/chunk"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/retrieve"
)

var testDocs = []Doc{
	{"d1", "居住证办理需要身份证和照片。居住证有效期一年。"},
	{"d2", "护照办理需要户口簿。护照有效期十年。"},
	{"d3", "社保卡挂失请拨打热线。社保卡补办需要身份证。"},
}

var testItems = []dataset.Item{
	{ID: "q1", QueryType: "事实类", Question: "居住证办理需要什么", Coarse: []string{"居住证"}, Fine: [][]string{{"身份证", "照片"}, {"有效期一年"}}},
	{ID: "q2", QueryType: "Tutorial", Question: "社保卡补办", Coarse: []string{"社保卡"}, Fine: [][]string{{"补办需要身份证"}, {"拨打热线"}}},
	{ID: "q3", QueryType: "比较类", Question: "护照和居住证有效期区别", Coarse: []string{"护照", "居住证"}, Fine: [][]string{{"有效期十年"}, {"有效期一年"}}},
	{ID: "q4", QueryType: "analytical", Question: "什么", Fine: [][]string{{"x"}}},
}

func val(p *float64) float64 {
	if p == nil {
		return -1
	}
	return *p
}

func checkMetrics(t *testing.T, name string, m Metrics, acc, rec, cov, hit float64, n int) {
	t.Helper()
	if val(m.AccuracyAtK) != acc || val(m.Recall) != rec || val(m.Coverage) != cov || val(m.MeanHitScore) != hit || m.Queries != n {
		t.Errorf("%s: got acc %v rec %v cov %v hit %v n %d; want %v %v %v %v %d", name,
			val(m.AccuracyAtK), val(m.Recall), val(m.Coverage), val(m.MeanHitScore), m.Queries, acc, rec, cov, hit, n)
	}
}

func TestEvaluate(t *testing.T) {
	var calls, last int
	res, err := Evaluate(context.Background(), Config{K: 1, RecallN: 3, Retriever: "bm25"}, testDocs, testItems,
		func(done, total int) { calls++; last = done; _ = total })
	if err != nil {
		t.Fatal(err)
	}
	// q1, q2 gold at 1; q3 needs both d1 and d2 (gold over 3, hit 0.5 at 1);
	// q4 has no coarse keywords: a miss everywhere, counted.
	checkMetrics(t, "all", res.Metrics, 0.5, 0.75, 0.75, (1+1+0.5+0)/4.0, 4)
	checkMetrics(t, "factual", res.ByQueryType["factual"], 1, 1, 1, 1, 1)
	checkMetrics(t, "comparative", res.ByQueryType["comparative"], 0, 1, 1, 0.5, 1)
	checkMetrics(t, "analytical", res.ByQueryType["analytical"], 0, 0, 0, 0, 1)
	if res.EmptyKeywordQueries != 1 || len(res.EmptyKeywordIDs) != 1 || res.EmptyKeywordIDs[0] != "q4" {
		t.Errorf("empty keyword queries %d %v", res.EmptyKeywordQueries, res.EmptyKeywordIDs)
	}
	if res.Chunks != 3 || res.Chunker != "document" || res.Retriever != "bm25" || res.K != 1 || calls != 4 || last != 4 {
		t.Errorf("result %+v, progress %d/%d", res, calls, last)
	}
}

// reverser reverses the retrieved order: the best chunk goes last.
type reverser struct{ got [][]string }

func (r *reverser) Rerank(_ context.Context, _ string, docs []string, _ int) ([]retrieve.Ranked, error) {
	r.got = append(r.got, docs)
	out := make([]retrieve.Ranked, len(docs))
	for i := range docs {
		out[i] = retrieve.Ranked{Index: len(docs) - 1 - i, Score: float64(i)}
	}
	return out, nil
}

func TestEvaluateRerankChangesAccuracyNotRecall(t *testing.T) {
	rr := &reverser{}
	res, err := Evaluate(context.Background(), Config{K: 1, RecallN: 3, Reranker: rr, Workers: 1}, testDocs, testItems, nil)
	if err != nil {
		t.Fatal(err)
	}
	// q1–q3 retrieve all three documents; reversed, the top one never holds
	// the coarse keyword. q4 ("什么") shares no term: nothing to rerank.
	checkMetrics(t, "all", res.Metrics, 0, 0.75, 0.75, 0, 4)
	if len(rr.got) != 3 || len(rr.got[0]) != 3 || !res.Reranked {
		t.Errorf("reranker saw %d lists", len(rr.got))
	}
}

func TestCoverageCleansChunksAndUsesKeywords(t *testing.T) {
	// The reference's offline check would use the query's characters as
	// coarse keywords and leave chunk text uncleaned: "provide basic" could
	// never match "providebasic". Here it does, and only relevant chunks count.
	chunks := []chunk.Chunk{{DocID: "a", Text: "GAIA: we Provide basic, health services."}, {DocID: "b", Text: "No keyword; Malaria in Africa."}}
	items := []dataset.Item{{Coarse: []string{"GAIA"}, Fine: [][]string{{"PROVIDE BASIC HEALTH SERVICES"}}},
		{Coarse: []string{"GAIA"}, Fine: [][]string{{"MALARIA IN AFRICA"}}}}
	got := CorpusGold(chunks, items)
	if !got[0] || got[1] {
		t.Errorf("CorpusGold = %v, want [true false]", got)
	}
}

func TestResultJSON(t *testing.T) {
	res, err := Evaluate(context.Background(), Config{}, testDocs, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	for _, want := range []string{`"k":4`, `"accuracy_at_k":null`, `"recall":null`, `"coverage":null`, `"mean_hit_score":null`,
		`"by_query_type":{}`, `"empty_keyword_queries":0`, `"chunker":"document"`, `"retriever":"bm25"`, `"chunks":3`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
}

func TestSweep(t *testing.T) {
	var last, total int
	s, err := Sweep(context.Background(), testDocs, testItems, []chunk.Chunker{chunk.FixedTokens(4, 1), chunk.PerDocument()},
		[]string{"bm25", "hybrid"}, Config{K: 1, Embedder: embed.NewHashed()}, func(d, n int) { last, total = d, n })
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rows) != 4 || s.Rows[0].Chunker != "fixed-4/1" || s.Rows[1].Retriever != "hybrid:bm25+offline-hash" || s.Rows[3].Chunker != "document" {
		t.Fatalf("rows %+v", s.Rows)
	}
	// 4-token windows cut "有效期一年" from "居住证": coverage of q1 is lost.
	if val(s.Rows[0].Coverage) >= val(s.Rows[2].Coverage) {
		t.Errorf("fixed-4 coverage %v not below per-document %v", val(s.Rows[0].Coverage), val(s.Rows[2].Coverage))
	}
	if last != 16 || total != 16 {
		t.Errorf("progress %d/%d", last, total)
	}
	if tab := s.Table(); len(tab) != 5 || tab[0][0] != "chunker" {
		t.Errorf("table %v", tab)
	}
}
