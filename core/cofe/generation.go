package cofe

import (
	"sort"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/stats"
	"cubeworkbench/core/textmetric"
)

// The CoFE-RAG generation dimensions (prompts/cofe): correctness on 1–5
// against the reference answer, faithfulness and relevancy as YES/NO.
const (
	DimCorrectness  = "correctness"
	DimFaithfulness = "faithfulness"
	DimRelevancy    = "relevancy"
)

// GenerationDimensions are judged on the system's answers for CoFE.
var GenerationDimensions = []string{DimCorrectness, DimFaithfulness, DimRelevancy}

// PassThreshold is the correctness at which an answer passes (paper: 4).
const PassThreshold = 4.0

// GenMetrics are one group's generation figures; nil when nothing in the
// group was scored.
type GenMetrics struct {
	Queries      int      `json:"queries"`      // answers with a reference
	Correctness  *float64 `json:"correctness"`  // mean, 1–5
	PassRate     *float64 `json:"pass_rate"`    // share with correctness ≥ 4
	Faithfulness *float64 `json:"faithfulness"` // share judged YES
	Relevancy    *float64 `json:"relevancy"`    // share judged YES
	BLEU         *float64 `json:"bleu"`         // mean sentence BLEU vs the reference, 0–100
	RougeL       *float64 `json:"rouge_l"`      // mean ROUGE-L F vs the reference, 0–100
	Unscorable   int      `json:"unscorable"`   // judgements without a score
}

// JudgeGeneration is one judge's figures, overall and by query type.
type JudgeGeneration struct {
	Judge       string                `json:"judge"`
	GenMetrics                        // overall
	ByQueryType map[string]GenMetrics `json:"by_query_type"`
}

// Generation is the generation half of CoFE-RAG: every judge's reading of
// the system's answers against the reference answers.
type Generation struct {
	Set    string            `json:"set"` // the answer set judged (rag)
	Judges []JudgeGeneration `json:"judges"`
}

type genAcc struct {
	correct, pass, faith, relev, bleu, rouge []float64
	queries, unscorable                      int
}

func (a *genAcc) metrics() GenMetrics {
	m := GenMetrics{Queries: a.queries, Unscorable: a.unscorable}
	m.Correctness = opt(stats.Mean(a.correct))
	m.PassRate = opt(stats.Mean(a.pass))
	m.Faithfulness = opt(stats.Mean(a.faith))
	m.Relevancy = opt(stats.Mean(a.relev))
	m.BLEU = opt(stats.Mean(a.bleu))
	m.RougeL = opt(stats.Mean(a.rouge))
	return m
}

func opt(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	return &v
}

// EvaluateGeneration computes the generation metrics of set (normally rag)
// for the items that have a reference answer. Repeats of a judgement are
// averaged; unscorable judgements are counted and left out. Items without a
// reference are not CoFE items and are skipped. nil when no item qualifies.
func EvaluateGeneration(items []dataset.Item, scores dataset.Scores, set string) *Generation {
	type cell struct {
		sum float64
		n   int
		bad int
	}
	byKey := map[[3]string]*cell{} // judge, item, dimension
	judges := map[string]bool{}
	isGen := map[string]bool{DimCorrectness: true, DimFaithfulness: true, DimRelevancy: true}
	for j := range scores.Values() {
		if j.Set != set || !isGen[j.Dimension] {
			continue
		}
		judges[j.Judge] = true
		k := [3]string{j.Judge, j.ItemID, j.Dimension}
		c := byKey[k]
		if c == nil {
			c = &cell{}
			byKey[k] = c
		}
		if j.OK() {
			c.sum += j.Score
			c.n++
		} else {
			c.bad++
		}
	}
	var withRef []dataset.Item
	for _, it := range items {
		if it.Reference != "" && it.Answer(set) != "" {
			withRef = append(withRef, it)
		}
	}
	if len(withRef) == 0 || len(judges) == 0 {
		return nil
	}
	// Text metrics do not depend on the judge: compute them once.
	bleu := make([]float64, len(withRef))
	rouge := make([]float64, len(withRef))
	for i, it := range withRef {
		ans := it.Answer(set)
		if r, err := textmetric.SentenceBLEU(ans, []string{it.Reference}, textmetric.BLEUOptions{Tokenize: textmetric.AutoBLEUTokenizer(it.Reference)}); err == nil {
			bleu[i] = r.Score
		}
		rouge[i] = 100 * textmetric.Rouge(it.Reference, ans, textmetric.RougeOptions{}).RougeL.F
	}
	names := make([]string, 0, len(judges))
	for j := range judges {
		names = append(names, j)
	}
	sort.Strings(names)
	g := &Generation{Set: set}
	for _, name := range names {
		all := &genAcc{}
		byType := map[string]*genAcc{}
		for i, it := range withRef {
			qt := it.QueryType
			if qt == "" {
				qt = UnknownType
			}
			accs := []*genAcc{all}
			if byType[qt] == nil {
				byType[qt] = &genAcc{}
			}
			accs = append(accs, byType[qt])
			for _, a := range accs {
				a.queries++
				a.bleu = append(a.bleu, bleu[i])
				a.rouge = append(a.rouge, rouge[i])
			}
			for _, dim := range GenerationDimensions {
				c := byKey[[3]string{name, it.ID, dim}]
				if c == nil {
					continue
				}
				for _, a := range accs {
					a.unscorable += c.bad
				}
				if c.n == 0 {
					continue
				}
				v := c.sum / float64(c.n)
				for _, a := range accs {
					switch dim {
					case DimCorrectness:
						a.correct = append(a.correct, v)
						pass := 0.0
						if v >= PassThreshold {
							pass = 1
						}
						a.pass = append(a.pass, pass)
					case DimFaithfulness:
						a.faith = append(a.faith, v)
					case DimRelevancy:
						a.relev = append(a.relev, v)
					}
				}
			}
		}
		jg := JudgeGeneration{Judge: name, GenMetrics: all.metrics(), ByQueryType: map[string]GenMetrics{}}
		for qt, a := range byType {
			jg.ByQueryType[qt] = a.metrics()
		}
		g.Judges = append(g.Judges, jg)
	}
	return g
}
