package mfss

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/embed"
	"cubeworkbench/core/textmetric"
)

// The oracle of MFSS's lexical factors is the code as it was before the
// tokens became ids (commit 81dbe89): strings per token, sorted string
// sets, ROUGE through textmetric.RougeTokens. TestLexicalOracle compares
// the two on thousands of generated pairs, every factor to the bit.

type oldText struct {
	sentences []string
	tokens    []string
	sentLens  []int
	normSents []string
	content   []string
	rouge     []string
}

func oldPrepare(s string, zh, stem bool) oldText {
	var t oldText
	t.sentences = textmetric.Sentences(s)
	tok := textmetric.TokenizeEnglish
	if zh {
		tok = textmetric.TokenizeChinese
	}
	for _, sent := range t.sentences {
		st := tok(sent)
		t.tokens = append(t.tokens, st...)
		t.sentLens = append(t.sentLens, len(st))
		t.normSents = append(t.normSents, strings.Join(st, " "))
	}
	content := textmetric.RemoveStopwords(slices.Clone(t.tokens), zh)
	slices.Sort(content)
	t.content = slices.Compact(content)
	if zh {
		t.rouge = t.tokens
	} else {
		t.rouge = textmetric.RougeTokenize(s, stem)
	}
	return t
}

func oldLexical(resp, ref oldText, respIsZH bool, cfg Config) Factors {
	var f Factors
	switch {
	case len(ref.content) == 0 && len(resp.content) == 0:
		f.FactualConsistency = 1
	case len(ref.content) == 0:
		f.FactualConsistency = 0
	default:
		f.FactualConsistency = float64(oldSortedIntersect(resp.content, ref.content)) / float64(len(ref.content))
	}
	repeated := 0
	for i, s := range resp.normSents {
		if slices.Contains(resp.normSents[:i], s) {
			repeated++
		}
	}
	rho := float64(repeated) / float64(len(resp.normSents))
	ratio := float64(len(resp.tokens)) / float64(max(1, len(ref.tokens)))
	lambda := 1.0
	if ratio > 2 {
		lambda = math.Exp(-(ratio - 2))
	}
	f.Conciseness = (1 - rho) * (1 - rho) * lambda
	target := cfg.TargetSentenceLenEN
	if respIsZH {
		target = cfg.TargetSentenceLenZH
	}
	meanLen := float64(len(resp.tokens)) / float64(len(resp.sentLens))
	sls := max(0, 1-math.Abs(meanLen-target)/target)
	s := slices.Clone(resp.tokens)
	slices.Sort(s)
	f.Readability = 0.5*sls + 0.5*float64(len(slices.Compact(s)))/float64(len(resp.tokens))
	r1, r2, rl := textmetric.RougeTokens(ref.rouge, resp.rouge)
	f.Rouge = cfg.RougeWeights[0]*r1.F + cfg.RougeWeights[1]*r2.F + cfg.RougeWeights[2]*rl.F
	return f
}

func oldSortedIntersect(a, b []string) int {
	i, j, n := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch c := strings.Compare(a[i], b[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// oracleSentences are the pieces generated answers are made of: Chinese,
// English, mixed, with stopwords, numbers, abbreviations and the
// characters where tokenizers differ (İ, the Kelvin sign, accents).
var oracleSentences = []string{
	"办理居民身份证须携带户口簿原件及复印件。", "工本费20元，5个工作日内办结！", "请咨询当地政务服务中心；", "的了和是在",
	"Bring your identity card and the form.", "It is free of charge?", "The office opens at 9 a.m. on weekdays.",
	"U.S. citizens need a visa", "e.g. the APP 办理 online", "İstanbul \u212aelvin café naïve", "1,000.50 yuan - 12-3 days",
	"the the the and of", "需要身份证 and five working days.", "……!", "\n", "   ", "3.5 km", "Dr. Smith said so.",
}

func oracleAnswer(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(9) {
		b.WriteString(oracleSentences[r.IntN(len(oracleSentences))])
		switch r.IntN(4) {
		case 0:
			b.WriteString(" ")
		case 1:
			b.WriteString("\n")
		case 2:
			b.WriteString(strings.Repeat("长", r.IntN(3)) + strings.Repeat(" word", r.IntN(3)))
		}
	}
	return b.String()
}

func TestLexicalOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 2))
	cfgs := []Config{DefaultConfig(), DefaultConfig()}
	cfgs[1].RougeStem = true
	cfgs[1].RougeWeights = [3]float64{0.2, 0.3, 0.5}
	compared := 0
	for n := range 3000 {
		resp, ref := oracleAnswer(r), oracleAnswer(r)
		if n%5 == 0 {
			ref = resp[:len(resp)/2] + oracleAnswer(r) // overlapping texts
		}
		cfg, err := cfgs[n%2].normalized()
		if err != nil {
			t.Fatal(err)
		}
		zh := pairIsChinese(resp, ref)
		oldResp, oldRef := oldPrepare(resp, zh, cfg.RougeStem), oldPrepare(ref, zh, cfg.RougeStem)
		got, empty, sentences := lexicalOf(resp, ref, zh, cfg)
		if empty != (len(oldResp.tokens) == 0) || sentences != len(oldResp.sentences) {
			t.Fatalf("%q: empty %v sentences %d, want %v %d", resp, empty, sentences, len(oldResp.tokens) == 0, len(oldResp.sentences))
		}
		if empty {
			continue
		}
		want := oldLexical(oldResp, oldRef, textmetric.IsChinese(resp), cfg)
		for i, g := range got.vector() {
			if w := want.vector()[i]; math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("%q vs %q: %s %v, want %v", resp, ref, FactorNames[i], g, w)
			}
		}
		compared++
	}
	if compared < 2000 {
		t.Fatalf("only %d pairs compared", compared)
	}
}

// lexicalOf is the lexical factors of one pair as Evaluate computes them,
// whether the response is empty and its sentence count.
func lexicalOf(response, reference string, zh bool, cfg Config) (Factors, bool, int) {
	v := textmetric.NewVocab()
	resp, ref := prepare(response, zh, cfg.RougeStem, v), prepare(reference, zh, cfg.RougeStem, v)
	if len(resp.tokens) == 0 {
		return Factors{}, true, len(resp.sentences)
	}
	return lexical(resp, ref, textmetric.IsChinese(response), cfg, nil), false, len(resp.sentences)
}

// TestSparseCosineOracle: the cosines of a batch, their norms computed
// once, are embed.SparseCosine's to the bit.
func TestSparseCosineOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 3))
	texts := []string{"", "   "}
	for range 200 {
		texts = append(texts, oracleAnswer(r))
	}
	h := embed.NewHashed()
	v, err := embedAll(context.Background(), h, texts)
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := h.EmbedSparse(context.Background(), texts)
	for i := range texts {
		for j := range texts {
			if got, want := v.cos(i, j), embed.SparseCosine(sp[i], sp[j]); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%q · %q: %v, want %v", texts[i], texts[j], got, want)
			}
		}
	}
}
