package engine

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/result"
	"cubeworkbench/core/stats"
	"cubeworkbench/core/textmetric"
)

// computeBaselines scores BLEU and ROUGE-L of each set's answers against
// the gold document (result.Baselines).
func computeBaselines(wb *dataset.Workbook) *result.Baselines {
	idx := wb.GuideIndex()
	sets := []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull}
	type job struct{ item, guide int }
	var jobs []job
	for i, it := range wb.Items {
		gi, ok := idx[it.DocID]
		if !ok || it.DocID == "" {
			continue
		}
		complete := true
		for _, s := range sets {
			if it.Answer(s) == "" {
				complete = false
			}
		}
		if complete {
			jobs = append(jobs, job{i, gi})
		}
	}
	scores := make([][3][2]float64, len(jobs)) // job → set → {BLEU, ROUGE-L}
	groups := jobsByGuide(len(jobs), func(n int) int { return jobs[n].guide })
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var scratch baselineScratch
			for g := int(next.Add(1) - 1); g < len(groups); g = int(next.Add(1) - 1) {
				doc := wb.Guides[jobs[groups[g][0]].guide].Text
				ref := newBaselineRef(doc)
				for _, n := range groups[g] {
					it := &wb.Items[jobs[n].item]
					for k, s := range sets {
						scores[n][k] = ref.score(it.Answer(s), &scratch)
					}
				}
			}
		}()
	}
	wg.Wait()

	b := &result.Baselines{Items: len(jobs), BLEU: map[string]*float64{}, RougeL: map[string]*float64{}, PerItem: make(map[string]map[string][2]float64, len(jobs))}
	for k, s := range sets {
		bleu := make([]float64, len(jobs))
		rouge := make([]float64, len(jobs))
		for n := range jobs {
			bleu[n], rouge[n] = scores[n][k][0], scores[n][k][1]
		}
		b.BLEU[s] = ptr(stats.Mean(bleu))
		b.RougeL[s] = ptr(stats.Mean(rouge))
	}
	for n, j := range jobs {
		per := make(map[string][2]float64, len(sets))
		for k, s := range sets {
			per[s] = scores[n][k]
		}
		b.PerItem[wb.Items[j.item].ID] = per
	}
	b.BLEUNorm = normalizeBetween(b.BLEU)
	b.RougeLNorm = normalizeBetween(b.RougeL)
	return b
}

func normalizeBetween(m map[string]*float64) *float64 {
	z, r, f := m[dataset.SetZero], m[dataset.SetRAG], m[dataset.SetFull]
	if z == nil || r == nil || f == nil {
		return nil
	}
	return ptr(cube.Bound(*r, *z, *f))
}

func ptr(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	return &v
}

// jobsByGuide groups job indices 0..n-1 by their guide, each group in job
// order, the groups in order of their first job: a guide is tokenised and
// counted once for all the questions whose gold document it is, and then
// dropped, so the baselines hold one guide per core whatever the corpus.
func jobsByGuide(n int, guide func(int) int) [][]int {
	at := map[int]int{}
	var groups [][]int
	for j := range n {
		g, ok := at[guide(j)]
		if !ok {
			g = len(groups)
			at[guide(j)] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], j)
	}
	return slices.Clip(groups)
}

// baselineRef is a gold document made ready for the BLEU and ROUGE-L of
// any number of answers: BLEU's tokens and n-grams counted once, ROUGE-L's
// tokens numbered once per tokenizer (rouge-score's, or Chinese when either
// text is Chinese, as textmetric.Rouge decides). An answer is tokenised
// straight into the document's token ids, with no string per token.
type baselineRef struct {
	doc   string
	bleu  *textmetric.BLEURef // nil when the options are refused (never: they are the defaults)
	docZH bool
	rouge [2]*textmetric.RougeLRef // over rouge-score's tokens, Chinese tokens; nil until needed
}

func newBaselineRef(doc string) *baselineRef {
	r := &baselineRef{doc: doc, docZH: textmetric.IsChinese(doc)}
	r.bleu, _ = textmetric.NewBLEURef(doc, textmetric.BLEUOptions{Tokenize: textmetric.AutoBLEUTokenizer(doc)})
	return r
}

// score is one answer's {BLEU, ROUGE-L F} against the document, 0–100:
// SentenceBLEU(ans, [doc]) and 100·RougeL(doc, ans).F as computed pair by
// pair before (TestBaselinesOracle).
func (r *baselineRef) score(ans string, scratch *baselineScratch) [2]float64 {
	var out [2]float64
	if r.bleu != nil {
		out[0] = r.bleu.Score(ans, &scratch.bleu)
	}
	kind := 0
	if r.docZH || textmetric.IsChinese(ans) {
		kind = 1
	}
	if r.rouge[kind] == nil {
		var toks []string
		if kind == 1 {
			toks = textmetric.TokenizeChinese(r.doc)
		} else {
			toks = textmetric.RougeTokenize(r.doc, false)
		}
		r.rouge[kind] = textmetric.NewRougeLRef(toks)
	}
	out[1] = 100 * r.rouge[kind].LText(ans, kind == 1, false, &scratch.rouge).F
	return out
}

// baselineScratch is one worker's reused working memory.
type baselineScratch struct {
	bleu  textmetric.BLEUScratch
	rouge textmetric.RougeScratch
}
