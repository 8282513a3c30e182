package engine

import (
	"fmt"
	"math"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/textmetric"
)

// The baselines equal BLEU and ROUGE-L computed directly with textmetric,
// item by item, for Chinese, English and mixed answers, to the last digit.
func TestBaselinesMatchDirectComputation(t *testing.T) {
	wb := &dataset.Workbook{Guides: []dataset.Guide{
		{ID: "zh", Title: "t", Text: "申请材料：身份证原件。办结时限：5个工作日。收费标准：不收费。"},
		{ID: "en", Title: "e", Text: "Bring your identity card. The permit is issued within five working days, free of charge."},
	}}
	answers := map[string][3]string{
		"zh": {"请咨询有关部门。", "带身份证原件，5个工作日办结，不收费。", "申请材料：身份证原件；5个工作日；不收费。"},
		"en": {"Ask the office.", "Bring your identity card; five working days.", "需要身份证 and five working days"},
	}
	for i, doc := range []string{"zh", "en", "zh", "en"} {
		it := dataset.Item{ID: fmt.Sprint("q", i), DocID: doc}
		for k, set := range []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull} {
			it.SetAnswer(set, answers[doc][k]+fmt.Sprint(" ", i))
		}
		wb.Items = append(wb.Items, it)
	}
	wb.Items = append(wb.Items, dataset.Item{ID: "no-answers", DocID: "zh"}) // left out
	b := computeBaselines(wb)
	if b.Items != 4 || len(b.PerItem) != 4 {
		t.Fatalf("items %d, per item %d", b.Items, len(b.PerItem))
	}
	var sum [3][2]float64
	for _, it := range wb.Items[:4] {
		doc := wb.Guides[0].Text
		if it.DocID == "en" {
			doc = wb.Guides[1].Text
		}
		for k, set := range []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull} {
			ans := it.Answer(set)
			bleu, err := textmetric.SentenceBLEU(ans, []string{doc}, textmetric.BLEUOptions{Tokenize: textmetric.AutoBLEUTokenizer(doc)})
			if err != nil {
				t.Fatal(err)
			}
			rl := 100 * textmetric.Rouge(doc, ans, textmetric.RougeOptions{}).RougeL.F
			got := b.PerItem[it.ID][set]
			if got[0] != bleu.Score || got[1] != rl { // to the last digit: the figures must not move
				t.Errorf("%s/%s: got %v, want BLEU %v ROUGE-L %v", it.ID, set, got, bleu.Score, rl)
			}
			sum[k][0] += bleu.Score
			sum[k][1] += rl
		}
	}
	for k, set := range []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull} {
		if math.Abs(*b.BLEU[set]-sum[k][0]/4) > 1e-9 || math.Abs(*b.RougeL[set]-sum[k][1]/4) > 1e-9 {
			t.Errorf("%s means: %v %v", set, *b.BLEU[set], *b.RougeL[set])
		}
	}
	z, r, f := *b.RougeL[dataset.SetZero], *b.RougeL[dataset.SetRAG], *b.RougeL[dataset.SetFull]
	if b.RougeLNorm == nil || math.Abs(*b.RougeLNorm-100*(r-z)/(f-z)) > 1e-9 {
		t.Errorf("normalised ROUGE-L %v", b.RougeLNorm)
	}
}

// The baselines of generated workbooks (Chinese, English, and answers in the
// other language than their guide, so that the ROUGE tokenizer changes per
// answer) equal SentenceBLEU and Rouge computed pair by pair, to the bit.
func TestBaselinesOracle(t *testing.T) {
	for _, english := range []bool{false, true} {
		wb := benchWorkbook(120, 7, english)
		other := benchWorkbook(120, 7, !english)
		for i := range wb.Items {
			if i%3 == 0 { // an answer in the other language
				wb.Items[i].SetAnswer(dataset.SetRAG, other.Items[i].Answer(dataset.SetRAG))
			}
			if i%7 == 0 { // one with no token at all for either tokenizer
				wb.Items[i].SetAnswer(dataset.SetZero, "……!")
			}
		}
		b := computeBaselines(wb)
		if b.Items != len(wb.Items) {
			t.Fatalf("%d items scored of %d", b.Items, len(wb.Items))
		}
		idx := wb.GuideIndex()
		for _, it := range wb.Items {
			doc := wb.Guides[idx[it.DocID]].Text
			for _, set := range []string{dataset.SetZero, dataset.SetRAG, dataset.SetFull} {
				ans := it.Answer(set)
				bleu, err := textmetric.SentenceBLEU(ans, []string{doc}, textmetric.BLEUOptions{Tokenize: textmetric.AutoBLEUTokenizer(doc)})
				if err != nil {
					t.Fatal(err)
				}
				rl := 100 * textmetric.Rouge(doc, ans, textmetric.RougeOptions{}).RougeL.F
				got := b.PerItem[it.ID][set]
				if math.Float64bits(got[0]) != math.Float64bits(bleu.Score) || math.Float64bits(got[1]) != math.Float64bits(rl) {
					t.Errorf("%s/%s: got %v, want BLEU %v ROUGE-L %v", it.ID, set, got, bleu.Score, rl)
				}
			}
		}
	}
}
