package mfss

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/ingest"
	bilingual "cubeworkbench/core/text"
	"cubeworkbench/core/textmetric"
)

func flagged(res *Result) map[string]Flag {
	m := map[string]Flag{}
	for _, f := range res.Uninformative {
		m[f.Factor] = f
	}
	return m
}

func TestUninformative(t *testing.T) {
	ctx := context.Background()
	h := embed.NewHashed()
	ref := "Bring your passport and two photos to the city office, and pay the fee of fifty dollars."
	mk := func(answers map[string][]string) []dataset.Item {
		var items []dataset.Item
		for i := 0; i < 10; i++ {
			it := dataset.Item{ID: fmt.Sprint(i), Reference: ref + fmt.Sprintf(" Item %d.", i)}
			for sys, as := range answers {
				it.SetAnswer(sys, as[i%len(as)]+fmt.Sprintf(" (case %d)", i))
			}
			items = append(items, it)
		}
		return items
	}
	oneSentence := []string{"Bring your passport and photos to the office", "Pay fifty dollars at the city office",
		"Two photos and a passport are needed", "The office takes the passport and the fee"}
	multi := []string{"Bring your passport. Pay the fee at the office.", "Two photos are needed. The fee is fifty dollars.",
		"Go to the city office. Bring the passport."}
	long := []string{strings.Repeat("The office is open on weekdays and the queue can be long in the morning. ", 4),
		"Bring your passport."}
	cases := []struct {
		name    string
		answers map[string][]string
		want    []string // flagged factors
		reason  string   // in the coherence or conciseness reason
	}{
		{"every answer one sentence", map[string][]string{"a": oneSentence, "b": oneSentence},
			[]string{"coherence", "conciseness"}, "are one sentence"},
		{"one system short, the other multi-sentence", map[string][]string{"short": oneSentence, "long": multi},
			[]string{"coherence", "conciseness"}, "mostly counts sentences"},
		{"both multi-sentence, some long", map[string][]string{"a": multi, "b": long},
			nil, ""},
	}
	for _, c := range cases {
		res, err := Evaluate(ctx, h, mk(c.answers), sortedKeys(c.answers), DefaultConfig(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := flagged(res)
		if len(got) != len(c.want) {
			t.Errorf("%s: flagged %v, want %v", c.name, res.Uninformative, c.want)
		}
		for _, w := range c.want {
			f, ok := got[w]
			if !ok {
				t.Errorf("%s: %s not flagged (%v)", c.name, w, res.Uninformative)
				continue
			}
			if f.Reason.EN == "" || !strings.ContainsFunc(f.Reason.ZH, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
				t.Errorf("%s: %s reason not bilingual: %+v", c.name, w, f.Reason)
			}
		}
		if c.reason != "" && !strings.Contains(got["coherence"].Reason.EN, c.reason) {
			t.Errorf("%s: coherence reason %q, want it to say %q", c.name, got["coherence"].Reason.EN, c.reason)
		}
	}
	// A factor constant for another reason is caught by the generic check.
	items := mk(map[string][]string{"a": {ref}, "b": {ref}})
	for i := range items {
		items[i].Reference = ref
		items[i].SetAnswer("a", ref)
		items[i].SetAnswer("b", ref)
	}
	res, _ := Evaluate(ctx, h, items, []string{"a", "b"}, DefaultConfig(), nil)
	if f, ok := flagged(res)["rouge"]; !ok || !strings.Contains(f.Reason.EN, "between 1.000 and 1.000") {
		t.Errorf("copies of the reference: flags %v", res.Uninformative)
	}
}

func TestFactorNotes(t *testing.T) {
	han := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
	}
	for _, lang := range []bilingual.Lang{bilingual.ZH, bilingual.EN} {
		ns := FactorNotes(lang)
		want := append(append([]string{}, FactorNames...), "total")
		if len(ns) != len(want) {
			t.Fatalf("%s: %d notes, want %d", lang, len(ns), len(want))
		}
		for i, n := range ns {
			if n.Factor != want[i] || n.Name == "" || n.Measures == "" || n.Can == "" || n.Cannot == "" {
				t.Errorf("%s: note %d %+v", lang, i, n)
			}
			if lang == "zh" && !han(n.Cannot) || lang == "en" && han(n.Measures+n.Can+n.Cannot) {
				t.Errorf("%s: %s note in the wrong language", lang, n.Factor)
			}
		}
	}
}

// TestSampleFactors measures why coherence inverts on the bundled sample
// (docs/decisions.md, MFSS): per system, the share of one-sentence answers
// (coherence 1 by definition) and the mean coherence of the others.
func TestSampleFactors(t *testing.T) {
	path := filepath.Join(t.TempDir(), sample.FileName)
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	wb, _, err := ingest.Open(context.Background(), path, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	systems := []string{"full", "rag", "zero", "系统B"}
	res, err := Evaluate(context.Background(), embed.NewHashed(), wb.Items, systems, DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type tally struct {
		one, multi, literalOne int
		cohMulti               float64
	}
	per := map[string]*tally{}
	for _, s := range systems {
		per[s] = &tally{}
	}
	byID := map[string]*dataset.Item{}
	for i := range wb.Items {
		byID[wb.Items[i].ID] = &wb.Items[i]
	}
	for _, it := range res.Items {
		ans := byID[it.ItemID].Answers[it.System]
		if len(literalSentences(ans)) <= 1 {
			per[it.System].literalOne++
		}
		n := len(prepare(ans, true, false, textmetric.NewVocab()).sentences)
		if n <= 1 {
			per[it.System].one++
		} else {
			per[it.System].multi++
			per[it.System].cohMulti += it.Factors.Coherence
		}
	}
	t.Logf("%-6s %9s %9s %9s %9s %12s %14s %12s", "system", "total", "coherence", "conc.", "read.", "one-sentence", "coh. of multi", "literal one")
	for _, s := range systems {
		f, p := res.Systems[s], per[s]
		coh := "n/a"
		if p.multi > 0 {
			coh = fmt.Sprintf("%.3f", p.cohMulti/float64(p.multi))
		}
		t.Logf("%-6s %9.3f %9.3f %9.3f %9.3f %5d of %3d %14s %12d", s, f.Total, f.Coherence, f.Conciseness, f.Readability,
			p.one, p.one+p.multi, coh, p.literalOne)
	}
	for _, f := range res.Uninformative {
		t.Logf("uninformative: %s", f.Reason.EN)
	}
	got := flagged(res)
	if _, ok := got["coherence"]; !ok {
		t.Error("the sample's coherence is not flagged")
	}
	if _, ok := got["conciseness"]; !ok {
		t.Error("the sample's conciseness is not flagged")
	}
}
