package mfss

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/textmetric"

	"cubeworkbench/internal/shareddata"
)

// tqaRow is one TruthfulQA question.
type tqaRow struct {
	category, question, best string
	correct, incorrect       []string
}

func loadTruthfulQA(tb testing.TB) []tqaRow {
	tb.Helper()
	path := shareddata.Path(tb, "truthfulqa", "TruthfulQA.csv")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, need := range []string{"Category", "Question", "Best Answer", "Correct Answers", "Incorrect Answers"} {
		if _, ok := col[need]; !ok {
			tb.Fatalf("column %q missing", need)
		}
	}
	split := func(s string) []string {
		var out []string
		for _, p := range strings.Split(s, "; ") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	}
	var rows []tqaRow
	for _, r := range recs[1:] {
		rows = append(rows, tqaRow{category: r[col["Category"]], question: r[col["Question"]],
			best:    strings.TrimSpace(r[col["Best Answer"]]),
			correct: split(r[col["Correct Answers"]]), incorrect: split(r[col["Incorrect Answers"]])})
	}
	return rows
}

// sameAnswer is our test for "the correct answer is the reference itself":
// equal after trimming, case folding and a final period.
func sameAnswer(a, b string) bool {
	norm := func(s string) string { return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".") }
	return norm(a) == norm(b)
}

// aucTally accumulates pairwise wins of correct over incorrect answers.
type aucTally struct {
	wins, pairs float64 // pooled over all pairs
	macro       float64 // sum of per-question AUCs
	questions   int
}

func (a *aucTally) add(correct, incorrect []float64) {
	if len(correct) == 0 || len(incorrect) == 0 {
		return
	}
	var w float64
	for _, c := range correct {
		for _, i := range incorrect {
			switch {
			case c > i:
				w++
			case c == i:
				w += 0.5
			}
		}
	}
	n := float64(len(correct) * len(incorrect))
	a.wins += w
	a.pairs += n
	a.macro += w / n
	a.questions++
}

func (a aucTally) pooled() float64 { return a.wins / a.pairs }
func (a aucTally) mean() float64   { return a.macro / float64(a.questions) }

// TestTruthfulQAAUC is issue 2's real-data check: against the best answer,
// MFSS should rank a question's correct answers above its incorrect ones.
func TestTruthfulQAAUC(t *testing.T) {
	rows := loadTruthfulQA(t)
	if len(rows) < 700 {
		t.Fatalf("only %d TruthfulQA rows", len(rows))
	}
	ctx := context.Background()
	h := embed.NewHashed()
	cfg := DefaultConfig()
	names := append(append([]string{}, FactorNames...), "total")
	all := make([]aucTally, len(names))       // correct answers as listed
	dedup := make([]aucTally, len(names))     // without copies of the reference
	noComment := make([]aucTally, len(names)) // also without "I have no comment"
	dups := 0
	var split splitTally
	multiQ := aucTally{} // coherence, only questions with a multi-sentence answer
	score := func(ans, ref string) [7]float64 {
		f, err := Score(ctx, h, ans, ref, cfg)
		if err != nil {
			t.Fatal(err)
		}
		v := f.vector()
		return [7]float64{v[0], v[1], v[2], v[3], v[4], v[5], f.Total}
	}
	for _, r := range rows {
		var ic [][7]float64
		multi := false
		for _, a := range r.incorrect {
			ic = append(ic, score(a, r.best))
			multi = split.add(a) || multi
		}
		for _, a := range r.correct {
			multi = split.add(a) || multi
		}
		var cAll, cDedup, cNC [][7]float64
		for _, a := range r.correct {
			s := score(a, r.best)
			cAll = append(cAll, s)
			if sameAnswer(a, r.best) {
				dups++
				continue
			}
			cDedup = append(cDedup, s)
			if !strings.Contains(strings.ToLower(a), "no comment") {
				cNC = append(cNC, s)
			}
		}
		for k := range names {
			col := func(xs [][7]float64) []float64 {
				out := make([]float64, len(xs))
				for i, x := range xs {
					out[i] = x[k]
				}
				return out
			}
			all[k].add(col(cAll), col(ic))
			dedup[k].add(col(cDedup), col(ic))
			noComment[k].add(col(cNC), col(ic))
			if multi && names[k] == "coherence" {
				multiQ.add(col(cAll), col(ic))
			}
		}
	}
	t.Logf("TruthfulQA: %d questions, %d correct answers equal to the best answer (reference)", len(rows), dups)
	t.Logf("%-20s %9s %9s %9s %9s %9s", "factor", "AUC", "AUC-q", "AUC-dedup", "AUC-dd-q", "AUC-dd-nc")
	for k, n := range names {
		t.Logf("%-20s %9.4f %9.4f %9.4f %9.4f %9.4f", n, all[k].pooled(), all[k].mean(),
			dedup[k].pooled(), dedup[k].mean(), noComment[k].pooled())
	}
	t.Logf("pairs: %v as listed, %v without reference copies, %v also without \"no comment\"; "+
		"AUC = pooled over pairs, AUC-q = mean of per-question AUCs",
		all[len(names)-1].pairs, dedup[len(names)-1].pairs, noComment[len(names)-1].pairs)
	t.Logf("sentences: %d answers; %d multi-sentence by the splitter, %d by the literal rule "+
		"(split after every . ! ? 。！？；), %d of those stay multi-sentence; coherence AUC within the %d questions "+
		"that have a multi-sentence answer %.4f", split.answers, split.multi, split.literalMulti, split.bothMulti,
		multiQ.questions, multiQ.pooled())
	if split.multi > maxMultiSentence {
		t.Errorf("%d multi-sentence answers, want at most %d: the splitter cuts abbreviations or decimals again", split.multi, maxMultiSentence)
	}
	// Margins set from measurement with headroom (see the report).
	if got := all[len(names)-1].pooled(); got < 0.5+aucMarginAll {
		t.Errorf("total AUC %.4f < %.2f", got, 0.5+aucMarginAll)
	}
	if got := dedup[len(names)-1].pooled(); got < 0.5+aucMarginDedup {
		t.Errorf("total AUC without reference copies %.4f < %.2f", got, 0.5+aucMarginDedup)
	}
}

// splitTally counts multi-sentence answers under textmetric.Sentences and
// under the literal rule of formulas.md §2, which the splitter refines.
type splitTally struct{ answers, multi, literalMulti, bothMulti int }

// add reports whether a is multi-sentence under textmetric.Sentences.
func (s *splitTally) add(a string) bool {
	s.answers++
	m := len(textmetric.Sentences(a)) > 1
	lit := len(literalSentences(a)) > 1
	if m {
		s.multi++
	}
	if lit {
		s.literalMulti++
		if m {
			s.bothMulti++
		}
	}
	return m
}

// literalSentences is formulas.md §2's rule read literally: split after
// . ! ? 。！？； (a run of them counts once) and at line breaks. It is the
// splitter before issue 18, kept here as the yardstick of the measurement.
func literalSentences(s string) []string {
	var out []string
	var cur strings.Builder
	emit := func() {
		p := strings.TrimSpace(cur.String())
		cur.Reset()
		if strings.IndexFunc(p, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			out = append(out, p)
		}
	}
	term := func(r rune) bool { return strings.ContainsRune(".!?。！？；", r) }
	prev := false
	for _, r := range s {
		if prev && !term(r) {
			emit()
		}
		prev = term(r)
		if r == '\n' || r == '\r' {
			emit()
			continue
		}
		cur.WriteRune(r)
	}
	emit()
	return out
}

// Margins above chance for the total's pooled AUC, set from measurement
// with the offline embedder: 0.6644 as listed (the reference itself is among
// the correct answers, an easy win) and 0.5410 without those copies, where
// TruthfulQA's incorrect answers are written to look like the right one
// (0.6620 and 0.5389 with the splitter before issue 18).
const (
	aucMarginAll   = 0.10
	aucMarginDedup = 0.02
)

// maxMultiSentence bounds the TruthfulQA answers the splitter finds more
// than one sentence in: 43 measured, all real sentence ends but "Scram!"
// (a film title); the literal rule finds 154, most of them "the U.S." cut
// in two.
const maxMultiSentence = 50

// truthfulItems builds one item per question with two systems: its first
// correct answer that is not the reference, and its first incorrect answer.
func truthfulItems(rows []tqaRow) []dataset.Item {
	var items []dataset.Item
	for i, r := range rows {
		it := dataset.Item{ID: fmt.Sprint(i + 1), Question: r.question, Reference: r.best, Category: r.category}
		for _, c := range r.correct {
			if !sameAnswer(c, r.best) {
				it.SetAnswer("correct", c)
				break
			}
		}
		if len(r.incorrect) > 0 {
			it.SetAnswer("incorrect", r.incorrect[0])
		}
		items = append(items, it)
	}
	return items
}

func TestTruthfulQAEvaluate(t *testing.T) {
	rows := loadTruthfulQA(t)
	res, err := Evaluate(context.Background(), embed.NewHashed(), truthfulItems(rows), []string{"correct", "incorrect"}, DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, i := res.Systems["correct"], res.Systems["incorrect"]
	t.Logf("mean total: correct %.4f (n=%d), incorrect %.4f (n=%d); categories %d; no answer %v",
		c.Total, res.Scored["correct"], i.Total, res.Scored["incorrect"], len(res.ByCategory["correct"]), res.SkippedNoAnswer)
	// No ordering is asserted here: a question's first incorrect answer is
	// usually its "best incorrect" one, phrased like the reference, and the
	// offline embedder scores it higher on average (0.7085 vs 0.6830 when
	// measured). Pairwise ranking is checked by TestTruthfulQAAUC.
	if res.Scored["correct"]+res.SkippedNoAnswer["correct"] != len(rows) || res.Scored["incorrect"] != len(rows) {
		t.Errorf("counts: scored %v, no answer %v, rows %d", res.Scored, res.SkippedNoAnswer, len(rows))
	}
	if n := len(res.ByCategory["correct"]); n < 30 {
		t.Errorf("only %d categories in the breakdown", n)
	}
	// 1,533 of 1,536 answers are one sentence (measured): coherence cannot
	// tell them apart, and the result must say so.
	if _, ok := flagged(res)["coherence"]; !ok {
		t.Errorf("coherence not flagged uninformative: %v", res.Uninformative)
	}
	if res.ZeroVectors.Texts != 0 {
		t.Errorf("the offline embedder gave %d zero vectors", res.ZeroVectors.Texts)
	}
}

// BenchmarkScoreTruthfulQA measures Score, one (answer, reference) pair per
// call, with the offline embedder over every TruthfulQA answer.
func BenchmarkScoreTruthfulQA(b *testing.B) {
	rows := loadTruthfulQA(b)
	type p struct{ a, r string }
	var pairs []p
	for _, r := range rows {
		for _, a := range append(append([]string{}, r.correct...), r.incorrect...) {
			pairs = append(pairs, p{a, r.best})
		}
	}
	ctx, h, cfg := context.Background(), embed.NewHashed(), DefaultConfig()
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		q := pairs[n%len(pairs)]
		if _, err := Score(ctx, h, q.a, q.r, cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
}

// BenchmarkEvaluateTruthfulQA measures Evaluate over 790 questions × 2
// systems per iteration.
func BenchmarkEvaluateTruthfulQA(b *testing.B) {
	items := truthfulItems(loadTruthfulQA(b))
	ctx, h, cfg := context.Background(), embed.NewHashed(), DefaultConfig()
	b.ReportAllocs()
	b.ResetTimer()
	pairs := 0
	for n := 0; n < b.N; n++ {
		res, err := Evaluate(ctx, h, items, []string{"correct", "incorrect"}, cfg, nil)
		if err != nil {
			b.Fatal(err)
		}
		pairs += len(res.Items)
	}
	b.ReportMetric(float64(pairs)/b.Elapsed().Seconds(), "pairs/s")
}
