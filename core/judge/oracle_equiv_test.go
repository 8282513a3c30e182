package judge_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/dimension"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/judge"
)

// oracleDims are the dimensions the oracle comparison scores: every
// built-in one, a user's dimension no offline judge has a rule for, and
// built-in ones whose template narrows the scale, so that out-of-range
// reasons are compared too.
func oracleDims(t testing.TB) []judge.Dimension {
	var dims []judge.Dimension
	for _, b := range dimension.All() {
		d, ok := judge.Builtin(b.Name)
		if !ok {
			t.Fatalf("no rubric for built-in dimension %s", b.Name)
		}
		dims = append(dims, d)
	}
	narrow := func(name string, lo, hi int) judge.Dimension {
		d, _ := judge.Builtin(name)
		d.Min, d.Max = lo, hi
		return d
	}
	return append(dims,
		judge.Dimension{Name: "tone", Kind: judge.KindScore, Min: 0, Max: 10},
		narrow("relevance", 0, 3), narrow("quality", 2, 5), narrow("correctness", 2, 4), narrow("completeness", 1, 10))
}

// sampleInputs are the bundled sample's judgements as the engine makes
// them: every item × every answer set, with the reference answer and the
// first three retrieved guides as passages (engine.contexts).
func sampleInputs(t testing.TB) []judge.Inputs {
	path := filepath.Join(t.TempDir(), sample.FileName)
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	wb, rep, err := ingest.Open(context.Background(), path, ingest.Options{})
	if err != nil || rep.HasErrors() {
		t.Fatalf("sample: %v %+v", err, rep)
	}
	idx := wb.GuideIndex()
	var out []judge.Inputs
	for _, it := range wb.Items {
		doc := ""
		if i, ok := idx[it.DocID]; ok {
			doc = wb.Guides[i].Text
		}
		ctxs := it.Contexts
		if len(ctxs) == 0 {
			for _, id := range it.Retrieved {
				if i, ok := idx[id]; ok && len(ctxs) < 3 {
					ctxs = append(ctxs, wb.Guides[i].Text)
				}
			}
		}
		sets := make([]string, 0, len(it.Answers))
		for s := range it.Answers {
			sets = append(sets, s)
		}
		slices.Sort(sets)
		for _, s := range sets {
			out = append(out, judge.Inputs{Question: it.Question, Answer: it.Answers[s], Document: doc, Reference: it.Reference, Contexts: ctxs})
		}
	}
	return out
}

// Texts at the edges of the tokenisers and sentence splitter.
var (
	edgeZH   = "事项名称：社会保障卡补办\n受理条件：社会保障卡遗失或损坏的参保人员。\n申请材料：本人有效身份证件原件；近期一寸白底彩色照片一张。\n办理时限：5个工作日。收费标准：工本费20元。咨询电话：12333。"
	edgeEN   = "Bring your identity card and two photos. The permit is issued within 5 working days. It is free of charge. Call 12345 or visit www.gov.cn, e.g. Dr. Smith at the U.S. office."
	edgeMix  = "办理APP注册需要ID卡和2张照片；费用20元（USD 3.5）。The office opens 9:00-17:00，周一至周五。"
	edgeLong = strings.Repeat(edgeZH+edgeEN, 40)
)

func edgeInputs() []judge.Inputs {
	texts := []string{"", " ", "。。。", "？！；", "\n\n", "的了是", "the and of", "20", "3.5 元", "１２３４", "٣٤٥",
		"ＡＰＰ办理", "İstanbul İİ ǅemal", "e\u0301té", "\u200b\u200b", "😀😀 办理", "한국어 텍스트", "カタカナの説明",
		"\xe4\xb8", "\xad\xe6\x96\x87", "a\xffb 中\xfe文", edgeZH, edgeEN, edgeMix, edgeLong,
		"1、身份证；2、户口簿；3、照片。", "（一）申请；（二）受理；（三）审核。", "Dr. Who. Mr. Smith. No. 5 applies.",
		edgeZH + edgeZH, "办理办理办理办理办理", "𠀀𠀁𠀂 CJK 扩展"}
	var out []judge.Inputs
	for i, a := range texts {
		out = append(out,
			judge.Inputs{Question: "社保卡丢了怎么补办？", Answer: a, Document: edgeZH, Reference: edgeZH, Contexts: []string{edgeZH, a}},
			judge.Inputs{Question: a, Answer: edgeZH, Document: a, Reference: a},
			judge.Inputs{Question: "How long does the permit take?", Answer: a, Document: edgeEN, Contexts: []string{""}},
			judge.Inputs{Question: texts[(i+3)%len(texts)], Answer: a, Document: texts[(i+7)%len(texts)], Reference: texts[(i+11)%len(texts)],
				Contexts: []string{texts[(i+5)%len(texts)], texts[(i+13)%len(texts)]}},
		)
	}
	// Invalid UTF-8 split across question, answer and guide: the language is
	// read from their concatenation, where the halves join into one 中.
	out = append(out, judge.Inputs{Question: "abc\xe4\xb8", Answer: "\xad", Document: "\xe4\xb8\xad"},
		judge.Inputs{Question: "\xe4", Answer: "\xb8\xad\xe4\xb8", Document: "\xadx"})
	return out
}

// fragments are the pieces generated inputs are made of.
var fragments = []string{
	"办理", "社会保障卡", "补办", "需要", "本人有效身份证件原件", "近期一寸白底彩色照片一张", "工作日", "受理条件：", "申请材料：",
	"的", "了", "是", "和", "在", "可以", "我们", "。", "；", "，", "！", "？", "、", "：", "\n", " ", "（一）", "1、", "2.", "①",
	"《行政许可法》", "“办事指南”", "20元", "5个工作日", "12333", "3.5", "2024年", "１２", "APP", "ID", "The", "the", "and", "office",
	"permit", "issued", "within", "five", "working", "days", "Bring", "identity", "card", ".", "!", "?", "e.g.", "U.S.", "Dr.",
	"www.gov.cn", "İ", "😀", "한국", "カナ", "\xe4\xb8", "\xad", "\u00a0", "\t", "Ⅻ", "٣",
}

func genText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(fragments[r.IntN(len(fragments))])
	}
	return b.String()
}

// genInputs are n random inputs over a few guides and questions, with
// answers that copy pieces of their guide, so that matches are common.
func genInputs(seed uint64, n int) []judge.Inputs {
	r := rand.New(rand.NewPCG(seed, 27))
	guides := make([]string, 6)
	for i := range guides {
		guides[i] = genText(r, 20+r.IntN(120))
	}
	guides[0] = ""
	questions := make([]string, 10)
	for i := range questions {
		questions[i] = genText(r, r.IntN(12))
	}
	out := make([]judge.Inputs, 0, n)
	for range n {
		g := guides[r.IntN(len(guides))]
		a := genText(r, r.IntN(40))
		if g != "" && r.IntN(2) == 0 {
			i, k := r.IntN(len(g)), r.IntN(len(g))
			if i > k {
				i, k = k, i
			}
			a = g[i:k] + a + g[i:k] // whole statements of the guide, twice
		}
		var ctxs []string
		for range r.IntN(4) {
			ctxs = append(ctxs, guides[r.IntN(len(guides))])
		}
		ref := ""
		if r.IntN(3) > 0 {
			ref = genText(r, r.IntN(20))
		}
		out = append(out, judge.Inputs{Question: questions[r.IntN(len(questions))], Answer: a, Document: g, Reference: ref, Contexts: ctxs})
	}
	return out
}

// sameOutcome reports how got differs from want, "" when it does not: the
// score to the bit, OK, the note and the reason to the byte.
func sameOutcome(got, want judge.Outcome) string {
	if math.Float64bits(got.Score) != math.Float64bits(want.Score) || got.OK != want.OK || got.Raw != want.Raw || got.Reason != want.Reason ||
		got.Key != want.Key || got.Calls != want.Calls || got.Cached != want.Cached || got.Usage != want.Usage {
		return fmt.Sprintf("\n got  %+v\n want %+v", got, want)
	}
	return ""
}

// checkOracle holds both offline judges to the oracle on inputs: Score of
// the zero value and ScoreAll of one judge with its memo, kept across all
// inputs (so guides and questions come from the memo), on every dimension.
func checkOracle(t *testing.T, name string, inputs []judge.Inputs) {
	t.Helper()
	ctx := context.Background()
	dims := oracleDims(t)
	oLex, _, oSem, _ := judge.Oracles()
	pairs := []struct {
		name         string
		oracle, zero judge.Scorer
		memo         judge.Batcher
	}{{"lexical", oLex, judge.Lexical{}, judge.NewLexical()}, {"semantic", oSem, judge.Semantic{}, judge.NewSemantic()}}
	compared := 0
	for _, p := range pairs {
		for i, in := range inputs {
			all, err := p.memo.ScoreAll(ctx, dims, in)
			if err != nil || len(all) != len(dims) {
				t.Fatalf("%s %s input %d: ScoreAll gave %d outcomes, %v", name, p.name, i, len(all), err)
			}
			for k, d := range dims {
				want, err := p.oracle.Score(ctx, d, in, 1)
				if err != nil {
					t.Fatal(err)
				}
				got, err := p.zero.Score(ctx, d, in, 1)
				if err != nil {
					t.Fatal(err)
				}
				if diff := sameOutcome(got, want); diff != "" {
					t.Fatalf("%s %s input %d %s (%+v): Score differs from the oracle:%s", name, p.name, i, d.Name, in, diff)
				}
				if diff := sameOutcome(all[k], want); diff != "" {
					t.Fatalf("%s %s input %d %s (%+v): ScoreAll differs from the oracle:%s", name, p.name, i, d.Name, in, diff)
				}
				compared += 2
			}
		}
	}
	t.Logf("%s: %d inputs, %d outcomes equal to the oracle's", name, len(inputs), compared)
}

// TestOfflineJudgesMatchOracle: the lexical and semantic judges give the
// outcomes of their implementation at 244135c (oracle_test.go), score to
// the bit and note and reason to the byte, on the bundled sample, on texts
// at the edges of the tokenisers (empty, punctuation only, stopwords only,
// CJK and ASCII mixed, full-width and Arabic-Indic digits, letters whose
// lower case is longer, invalid UTF-8 split across texts, very long text)
// and on generated mixtures of all of them.
func TestOfflineJudgesMatchOracle(t *testing.T) {
	t.Run("sample", func(t *testing.T) { checkOracle(t, "sample", sampleInputs(t)) })
	t.Run("edges", func(t *testing.T) { checkOracle(t, "edges", edgeInputs()) })
	t.Run("generated", func(t *testing.T) { checkOracle(t, "generated", genInputs(1, 600)) })
}

// FuzzOfflineJudges holds the offline judges to the oracle on any texts.
func FuzzOfflineJudges(f *testing.F) {
	edges := edgeInputs()
	for i, in := range edges {
		if i%8 != 0 && i < len(edges)-2 { // TestOfflineJudgesMatchOracle reads them all
			continue
		}
		c := ""
		if len(in.Contexts) > 0 {
			c = in.Contexts[0]
		}
		f.Add(in.Question, in.Answer, in.Document, in.Reference, c)
	}
	f.Fuzz(func(t *testing.T, q, a, doc, ref, c string) {
		in := judge.Inputs{Question: q, Answer: a, Document: doc, Reference: ref, Contexts: []string{c, doc}}
		checkOracle(t, "fuzz", []judge.Inputs{in, in})
	})
}

// TestOfflineJudgesConcurrent: one judge shared by several goroutines, as
// the engine's workers share it, gives the oracle's outcomes: its memos,
// vocabulary and reused buffers are not mixed up between judgements.
func TestOfflineJudgesConcurrent(t *testing.T) {
	ctx := context.Background()
	dims := oracleDims(t)
	inputs := append(edgeInputs(), genInputs(2, 200)...)
	oLex, _, oSem, _ := judge.Oracles()
	for _, p := range []struct {
		name   string
		oracle judge.Scorer
		shared judge.Batcher
	}{{"lexical", oLex, judge.NewLexical()}, {"semantic", oSem, judge.NewSemantic()}} {
		want := make([][]judge.Outcome, len(inputs))
		for i, in := range inputs {
			for _, d := range dims {
				o, err := p.oracle.Score(ctx, d, in, 1)
				if err != nil {
					t.Fatal(err)
				}
				want[i] = append(want[i], o)
			}
		}
		const workers = 4
		errs := make(chan string, workers)
		for w := range workers {
			go func() {
				for n := range inputs {
					i := (n*7 + w*13) % len(inputs) // each worker in its own order
					got, err := p.shared.ScoreAll(ctx, dims, inputs[i])
					if err != nil {
						errs <- err.Error()
						return
					}
					for k := range dims {
						if diff := sameOutcome(got[k], want[i][k]); diff != "" {
							errs <- fmt.Sprintf("%s input %d %s:%s", p.name, i, dims[k].Name, diff)
							return
						}
					}
				}
				errs <- ""
			}()
		}
		for range workers {
			if e := <-errs; e != "" {
				t.Error(e)
			}
		}
	}
}
