package engine

import (
	"runtime"
	"sync"

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
	type job struct {
		item int
		doc  string
	}
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
			jobs = append(jobs, job{i, wb.Guides[gi].Text})
		}
	}
	// Items are independent: score them on every core, each worker writing
	// only its own slots. The guide is tokenized once per item for ROUGE-L,
	// and only ROUGE-L is computed (not ROUGE-1/2/Lsum).
	scores := make([][3][2]float64, len(jobs)) // job → set → {BLEU, ROUGE-L}
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for n := w; n < len(jobs); n += workers {
				it, doc := &wb.Items[jobs[n].item], jobs[n].doc
				opt := textmetric.BLEUOptions{Tokenize: textmetric.AutoBLEUTokenizer(doc)}
				docZH := textmetric.IsChinese(doc)
				var docTokens [2][]string // rouge-score's tokens, Chinese tokens
				for k, s := range sets {
					ans := it.Answer(s)
					if res, err := textmetric.SentenceBLEU(ans, []string{doc}, opt); err == nil {
						scores[n][k][0] = res.Score
					}
					// As textmetric.Rouge: Chinese tokens when either text is Chinese.
					kind, tok := 0, func(x string) []string { return textmetric.RougeTokenize(x, false) }
					if docZH || textmetric.IsChinese(ans) {
						kind, tok = 1, textmetric.TokenizeChinese
					}
					if docTokens[kind] == nil {
						docTokens[kind] = tok(doc)
					}
					scores[n][k][1] = 100 * textmetric.RougeL(docTokens[kind], tok(ans)).F
				}
			}
		}(w)
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
