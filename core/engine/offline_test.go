package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"cubeworkbench/core/ingest"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/target"
	"cubeworkbench/core/text"
	"cubeworkbench/internal/testbook"
)

// filledItems is the workbook of TestOfflineFilledScores: item i's gold
// document G(i) sits at rank ranks[i] of its retrieved list (0 = absent,
// -1 = the list holds the gold document alone).
var filledRanks = []int{1, 2, 3, 0, 1, -1, 4, 0, 2, 5, 1, 3, 0, 6}

// filledScore is judge j's score of item i in a set on dimension d: the
// rag scores of relevance rise with the rank score, completeness falls with
// it (its correlation is clipped to 0), the others are noisy.
func filledScore(judge, set string, i, d int, rankScore int) int {
	noise := (i*7 + d*3 + len(judge)*5) % 3
	switch set {
	case "zero":
		return 1 + (i+d)%3
	case "full":
		return 8 + (i*d+len(judge))%3
	}
	switch d {
	case 0: // relevance
		return min(10, 2+rankScore/2+noise)
	case 1: // specificity
		return 4 + (i*3+len(judge))%5
	case 2: // completeness
		return max(0, 9-rankScore/2-noise)
	default: // quality
		return 3 + (i*i+d+len(judge))%6
	}
}

func writeFilledWorkbook(t *testing.T, path string) {
	t.Helper()
	b := testbook.New()
	guides := b.Sheet("guides", "doc_id", "title", "text")
	qa := b.Sheet("qa", "id", "question", "doc_id", "answer", "retrieved", "answer_zero", "answer_full")
	scores := b.Sheet("scores", "id", "set", "judge", "dimension", "score", "repeat", "status")
	n := len(filledRanks)
	for i, rank := range filledRanks {
		gold := fmt.Sprintf("G%02d", i+1)
		guides.Row(gold, "事项"+gold, "事项"+gold+"：持身份证办理，5个工作日。")
		var retrieved []string
		switch {
		case rank == -1:
			retrieved = []string{gold}
		default:
			for r := 1; r <= 6; r++ {
				if r == rank {
					retrieved = append(retrieved, gold)
				} else {
					retrieved = append(retrieved, fmt.Sprintf("G%02d", (i+r)%n+1))
				}
			}
			if rank == 0 { // make sure the gold document is absent
				for k, id := range retrieved {
					if id == gold {
						retrieved[k] = "X99"
					}
				}
			}
		}
		id := fmt.Sprintf("q%02d", i+1)
		qa.Row(id, "事项"+gold+"怎么办？", gold, "答"+id, strings.Join(retrieved, "|"), "零"+id, "满"+id)
		for _, judge := range []string{"judge-A", "judge-BB"} {
			for _, set := range []string{"zero", "rag", "full"} {
				for d, dim := range fourDims {
					scores.Row(id, set, judge, dim, filledScore(judge, set, i, d, rankScore(rank)), 1, "ok")
				}
			}
		}
	}
	b.WriteXLSX(t, path)
}

// rankScore is formulas.md §1 for TOP-N 8: 10 − rank, 0 when absent, plus
// one when the list holds the gold document alone (rank −1 here).
func rankScore(rank int) int {
	switch rank {
	case 0:
		return 0
	case -1:
		return 10
	}
	return 10 - rank
}

// trimmedMean drops floor(α·n) values from each end (scipy's trim_mean).
func trimmedMean(xs []float64, alpha float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	cut := int(math.Floor(alpha * float64(len(s))))
	return stat.Mean(s[cut:len(s)-cut], nil)
}

// TestOfflineFilledScores: a workbook whose scores sheet is already filled
// by two judges evaluates offline with no judge in the profile and no call;
// the correlation weights, Recall@k and CuBE equal an independent
// computation of formulas.md §1.
func TestOfflineFilledScores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "filled.xlsx")
	writeFilledWorkbook(t, path)
	wb, rep, err := ingest.Open(context.Background(), path, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) > 0 {
		t.Fatalf("workbook problems: %+v", rep.Problems)
	}
	n := len(filledRanks)
	if len(wb.Items) != n || wb.Scores.Len() != n*2*3*4 {
		t.Fatalf("read %d items, %d scores", len(wb.Items), wb.Scores.Len())
	}
	p := testProfile() // no judges: the scores sheet names them
	p.Weights = "correlation"
	noCall := func(profile.Endpoint) (llm.Completer, error) {
		t.Error("an offline run with filled scores built an endpoint client")
		return nil, errors.New("no")
	}
	noTarget := func(profile.Target) (target.Target, error) {
		t.Error("an offline run built a target")
		return nil, errors.New("no")
	}
	res, err := Run(context.Background(), wb, Options{Profile: p, Store: openStore(t, ""), Offline: true,
		NewCompleter: noCall, NewTarget: noTarget})
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Summary
	if sum.Run.Calls != 0 || sum.Run.Cached != 0 || !sum.Run.Offline || res.Workbook.Scores.Len() != n*2*3*4 {
		t.Errorf("offline run: %d calls, %d cached, offline %v, %d scores", sum.Run.Calls, sum.Run.Cached, sum.Run.Offline, res.Workbook.Scores.Len())
	}
	for _, j := range sum.Run.Judges {
		if j.Kind != "imported" {
			t.Errorf("judge %s of kind %s in a run with only imported scores", j.Name, j.Kind)
		}
	}

	// Independent computation.
	rs := make([]float64, n)
	retrievedItems := 0
	for i, r := range filledRanks {
		rs[i] = float64(rankScore(r))
		if r != 0 {
			retrievedItems++
		}
	}
	recall := float64(retrievedItems) / float64(n)
	if sum.RecallAtK == nil || !(math.Abs(*sum.RecallAtK-recall) <= 1e-12) {
		t.Errorf("recall_at_k %s, want %v", ptrString(sum.RecallAtK), recall)
	}
	if len(sum.Judges) != 2 {
		t.Fatalf("%d judges in the summary", len(sum.Judges))
	}
	clipped := 0
	for _, jr := range sum.Judges {
		r := make([]float64, len(fourDims))
		total := 0.0
		for d := range fourDims {
			y := make([]float64, n)
			for i, rank := range filledRanks {
				y[i] = float64(filledScore(jr.Judge, "rag", i, d, rankScore(rank)))
			}
			r[d] = stat.Correlation(rs, y, nil)
			if math.IsNaN(r[d]) {
				t.Fatalf("%s: %s has zero variance; the test wants every correlation defined", jr.Judge, fourDims[d])
			}
			if r[d] <= 0 {
				r[d] = 0
				clipped++
			}
			total += r[d]
		}
		if jr.WeightSource != "correlation" {
			t.Errorf("%s: weight source %q", jr.Judge, jr.WeightSource)
		}
		w := make([]float64, len(fourDims))
		for d, dim := range fourDims {
			w[d] = r[d] / total
			if !(math.Abs(jr.Weights[dim]-w[d]) <= 1e-12) { // NaN fails too
				t.Errorf("%s: weight %s = %.15f, independent %.15f", jr.Judge, dim, jr.Weights[dim], w[d])
			}
		}
		// CuBE: trimmed means over the retrieved items, weighted totals,
		// normalisation between the bounds, times Recall@k.
		weighted := map[string]float64{}
		for _, set := range []string{"zero", "rag", "full"} {
			for d := range fourDims {
				var xs []float64
				for i, rank := range filledRanks {
					if rank != 0 {
						xs = append(xs, float64(filledScore(jr.Judge, set, i, d, rankScore(rank))))
					}
				}
				weighted[set] += w[d] * trimmedMean(xs, p.Trim)
			}
		}
		cube := 100 * (weighted["rag"] - weighted["zero"]) / (weighted["full"] - weighted["zero"]) * recall
		if jr.Cube == nil || !(math.Abs(*jr.Cube-cube) <= 1e-9) {
			t.Errorf("%s: CuBE %s, independent %v", jr.Judge, ptrString(jr.Cube), cube)
		}
	}
	if clipped == 0 {
		t.Error("no correlation was negative: the test does not exercise the clipping")
	}
}

func ptrString(p *float64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// An offline judge's memos of guides and questions are let go once its
// judgements are made: judgeAll drops its scorer, so the metrics that
// follow do not run beside them (issue 27: about 60 MB at 100,000
// questions). Its name and kind are still there for the summary.
func TestOfflineJudgesLetGoOfTheirMemos(t *testing.T) {
	wb := buildWorkbook(6)
	p := testProfile(profile.Endpoint{Name: "lexical", Lexical: true}, profile.Endpoint{Name: "semantic", Semantic: true})
	r := &runner{opt: Options{Profile: p, Store: openStore(t, ""), Progress: NoProgress}, wb: wb, lang: text.Lang(p.Language), meter: &llm.Meter{}}
	judges, err := r.judges()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.judgeAll(context.Background(), judges); err != nil {
		t.Fatal(err)
	}
	if got, want := wb.Scores.Len(), 6*3*4*2; got != want {
		t.Fatalf("%d judgements, want %d", got, want)
	}
	for _, aj := range judges {
		if aj.s != nil {
			t.Errorf("judge %s (%s) still holds its scorer after judging", aj.ep.Name, aj.kind)
		}
	}
	if infos := judgeInfos(judges, wb); len(infos) != 2 || infos[0].Kind != "lexical" || infos[1].Kind != "semantic" {
		t.Errorf("judge infos after judging: %+v", infos)
	}
}
