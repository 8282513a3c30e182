package mfss

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	bilingual "cubeworkbench/core/text"
)

// tableEmbedder returns fixed vectors and fails on any text it does not
// know, so a test also checks what gets embedded. It has no sparse form, so
// the dense path is exercised.
type tableEmbedder map[string][]float32

func (tableEmbedder) Name() string { return "table" }
func (tableEmbedder) Dim() int     { return 3 }
func (e tableEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := e[t]
		if !ok {
			return nil, fmt.Errorf("unexpected text %q", t)
		}
		out[i] = v
	}
	return out, nil
}

const (
	enRef  = "The passport costs 50 dollars."
	enResp = "The passport costs 50 dollars. The passport costs 50 dollars."
	zhRef  = "护照费用五十元"
	zhResp = "护照费用一百元。护照费用一百元。"
	zhSent = "护照费用一百元。"
)

var table = tableEmbedder{
	enResp: {1, 0, 0}, enRef: {0.6, 0.8, 0}, // cos 0.6; the repeated sentence equals enRef
	zhResp: {1, 0, 0}, zhRef: {-1, 0, 0}, // cos −1 → accuracy 0
	zhSent: {0, 0, 1},
	"One.": {1, 0, 0}, "Two.": {0, 1, 0}, "Three.": {0.6, 0.8, 0}, "Four.": {0, -1, 0},
	"One. Two. Three. Four.": {1, 1, 1}, "One two three four": {1, 1, 1},
}

// Hand-computed expectations (see the comments for the arithmetic).
var (
	// en: ρ = ½ → (1−ρ)² = 0.25, L = 10/5 = 2 → λ = 1; content sets equal
	// → 1; ℓ = 5 → SLS = 1 − 12.5/17.5, LD = 5/10; R1 F = 2/3, R2 F = 8/13
	// (4 of 9 bigrams, all 4 reference bigrams), RL F = 2/3; accuracy 0.6;
	// coherence cos(sentence, same sentence) = 1.
	wantEN = Factors{Accuracy: 0.6, FactualConsistency: 1, Readability: 0.5*(1-12.5/17.5) + 0.25,
		Coherence: 1, Rouge: (2.0/3 + 8.0/13 + 2.0/3) / 3, Conciseness: 0.25}
	// zh: tokens 护照费用一百元 ×2 vs 护照费用五十元; ρ = ½, L = 14/7 = 2 →
	// 0.25; content {护照费用百元} (一 is a stopword) ∩ ref 7 = 5 → 5/7;
	// ℓ = 7, ℓ* = 25 → SLS = 0.28, LD = 7/14; R1 F = 2·(5/14)(5/7)/(15/14)
	// = 10/21, R2: 3 of 13 bigrams, 3 of 6 → F = 6/19, RL = R1 = 10/21.
	wantZH = Factors{Accuracy: 0, FactualConsistency: 5.0 / 7, Readability: 0.5*0.28 + 0.25,
		Coherence: 1, Rouge: (10.0/21 + 6.0/19 + 10.0/21) / 3, Conciseness: 0.25}
)

func withTotal(f Factors, w Weights) Factors {
	f.Total = 0.25*f.Accuracy + 0.20*f.FactualConsistency + 0.15*f.Readability +
		0.15*f.Coherence + 0.15*f.Rouge + 0.10*f.Conciseness
	if w != (DefaultConfig().Weights) {
		panic("withTotal only knows the default weights")
	}
	return f
}

func closeFactors(t *testing.T, label string, got, want Factors) {
	t.Helper()
	gv, wv := got.vector(), want.vector()
	for i := range gv {
		if math.Abs(gv[i]-wv[i]) > 1e-6 {
			t.Errorf("%s: %s = %.6f, want %.6f", label, FactorNames[i], gv[i], wv[i])
		}
	}
	if math.Abs(got.Total-want.Total) > 1e-6 {
		t.Errorf("%s: total = %.6f, want %.6f", label, got.Total, want.Total)
	}
}

func TestScoreHandComputed(t *testing.T) {
	cfg := DefaultConfig()
	cases := []struct {
		name, resp, ref string
		want            Factors
	}{
		{"english repeated sentence", enResp, enRef, withTotal(wantEN, cfg.Weights)},
		{"chinese repeated sentence", zhResp, zhRef, withTotal(wantZH, cfg.Weights)},
		{"empty response", "  \n ", enRef, Factors{}},
		{"punctuation only", "…!?", enRef, Factors{}},
	}
	for _, c := range cases {
		got, err := Score(context.Background(), table, c.resp, c.ref, cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		closeFactors(t, c.name, got, c.want)
	}
	// The weighted totals worked on paper: 0.681365 and 0.439766.
	for _, c := range []struct{ got, want float64 }{
		{withTotal(wantEN, cfg.Weights).Total, 0.681365}, {withTotal(wantZH, cfg.Weights).Total, 0.439766},
	} {
		if math.Abs(c.got-c.want) > 1e-6 {
			t.Errorf("hand total %.6f, paper %.6f", c.got, c.want)
		}
	}
}

func TestCoherenceAndLength(t *testing.T) {
	// Sentences One/Two/Three/Four: cos 0, 0.8, −0.8 → clamped 0 → mean 0.8/3.
	// Reference "One two three four": 4 tokens vs 4 → λ = 1.
	got, err := Score(context.Background(), table, "One. Two. Three. Four.", "One two three four", DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Coherence-0.8/3) > 1e-6 {
		t.Errorf("coherence %v, want %v", got.Coherence, 0.8/3)
	}
	if got.Conciseness != 1 {
		t.Errorf("conciseness %v, want 1", got.Conciseness)
	}
	// Length penalty: 5× the reference → λ = e^−3.
	h := embed.NewHashed()
	long := "alpha beta gamma delta epsilon zeta eta theta iota kappa"
	got, err = Score(context.Background(), h, long, "alpha beta", DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Conciseness-math.Exp(-3)) > 1e-9 {
		t.Errorf("conciseness %v, want e^-3 = %v", got.Conciseness, math.Exp(-3))
	}
}

func TestFactualEdgeCases(t *testing.T) {
	h := embed.NewHashed()
	// Reference of stopwords only: C_g empty. Response of stopwords only
	// too → 1; response with content → 0.
	got, _ := Score(context.Background(), h, "it is what it is", "it was", DefaultConfig())
	if got.FactualConsistency != 1 {
		t.Errorf("both empty: %v, want 1", got.FactualConsistency)
	}
	got, _ = Score(context.Background(), h, "passport office", "it was", DefaultConfig())
	if got.FactualConsistency != 0 {
		t.Errorf("only reference empty: %v, want 0", got.FactualConsistency)
	}
}

func TestWeights(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Weights = Weights{2, 2, 2, 2, 2, 2} // renormalised to 1/6 each
	got, err := Score(context.Background(), table, enResp, enRef, cfg)
	if err != nil {
		t.Fatal(err)
	}
	v := wantEN.vector()
	mean := (v[0] + v[1] + v[2] + v[3] + v[4] + v[5]) / 6
	if math.Abs(got.Total-mean) > 1e-6 {
		t.Errorf("equal weights: total %v, want %v", got.Total, mean)
	}
	for _, bad := range []Weights{{}, {Accuracy: -1, Rouge: 2}, {Accuracy: math.NaN()}} {
		cfg.Weights = bad
		if _, err := Score(context.Background(), table, enResp, enRef, cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("weights %+v: err %v, want ErrConfig", bad, err)
		}
	}
	w, err := WeightsFromMap(map[string]float64{"rouge": 0.5})
	if err != nil || w.Rouge != 0.5 || w.Accuracy != 0.25 {
		t.Errorf("WeightsFromMap = %+v, %v", w, err)
	}
	if _, err := WeightsFromMap(map[string]float64{"fluency": 1}); err == nil {
		t.Error("unknown factor accepted")
	}
	if _, err := Score(context.Background(), table, enResp, " ", DefaultConfig()); !errors.Is(err, ErrNoReference) {
		t.Errorf("blank reference: %v", err)
	}
}

func TestHashedDenseAndSparseAgree(t *testing.T) {
	h := embed.NewHashed()
	dense := denseOnly{h}
	resp := "Renew the passport at the office. Bring two photos!\nPay the fee."
	ref := "You renew a passport at the passport office and pay a fee."
	a, err := Score(context.Background(), h, resp, ref, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Score(context.Background(), dense, resp, ref, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	closeFactors(t, "sparse vs dense", a, b)
	if a.Accuracy <= 0 || a.Coherence <= 0 || a.Coherence >= 1 {
		t.Errorf("implausible hashed factors %+v", a)
	}
}

// denseOnly hides the sparse fast path.
type denseOnly struct{ e embed.Embedder }

func (d denseOnly) Name() string { return d.e.Name() }
func (d denseOnly) Dim() int     { return d.e.Dim() }
func (d denseOnly) Embed(ctx context.Context, t []string) ([][]float32, error) {
	return d.e.Embed(ctx, t)
}

func TestEvaluate(t *testing.T) {
	items := []dataset.Item{
		{ID: "1", Reference: enRef, Category: "A", QueryType: "事实类",
			Answers: map[string]string{"rag": enResp, "zero": ""}},
		{ID: "2", Reference: "", Category: "A", Answers: map[string]string{"rag": enResp}},
		{ID: "3", Reference: zhRef, Category: "B", QueryType: "factual",
			Answers: map[string]string{"rag": zhResp}},
	}
	var calls [][2]int
	res, err := Evaluate(context.Background(), table, items, []string{"rag", "zero"}, DefaultConfig(),
		func(d, n int) { calls = append(calls, [2]int{d, n}) })
	if err != nil {
		t.Fatal(err)
	}
	w := DefaultConfig().Weights
	en, zh := withTotal(wantEN, w), withTotal(wantZH, w)
	mean := func(a, b Factors) Factors {
		av, bv := a.vector(), b.vector()
		var m Factors
		mv := []*float64{&m.Accuracy, &m.FactualConsistency, &m.Readability, &m.Coherence, &m.Rouge, &m.Conciseness}
		for i := range av {
			*mv[i] = (av[i] + bv[i]) / 2
		}
		m.Total = (a.Total + b.Total) / 2
		return m
	}
	closeFactors(t, "rag mean", res.Systems["rag"], mean(en, zh))
	closeFactors(t, "zero (blank answer scores 0)", res.Systems["zero"], Factors{})
	closeFactors(t, "rag/A", res.ByCategory["rag"]["A"], en)
	closeFactors(t, "rag/B", res.ByCategory["rag"]["B"], zh)
	closeFactors(t, "rag/factual", res.ByQueryType["rag"]["factual"], mean(en, zh))
	if res.Embedder != "table" || res.SkippedNoReference != 1 || res.SkippedNoAnswer["zero"] != 1 ||
		res.Scored["rag"] != 2 || res.Scored["zero"] != 1 || len(res.Items) != 3 {
		t.Errorf("counts: embedder %q noref %d noanswer %v scored %v items %d",
			res.Embedder, res.SkippedNoReference, res.SkippedNoAnswer, res.Scored, len(res.Items))
	}
	if len(calls) != 1 || calls[0] != [2]int{3, 3} {
		t.Errorf("progress calls %v", calls)
	}
	if _, ok := res.ByQueryType["rag"]["事实类"]; ok {
		t.Error("query type not canonicalised")
	}
	// A system no item answers has no mean at all, not zeros.
	res, _ = Evaluate(context.Background(), table, items[:1], []string{"absent"}, DefaultConfig(), nil)
	if _, ok := res.Systems["absent"]; ok {
		t.Error("system without answers got a mean")
	}
}

// TestConfigErrorsInBothLanguages: MFSS's refusals are text.Errors, so
// the session's Explain shows the window and the CLI one language each;
// each says what is wrong and is still ErrConfig (they carried both
// languages in one string, and an unknown factor was not ErrConfig).
func TestConfigErrorsInBothLanguages(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Weights = Weights{Accuracy: -1, Rouge: 2}
	_, scoreErr := Score(context.Background(), table, enResp, enRef, cfg)
	_, factorErr := WeightsFromMap(map[string]float64{"fluency": 1})
	for _, c := range []struct {
		err    error
		zh, en string
	}{
		{scoreErr, "因子权重 -1", "factor weight -1"},
		{factorErr, "fluency", "unknown factor \"fluency\""},
	} {
		var te *bilingual.Error
		if !errors.As(c.err, &te) || !errors.Is(c.err, ErrConfig) {
			t.Errorf("%v: not a text.Error that is ErrConfig", c.err)
			continue
		}
		if !strings.Contains(te.ZH, "MFSS 配置无效") || !strings.Contains(te.ZH, c.zh) || !strings.Contains(te.EN, c.en) || strings.ContainsFunc(te.EN, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			t.Errorf("words %+v", te.Text)
		}
	}
	var te *bilingual.Error
	if _, err := Score(context.Background(), table, enResp, " ", DefaultConfig()); !errors.As(err, &te) || te.ZH != "缺少参考答案" {
		t.Errorf("blank reference: %v", err)
	}
}
