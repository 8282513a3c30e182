package engine

import (
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/stats"
	"cubeworkbench/core/textmetric"
)

// Baselines are the traditional metrics beside the judges (the CuBE paper's
// Table 6): BLEU and ROUGE-L of each set's answers against the gold
// document, as means, and normalised between the zero and full sets exactly
// as CuBE normalises a dimension.
type Baselines struct {
	Items      int                              `json:"items"`   // items with all three answers and a gold document
	BLEU       map[string]*float64              `json:"bleu"`    // set → mean sentence BLEU (0–100)
	RougeL     map[string]*float64              `json:"rouge_l"` // set → mean ROUGE-L F (0–100)
	BLEUNorm   *float64                         `json:"bleu_normalized"`
	RougeLNorm *float64                         `json:"rouge_l_normalized"`
	PerItem    map[string]map[string][2]float64 `json:"-"` // item → set → {BLEU, ROUGE-L}
}

func computeBaselines(wb *dataset.Workbook) *Baselines {
	idx := wb.GuideIndex()
	sets := []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull}
	values := map[string][2][]float64{}
	b := &Baselines{BLEU: map[string]*float64{}, RougeL: map[string]*float64{}, PerItem: map[string]map[string][2]float64{}}
	for _, it := range wb.Items {
		gi, ok := idx[it.DocID]
		if !ok || it.DocID == "" {
			continue
		}
		doc := wb.Guides[gi].Text
		complete := true
		for _, s := range sets {
			if it.Answer(s) == "" {
				complete = false
			}
		}
		if !complete {
			continue
		}
		b.Items++
		per := map[string][2]float64{}
		for _, s := range sets {
			ans := it.Answer(s)
			opt := textmetric.BLEUOptions{Tokenize: textmetric.AutoBLEUTokenizer(doc)}
			res, err := textmetric.SentenceBLEU(ans, []string{doc}, opt)
			if err != nil {
				continue
			}
			bleu := res.Score
			rl := 100 * textmetric.Rouge(doc, ans, textmetric.RougeOptions{}).RougeL.F
			v := values[s]
			v[0] = append(v[0], bleu)
			v[1] = append(v[1], rl)
			values[s] = v
			per[s] = [2]float64{bleu, rl}
		}
		b.PerItem[it.ID] = per
	}
	for _, s := range sets {
		b.BLEU[s] = ptr(stats.Mean(values[s][0]))
		b.RougeL[s] = ptr(stats.Mean(values[s][1]))
	}
	b.BLEUNorm = normalizeBetween(b.BLEU)
	b.RougeLNorm = normalizeBetween(b.RougeL)
	return b
}

func normalizeBetween(m map[string]*float64) *float64 {
	z, r, f := m[dataset.SetZero], m[dataset.SetRAG], m[dataset.SetFull]
	if z == nil || r == nil || f == nil || *f-*z <= 1e-9 {
		return nil
	}
	v := 100 * (*r - *z) / (*f - *z)
	return &v
}

func ptr(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	return &v
}
