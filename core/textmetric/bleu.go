package textmetric

import (
	"fmt"
	"math"
	"strings"
)

// BLEU smoothing methods (Chen & Cherry 2014), as sacreBLEU names them.
const (
	SmoothNone  = "none"
	SmoothFloor = "floor" // method 1, default value 0.1
	SmoothAddK  = "add-k" // method 2, default value 1
	SmoothExp   = "exp"   // method 3, NIST / mteval-v13a
)

// BLEUOptions mirrors sacreBLEU's BLEU(...) arguments.
type BLEUOptions struct {
	Tokenize       string   // "13a" (default when ""), "zh", "intl", "char", "none"
	Lowercase      bool     // lowercase before tokenizing
	Smooth         string   // default "exp"
	SmoothValue    *float64 // nil = the method's default (floor 0.1, add-k 1)
	MaxOrder       int      // default 4
	EffectiveOrder bool     // stop at the highest order with any n-grams; SentenceBLEU always sets it
}

// BLEUResult is a BLEU score with its sufficient statistics.
type BLEUResult struct {
	Score      float64   `json:"score"` // 0–100
	Precisions []float64 `json:"precisions"`
	BP         float64   `json:"bp"`
	SysLen     int       `json:"sys_len"`
	RefLen     int       `json:"ref_len"`
	Counts     []float64 `json:"counts"` // matched n-grams per order (float: add-k adds to them)
	Totals     []float64 `json:"totals"` // hypothesis n-grams per order
	Tokenizer  string    `json:"tokenizer"`
}

// BLEUStats are corpus-summable BLEU statistics.
type BLEUStats struct {
	SysLen, RefLen int
	Correct, Total []int
}

func (o BLEUOptions) withDefaults() (BLEUOptions, error) {
	if o.Tokenize == "" {
		o.Tokenize = BLEUTok13a
	}
	if _, ok := bleuTokenizer(o.Tokenize); !ok {
		return o, fmt.Errorf("bleu: unknown tokenizer %q", o.Tokenize)
	}
	if o.Smooth == "" {
		o.Smooth = SmoothExp
	}
	switch o.Smooth {
	case SmoothNone, SmoothFloor, SmoothAddK, SmoothExp:
	default:
		return o, fmt.Errorf("bleu: unknown smoothing %q", o.Smooth)
	}
	if o.MaxOrder <= 0 {
		o.MaxOrder = 4
	}
	return o, nil
}

func (o BLEUOptions) preprocess(s string) []string {
	if o.Lowercase {
		s = strings.ToLower(s)
	}
	tok, _ := bleuTokenizer(o.Tokenize)
	return pyFields(tok(strings.TrimRightFunc(s, isPySpace)))
}

// ngramCounts counts the 1..maxOrder-grams of tokens, keyed by the n-gram
// joined with a separator no token contains (tokens never hold spaces).
func ngramCounts(toks []string, maxOrder int) map[string]int {
	c := make(map[string]int, len(toks)*maxOrder)
	for n := 1; n <= maxOrder; n++ {
		for i := 0; i+n <= len(toks); i++ {
			c[strings.Join(toks[i:i+n], " ")]++
		}
	}
	return c
}

// SegmentStats computes one segment's statistics against its references
// (sacreBLEU's _compute_segment_statistics): reference n-gram counts are the
// maximum over references; the reference length is the closest one, the
// shorter on ties.
func SegmentStats(hyp string, refs []string, opt BLEUOptions) (BLEUStats, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return BLEUStats{}, err
	}
	return segmentStats(hyp, refs, opt), nil
}

func segmentStats(hyp string, refs []string, opt BLEUOptions) BLEUStats {
	refNgrams := map[string]int{}
	var refLens []int
	for _, r := range refs {
		toks := opt.preprocess(r)
		refLens = append(refLens, len(toks))
		for g, c := range ngramCounts(toks, opt.MaxOrder) {
			refNgrams[g] = max(refNgrams[g], c)
		}
	}
	htoks := opt.preprocess(hyp)
	st := BLEUStats{SysLen: len(htoks), RefLen: closestRefLen(len(htoks), refLens),
		Correct: make([]int, opt.MaxOrder), Total: make([]int, opt.MaxOrder)}
	for g, c := range ngramCounts(htoks, opt.MaxOrder) {
		n := strings.Count(g, " ")
		st.Total[n] += c
		st.Correct[n] += min(c, refNgrams[g])
	}
	return st
}

func closestRefLen(hypLen int, refLens []int) int {
	closestDiff, closest := -1, -1
	for _, l := range refLens {
		d := hypLen - l
		if d < 0 {
			d = -d
		}
		if closestDiff == -1 || d < closestDiff {
			closestDiff, closest = d, l
		} else if d == closestDiff && l < closest {
			closest = l
		}
	}
	return closest
}

// CorpusBLEU is sacreBLEU's corpus_bleu: refs[r][i] is the r-th reference of
// hypothesis i (one stream per reference set, each parallel to hyps).
func CorpusBLEU(hyps []string, refs [][]string, opt BLEUOptions) (BLEUResult, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return BLEUResult{}, err
	}
	for r, stream := range refs {
		if len(stream) != len(hyps) {
			return BLEUResult{}, fmt.Errorf("bleu: reference stream %d has %d segments, hypotheses %d", r, len(stream), len(hyps))
		}
	}
	sum := BLEUStats{Correct: make([]int, opt.MaxOrder), Total: make([]int, opt.MaxOrder)}
	segRefs := make([]string, len(refs))
	for i, h := range hyps {
		for r := range refs {
			segRefs[r] = refs[r][i]
		}
		st := segmentStats(h, segRefs, opt)
		sum.SysLen += st.SysLen
		sum.RefLen += st.RefLen
		for n := range st.Correct {
			sum.Correct[n] += st.Correct[n]
			sum.Total[n] += st.Total[n]
		}
	}
	res, err := ComputeBLEU(sum, opt)
	res.Tokenizer = opt.Tokenize
	return res, err
}

// SentenceBLEU is sacreBLEU's sentence_bleu: one hypothesis against its
// references, exponential smoothing by default and effective order on.
func SentenceBLEU(hyp string, refs []string, opt BLEUOptions) (BLEUResult, error) {
	opt.EffectiveOrder = true
	streams := make([][]string, len(refs))
	for r, ref := range refs {
		streams[r] = []string{ref}
	}
	return CorpusBLEU([]string{hyp}, streams, opt)
}

// myLog is sacreBLEU's my_log: log(0) is a large negative number, not -Inf.
func myLog(x float64) float64 {
	if x == 0 {
		return -9999999999
	}
	return math.Log(x)
}

// ComputeBLEU is sacreBLEU's BLEU.compute_bleu on summed statistics.
func ComputeBLEU(st BLEUStats, opt BLEUOptions) (BLEUResult, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return BLEUResult{}, err
	}
	order := len(st.Correct)
	if len(st.Total) != order {
		return BLEUResult{}, fmt.Errorf("bleu: %d correct counts but %d totals", order, len(st.Total))
	}
	res := BLEUResult{Precisions: make([]float64, order), Counts: make([]float64, order), Totals: make([]float64, order)}
	computeBLEU(st, opt, &res)
	return res, nil
}

// computeBLEU is ComputeBLEU into res, whose Precisions, Counts and Totals
// hold len(st.Correct) zeros (a prepared reference passes reused ones).
func computeBLEU(st BLEUStats, opt BLEUOptions, res *BLEUResult) {
	order := len(st.Correct)
	smoothValue := 0.0
	switch {
	case opt.SmoothValue != nil:
		smoothValue = *opt.SmoothValue
	case opt.Smooth == SmoothFloor:
		smoothValue = 0.1
	case opt.Smooth == SmoothAddK:
		smoothValue = 1
	}
	res.SysLen, res.RefLen, res.BP = st.SysLen, st.RefLen, 1
	for n := range order {
		res.Counts[n], res.Totals[n] = float64(st.Correct[n]), float64(st.Total[n])
	}
	if st.SysLen < st.RefLen {
		res.BP = 0
		if st.SysLen > 0 {
			res.BP = math.Exp(1 - float64(st.RefLen)/float64(st.SysLen))
		}
	}
	anyCorrect := false
	for _, c := range st.Correct {
		anyCorrect = anyCorrect || c != 0
	}
	if !anyCorrect { // sacreBLEU #141: no matches at all is 0, whatever the smoothing
		return
	}
	smoothMteval := 1.0
	effOrder := order
	for n := 1; n <= order; n++ {
		if opt.Smooth == SmoothAddK && n > 1 {
			res.Counts[n-1] += smoothValue
			res.Totals[n-1] += smoothValue
		}
		if res.Totals[n-1] == 0 {
			break
		}
		if opt.EffectiveOrder {
			effOrder = n
		}
		if res.Counts[n-1] == 0 {
			switch opt.Smooth {
			case SmoothExp:
				smoothMteval *= 2
				res.Precisions[n-1] = 100 / (smoothMteval * res.Totals[n-1])
			case SmoothFloor:
				res.Precisions[n-1] = 100 * smoothValue / res.Totals[n-1]
			}
		} else {
			res.Precisions[n-1] = 100 * res.Counts[n-1] / res.Totals[n-1]
		}
	}
	sum := 0.0
	for _, p := range res.Precisions[:effOrder] {
		sum += myLog(p)
	}
	res.Score = res.BP * math.Exp(sum/float64(effOrder))
}
