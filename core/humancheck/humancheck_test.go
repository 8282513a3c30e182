package humancheck

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/stats"
	"cubeworkbench/core/text"
)

func f(v float64) *float64 { return &v }

// items builds n questions: the first nr not retrieved, scores rising with
// the index, disagreement highest for the items with index%7 == 0.
func items(n, nr int) []ItemInfo {
	var out []ItemInfo
	for i := range n {
		it := ItemInfo{ID: fmt.Sprintf("q%03d", i), GoldKnown: true, Rank: 1, Score: f(float64(i%50) / 5),
			Disagreement: f(float64(i%13) / 4), Sets: []string{"rag", "zero", "full"}}
		if i < nr {
			it.Rank = 0
		}
		out = append(out, it)
	}
	return out
}

func TestDrawStratified(t *testing.T) {
	d := Draw(items(200, 12), DrawOptions{Seed: 7})
	if d.N != DefaultN || len(d.Tasks) != DefaultN {
		t.Fatalf("drew %d tasks (N %d), want %d", len(d.Tasks), d.N, DefaultN)
	}
	pop, drawn := map[string]int{}, map[string]int{}
	total := 0
	for _, s := range d.Strata {
		pop[s.Name], drawn[s.Name] = s.Population, s.Drawn
		total += s.Population
	}
	if total != 200 || pop[StratumNotRetrieved] != 12 {
		t.Fatalf("strata %+v", d.Strata)
	}
	seen := map[string]bool{}
	for _, task := range d.Tasks {
		if seen[task.ItemID] {
			t.Fatalf("%s drawn twice", task.ItemID)
		}
		seen[task.ItemID] = true
		want := float64(drawn[task.Stratum]) / float64(pop[task.Stratum])
		if task.Pi != want || task.SetProb != 1.0/3 || math.Abs(task.Weight()-1/(want/3)) > 1e-9 {
			t.Errorf("%+v: pi want %v", task, want)
		}
	}
	for _, s := range []string{StratumNotRetrieved, StratumLow, StratumDisagreement} {
		// each special stratum gets its floor of 30/6 = 5
		if drawn[s] < min(5, pop[s]) || pop[s] == 0 {
			t.Errorf("stratum %s: %d of %d drawn", s, drawn[s], pop[s])
		}
	}
	// The weights add up to the population (Σ 1/π over the questions).
	var sum float64
	for _, task := range d.Tasks {
		sum += 1 / task.Pi
	}
	if math.Abs(sum-200) > 1e-9 {
		t.Errorf("Σ 1/π = %v, want 200", sum)
	}
	if again := Draw(items(200, 12), DrawOptions{Seed: 7}); !reflect.DeepEqual(again, d) {
		t.Error("the same seed drew a different sample")
	}
	if other := Draw(items(200, 12), DrawOptions{Seed: 8}); reflect.DeepEqual(other.Tasks, d.Tasks) {
		t.Error("another seed drew the same sample")
	}
	small := Draw(items(10, 2), DrawOptions{N: 30, Sets: []string{"rag"}})
	if small.N != 10 || small.Tasks[0].Pi != 1 || small.Tasks[0].Set != "rag" {
		t.Errorf("fewer items than N: %+v", small)
	}
}

// judgement is one ok score.
func judgement(judge, item, set, dim string, score float64) dataset.Judgement {
	return dataset.Judgement{ItemID: item, Set: set, Judge: judge, Dimension: dim, Score: score, Status: dataset.StatusOK, Repeat: 1}
}

// The agreement figures are core/stats' on the people's mean and the judge's
// score of the same answers.
func TestComputeAgreementIsStats(t *testing.T) {
	human := map[string][2]float64{"q1": {2, 4}, "q2": {6, 6}, "q3": {9, 7}, "q4": {1, 1}, "q5": {5, 8},
		"q6": {3, 3}, "q7": {10, 9}, "q8": {0, 2}, "q9": {7, 7}, "q10": {4, 6}}
	judge := map[string]float64{"q1": 4, "q2": 5, "q3": 9, "q4": 3, "q5": 6, "q6": 3, "q7": 8, "q8": 1, "q9": 7, "q10": 5}
	var in Input
	in.Judges, in.Dimensions, in.Seed = []string{"J"}, []string{"relevance"}, 1
	var hx, jx []float64
	for _, id := range []string{"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10"} {
		in.Ratings = append(in.Ratings, Rating{"甲", id, "rag", "relevance", human[id][0]}, Rating{"乙", id, "rag", "relevance", human[id][1]})
		in.Scores.Add(judgement("J", id, "rag", "relevance", judge[id]))
		hx = append(hx, (human[id][0]+human[id][1])/2)
		jx = append(jx, judge[id])
	}
	in.Ratings = append(in.Ratings, Rating{"甲", "q1", "rag", "relevance", 11}, Rating{"甲", "q1", "rag", "nonsense", 3})
	r := Compute(in)
	if r.Ratings != 20 || r.Ignored != 2 || r.Answers != 10 || len(r.Raters) != 2 {
		t.Fatalf("counts: ratings %d ignored %d answers %d raters %v", r.Ratings, r.Ignored, r.Answers, r.Raters)
	}
	a, ok := r.For("J", "relevance")
	if !ok || a.N != 10 {
		t.Fatalf("agreement %+v %v", a, ok)
	}
	wantA, _ := stats.PairAlpha(jx, hx)
	wantS, _ := stats.Spearman(jx, hx)
	wantM, _ := stats.MeanAbsDiff(jx, hx)
	if *a.Alpha.Value != wantA || *a.Spearman.Value != wantS || *a.MAD.Value != wantM {
		t.Errorf("α %v ρ %v MAD %v; want %v %v %v", *a.Alpha.Value, *a.Spearman.Value, *a.MAD.Value, wantA, wantS, wantM)
	}
	// hand check of MAD: |4−3| + |5−6| + |9−8| + |3−1| + |6−6.5| + |3−3| + |8−9.5| + |1−1| + |7−7| + |5−5| = 7, over 10
	if math.Abs(wantM-0.7) > 1e-12 {
		t.Errorf("MAD %v, want 0.7", wantM)
	}
	if a.Alpha.CI95 == nil || a.Alpha.CI95[0] > a.Alpha.CI95[1] {
		t.Errorf("α interval %v", a.Alpha.CI95)
	}
	units := [][]float64{{2, 4}, {6, 6}, {9, 7}, {1, 1}, {5, 8}, {4, 6}, {3, 3}, {10, 9}, {0, 2}, {7, 7}} // in id order: q1, q10, q2 … q9
	units = [][]float64{units[0], units[5], units[1], units[2], units[3], units[4], units[6], units[7], units[8], units[9]}
	if want, _ := stats.KrippendorffAlphaInterval(units); *r.InterRaterAlpha != want {
		t.Errorf("inter-rater α %v, want %v", *r.InterRaterAlpha, want)
	}
	if r.Trust != "J" || !strings.Contains(r.TrustText.ZH, "J") {
		t.Errorf("trust %q %q", r.Trust, r.TrustText.ZH)
	}
	if d, doubt := r.Doubt(); doubt != (wantA < AlphaTentative) || doubt && !strings.Contains(d.ZH, "请勿单凭") {
		t.Errorf("doubt %v %q with α %.3f", doubt, d.ZH, wantA)
	}
	if line := r.SummaryLine(); !strings.HasPrefix(line.ZH, "10 个回答经 2 名人员抽检，评审模型与人工评分一致性 α = ") || strings.Contains(line.ZH, "不适用") {
		t.Errorf("summary line %q", line.ZH)
	}
	if r.Weighted || len(r.Notes) == 0 {
		t.Errorf("ratings without a design must say their means are unweighted: %+v", r.Notes)
	}
}

// The design's weights enter the means: two rag answers, weights 1 and 3.
func TestTableWeightsAndBounds(t *testing.T) {
	d := &Design{Tasks: []Task{
		{Seq: 1, ItemID: "a", Set: "rag", Pi: 1, SetProb: 1},
		{Seq: 2, ItemID: "b", Set: "rag", Pi: 1.0 / 3, SetProb: 1},
		{Seq: 3, ItemID: "c", Set: "zero", Pi: 1, SetProb: 1},
		{Seq: 4, ItemID: "d", Set: "full", Pi: 1, SetProb: 1},
	}}
	in := Input{Judges: []string{"J"}, Dimensions: []string{"quality"}, Design: d, Recall: f(0.5), Seed: 1, B: 50,
		Ratings: []Rating{{"甲", "a", "rag", "quality", 2}, {"甲", "b", "rag", "quality", 6}, {"甲", "c", "zero", "quality", 1}, {"甲", "d", "full", "quality", 9}},
		Scores: dataset.ScoresOf(judgement("J", "a", "rag", "quality", 4), judgement("J", "b", "rag", "quality", 8),
			judgement("J", "c", "zero", "quality", 2), judgement("J", "d", "full", "quality", 10)),
	}
	r := Compute(in)
	row := r.Table[0]
	// people: (1·20 + 3·60)/4 = 50; judge: (1·40 + 3·80)/4 = 70.
	if row.Key != "quality" || *row.Human.Mean != 50 || *row.Judges["J"].Mean != 70 {
		t.Fatalf("weighted means: %+v %+v", row.Human, row.Judges["J"])
	}
	// N people: 100·(5 − 1)/(9 − 1) = 50; judge: 100·(7 − 2)/(10 − 2) = 62.5. CuBE = N·0.5.
	var norm, cubeRow Row
	for _, row := range r.Table {
		switch row.Key {
		case RowNormalized:
			norm = row
		case RowCube:
			cubeRow = row
		}
	}
	if *norm.Human.Mean != 50 || *norm.Judges["J"].Mean != 62.5 || *cubeRow.Human.Mean != 25 || *cubeRow.Judges["J"].Mean != 31.25 {
		t.Errorf("N %+v %+v, CuBE %+v %+v", norm.Human, norm.Judges["J"], cubeRow.Human, cubeRow.Judges["J"])
	}
	// weighted MAD: |4−2|·1 + |8−6|·3 … all differences are 2 or 1: (2 + 3·2 + 1 + 1)/6
	a, _ := r.For("J", "quality")
	if math.Abs(*a.MAD.Value-10.0/6) > 1e-12 {
		t.Errorf("weighted MAD %v, want 10/6", *a.MAD.Value)
	}
	// without zero and full ratings N is n/a and a note says why
	in.Ratings = in.Ratings[:2]
	r = Compute(in)
	for _, row := range r.Table {
		if row.Key == RowNormalized && row.Human.Mean != nil {
			t.Errorf("N defined without bounds: %v", *row.Human.Mean)
		}
	}
	if len(r.Notes) == 0 || !strings.Contains(r.Notes[len(r.Notes)-1].ZH, "不适用") {
		t.Errorf("no note on the missing bounds: %+v", r.Notes)
	}
}

func TestCardsAreBlind(t *testing.T) {
	typ := reflect.TypeOf(Card{})
	for i := range typ.NumField() {
		name := strings.ToLower(typ.Field(i).Name)
		for _, bad := range []string{"set", "score", "stratum", "judge", "weight", "pi"} {
			if strings.Contains(name, bad) {
				t.Errorf("Card has a field %s", typ.Field(i).Name)
			}
		}
	}
	wb := &dataset.Workbook{
		Guides: []dataset.Guide{{ID: "g1", Title: "居住证", Text: "申请材料：身份证"}},
		Items: []dataset.Item{{ID: "q1", Question: "要带什么？", DocID: "g1", Answers: map[string]string{"rag": "身份证", "zero": "户口本"}},
			{ID: "q2", Question: "多久？", DocID: "g1", Answers: map[string]string{"rag": "五天"}}},
	}
	d := &Design{Tasks: []Task{{Seq: 1, ItemID: "q1", Set: "zero"}, {Seq: 2, ItemID: "q2", Set: "full"}, {Seq: 3, ItemID: "q2", Set: "rag"}}}
	cards := Cards(d, wb)
	if len(cards) != 2 || cards[0].Answer != "户口本" || cards[0].Guide != "申请材料：身份证" || cards[1].Seq != 3 {
		t.Errorf("cards %+v", cards)
	}
}

func TestRubricIsTheJudgesCriteria(t *testing.T) {
	zh := Rubric("relevance", text.ZH, "")
	if !strings.Contains(zh, "事项对应") || strings.Contains(zh, "评分：N") || strings.Contains(zh, "<<<") || strings.Contains(zh, "title_zh") {
		t.Errorf("zh rubric:\n%s", zh)
	}
	if en := Rubric("relevance", text.EN, ""); !strings.Contains(en, "Right matter") || strings.Contains(en, "Score: N") {
		t.Errorf("en rubric:\n%s", en)
	}
	if Rubric("no-such-dimension", text.ZH, "") != "" {
		t.Error("rubric for an unknown dimension")
	}
}

// Fewer than MinAnswers rated answers name no judge, and the summary line
// says why instead of showing an α chosen from a handful of pairs.
func TestTooFewAnswersNameNoJudge(t *testing.T) {
	in := Input{Judges: []string{"J"}, Dimensions: []string{"quality"}, Seed: 1, B: 20, SetAside: 120}
	for i := range 3 {
		id := fmt.Sprintf("q%d", i)
		in.Ratings = append(in.Ratings, Rating{"甲", id, "rag", "quality", float64(2 * i)})
		in.Scores.Add(judgement("J", id, "rag", "quality", float64(3*i)))
	}
	r := Compute(in)
	if r.Trust != "" || !strings.Contains(r.TrustText.ZH, "只有 3 个") {
		t.Errorf("trust %q: %s", r.Trust, r.TrustText.ZH)
	}
	if line := r.SummaryLine().ZH; !strings.Contains(line, "α = 不适用（回答太少") {
		t.Errorf("summary line %q", line)
	}
	if !strings.Contains(fmt.Sprint(r.Notes), "120 条评分未计入") {
		t.Errorf("notes %+v", r.Notes)
	}
}
