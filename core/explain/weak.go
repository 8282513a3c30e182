package explain

import (
	"fmt"
	"slices"
	"strings"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
)

// Classify says, for every question of the result, why it is weak (an
// empty Reasons when it is not): the question grid's filters use it so
// that they count exactly what the why panel lists. Questions come in the
// result's order.
func Classify(in Input) []WeakItem {
	res := in.Result
	if res == nil {
		return nil
	}
	th := in.Thresholds.withDefaults()
	byID := make(map[string]int, len(in.Items))
	for i, it := range in.Items {
		if _, dup := byID[it.ID]; !dup {
			byID[it.ID] = i
		}
	}
	unscorable := map[string]int{}
	for j := range in.Scores.Values() {
		if !j.OK() && (j.Set == dataset.SetRAG || j.Set == dataset.SetZero || j.Set == dataset.SetFull) {
			unscorable[j.ItemID]++
		}
	}
	lv := boundLevels(res)
	out := make([]WeakItem, len(res.ItemDetails))
	for k, d := range res.ItemDetails {
		w := WeakItem{ID: d.ID, Index: k, Rank: d.Rank, GoldKnown: d.GoldKnown, Score: d.RAGOverall,
			Disagreement: d.DisagreementOverall, Unscorable: unscorable[d.ID], Reasons: []string{}}
		i, ok := k, k < len(in.Items) && in.Items[k].ID == d.ID
		if !ok {
			i, ok = byID[d.ID]
		}
		if ok {
			w.Index, w.Row, w.Question = i, in.Items[i].Row, in.Items[i].Question
		}
		var zh, en []string
		if d.GoldKnown && d.Rank == 0 {
			w.Reasons = append(w.Reasons, ReasonNotRetrieved)
			zh = append(zh, glossary.Term(glossary.NotRetrieved, "zh"))
			en = append(en, glossary.Term(glossary.NotRetrieved, "en"))
		}
		if s := d.RAGOverall; s != nil {
			if lv.ok {
				b := 100 * (*s - lv.zero) / (lv.full - lv.zero)
				w.Bounded = &b
				if b < th.LowScore {
					w.Reasons = append(w.Reasons, ReasonLowScore)
					if b < 0 {
						zh = append(zh, fmt.Sprintf("低分：%s 分（满分 10），不如%s", two(*s), glossary.Term(glossary.SetZeroShort, "zh")))
						en = append(en, fmt.Sprintf("low score: %s of 10, below the %s", two(*s), glossary.Term(glossary.SetZeroShort, "en")))
					} else {
						zh = append(zh, fmt.Sprintf("低分：%s 分（满分 10），只达到%s水平的 %s %%", two(*s), glossary.Term(glossary.SetFullShort, "zh"), points(b)))
						en = append(en, fmt.Sprintf("low score: %s of 10, %s %% of the level of %s", two(*s), points(b), glossary.Term(glossary.SetFullShort, "en")))
					}
				}
			} else if *s < th.LowScoreAbs {
				w.Reasons = append(w.Reasons, ReasonLowScore)
				zh = append(zh, fmt.Sprintf("低分：%s 分（满分 10，低于 %s）", two(*s), points(th.LowScoreAbs)))
				en = append(en, fmt.Sprintf("low score: %s of 10 (below %s)", two(*s), points(th.LowScoreAbs)))
			}
		}
		if sd := d.DisagreementOverall; sd != nil && *sd >= th.Disagree {
			w.Reasons = append(w.Reasons, ReasonJudgesDisagree)
			zh = append(zh, fmt.Sprintf("评审模型分歧大：相差 ±%s 分", two(*sd)))
			en = append(en, fmt.Sprintf("judges disagree: ±%s points", two(*sd)))
		}
		if n := w.Unscorable; n > 0 || (d.RAGOverall == nil && len(res.Judges) > 0) {
			w.Reasons = append(w.Reasons, ReasonUnscorable)
			if n > 0 {
				zh = append(zh, fmt.Sprintf("无法评分：%d 条评审回复", n))
				en = append(en, fmt.Sprintf("unscorable: %d judge replies", n))
			} else {
				zh = append(zh, "无法评分：被测系统回答没有任何得分")
				en = append(en, "unscorable: the system answer has no score")
			}
		}
		w.ZH, w.EN = strings.Join(zh, "；"), strings.Join(en, "; ")
		out[k] = w
	}
	return out
}

// levels are the run's lower and upper bound on the 0–10 scale of a
// question's score: the zero and full trimmed means averaged over judges
// and dimensions, as RAGOverall averages the rag scores.
type levels struct {
	zero, full float64
	ok         bool
}

// boundLevels reads the levels from the judges' trimmed means; ok is false
// when either is undefined or they collapse (then an absolute threshold
// stands in).
func boundLevels(res *cube.Result) levels {
	mean := func(set string) (float64, bool) {
		var s float64
		n := 0
		for _, j := range res.Judges {
			for _, d := range res.Dimensions {
				if v := j.TrimmedMeans[set][d]; v != nil {
					s += *v
					n++
				}
			}
		}
		return s / float64(max(n, 1)), n > 0
	}
	z, okZ := mean(dataset.SetZero)
	f, okF := mean(dataset.SetFull)
	return levels{zero: z, full: f, ok: okZ && okF && f-z > 1e-9}
}

// weakest picks the n weakest of the classified questions: those with a
// reason, the lowest score first (a question with no score at all first
// of all: nothing vouches for it), then the most reasons, the widest
// disagreement, and the workbook's order.
func weakest(all []WeakItem, n int) []WeakItem {
	var weak []WeakItem
	for _, w := range all {
		if len(w.Reasons) > 0 {
			weak = append(weak, w)
		}
	}
	slices.SortStableFunc(weak, func(a, b WeakItem) int {
		if c := cmpScore(a.Score, b.Score); c != 0 {
			return c
		}
		if c := len(b.Reasons) - len(a.Reasons); c != 0 {
			return c
		}
		return -cmpScore(a.Disagreement, b.Disagreement)
	})
	if len(weak) > n {
		weak = weak[:n]
	}
	if weak == nil {
		weak = []WeakItem{}
	}
	return weak
}

// cmpScore orders nil before every number, then ascending.
func cmpScore(a, b *float64) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	case *a < *b:
		return -1
	case *a > *b:
		return 1
	}
	return 0
}

func countReasons(all []WeakItem) map[string]int {
	c := map[string]int{ReasonNotRetrieved: 0, ReasonLowScore: 0, ReasonJudgesDisagree: 0, ReasonUnscorable: 0}
	for _, w := range all {
		for _, r := range w.Reasons {
			c[r]++
		}
	}
	return c
}

// missedIDs lists the questions whose known gold guide was not retrieved.
func missedIDs(res *cube.Result) []string {
	var ids []string
	for _, d := range res.ItemDetails {
		if d.GoldKnown && d.Rank == 0 {
			ids = append(ids, d.ID)
		}
	}
	return ids
}
