package compare_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/compare"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/store"
)

const setB = "系统B"

// judgedSample reads the bundled sample and has the offline lexical judge
// score both systems through the engine's public API, as `cubectl demo`
// does: a first run judges rag and the bounds; a second run, on a copy
// whose rag answers are 系统B's and whose scores are the bounds already
// judged (so they are not judged again), judges 系统B, whose judgements
// are then filed under their own set.
func judgedSample(t *testing.T) (*dataset.Workbook, *result.Summary) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, sample.FileName)
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	wb, rep, err := ingest.Open(ctx, path, ingest.Options{})
	if err != nil || rep.HasErrors() {
		t.Fatalf("sample: %v %+v", err, rep)
	}
	st, err := store.Open(filepath.Join(dir, "run.cube.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p := profile.Default()
	p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}}
	res, err := engine.Run(ctx, wb, engine.Options{Profile: p, Store: st, Offline: true, WorkbookPath: path})
	if err != nil {
		t.Fatal(err)
	}
	b := *wb
	b.Items = make([]dataset.Item, len(wb.Items))
	for i, it := range wb.Items {
		it.Answers = map[string]string{}
		for k, v := range wb.Items[i].Answers {
			it.Answers[k] = v
		}
		it.SetAnswer(dataset.SetRAG, wb.Items[i].Answer(setB))
		b.Items[i] = it
	}
	b.Scores = dataset.Scores{}
	for j := range wb.Scores.Values() {
		if j.Set == dataset.SetZero || j.Set == dataset.SetFull {
			b.Scores.Add(j)
		}
	}
	bounds := b.Scores.Len()
	resB, err := engine.Run(ctx, &b, engine.Options{Profile: p, Store: st, Offline: true, WorkbookPath: path})
	if err != nil {
		t.Fatal(err)
	}
	boundsAfter := 0
	for j := range resB.Workbook.Scores.Values() {
		switch j.Set {
		case dataset.SetRAG:
			j.Set = setB
			wb.Scores.Add(j)
		case dataset.SetZero, dataset.SetFull:
			boundsAfter++
		}
	}
	if boundsAfter != bounds {
		t.Errorf("the bounds were judged again: %d bound judgements after the second run, %d before", boundsAfter, bounds)
	}
	if resB.Workbook.Scores.Len() <= bounds {
		t.Fatal("the second run judged nothing")
	}
	return wb, res.Summary
}

func sampleConfig(wb *dataset.Workbook) cube.Config {
	cfg := cube.DefaultConfig()
	idx := wb.GuideIndex()
	cfg.DocKey = func(ref string) string {
		if i, ok := idx[ref]; ok {
			return wb.Guides[i].ID
		}
		return ref
	}
	return cfg
}

// The sample's two systems, rag and 系统B, judged offline by the lexical
// judge. The figures are logged for the record (go test -v -run Sample);
// the checks are the ones that must hold whatever the figures: bounds
// shared, every question paired, the same retrieval, the verdict agreeing
// with the interval, and each side's CuBE equal to a plain cube.Evaluate
// of that side alone over the same questions.
func TestSampleSystems(t *testing.T) {
	wb, sum := judgedSample(t)
	a, b := compare.FromWorkbook(wb, dataset.SetRAG, setB)
	a.MFSS, b.MFSS = mfssTotals(sum.MFSS, dataset.SetRAG), mfssTotals(sum.MFSS, setB)
	cfg := sampleConfig(wb)
	r, err := compare.Compare(a, b, compare.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	d := r.Aggregate.Cube
	if d.Diff == nil || d.CI95 == nil || d.Detectable == nil {
		t.Fatalf("ΔCuBE %+v", d)
	}
	t.Logf("questions %d, judges %d, B = %d", r.Paired, len(r.Judges), r.BootstrapB)
	t.Logf("CuBE rag %.2f %v, %s %.2f %v", *d.A, *d.ACI95, setB, *d.B, *d.BCI95)
	t.Logf("ΔCuBE %+.2f, 95 %% CI [%.2f, %.2f], verdict %s, detectable %.2f", *d.Diff, d.CI95[0], d.CI95[1], d.Verdict, *d.Detectable)
	for _, dim := range append([]string{cube.Weighted}, r.Dimensions...) {
		x := r.Aggregate.Weighted
		if dim != cube.Weighted {
			x = r.Aggregate.Normalized[dim]
		}
		if x.Diff != nil && x.CI95 != nil {
			t.Logf("Δ%s %+.2f [%.2f, %.2f] %s", dim, *x.Diff, x.CI95[0], x.CI95[1], x.Verdict)
		}
	}
	if m := r.MFSS; m != nil && m.Diff != nil && m.CI95 != nil {
		t.Logf("ΔMFSS %+.2f [%.2f, %.2f] %s", *m.Diff, m.CI95[0], m.CI95[1], m.Verdict)
	}
	if c := r.Aggregate.CoFEPass; c != nil && c.Diff != nil && c.CI95 != nil {
		t.Logf("ΔCoFE pass %+.2f [%.2f, %.2f] %s", *c.Diff, c.CI95[0], c.CI95[1], c.Verdict)
	}
	t.Logf("better %d, worse %d, same %d, not comparable %d", r.Better, r.Worse, r.Same, r.NotComparable)
	for _, ch := range r.Regressions[:min(3, len(r.Regressions))] {
		t.Logf("regression %s %+.1f", ch.ID, ch.Diff)
	}
	t.Log(r.Headline.ZH)
	t.Log(r.Headline.EN)
	for _, bl := range r.Bullets {
		t.Log(bl.ZH)
	}
	for _, w := range r.Warnings {
		t.Log(w.ZH)
	}

	if !r.SharedBounds || r.Paired != len(wb.Items) || len(r.UnmatchedA)+len(r.UnmatchedB) != 0 || !compare.HasWarning(r, compare.CodeSameRetrieval) {
		t.Errorf("shared %v paired %d of %d unmatched %v %v", r.SharedBounds, r.Paired, len(wb.Items), r.UnmatchedA, r.UnmatchedB)
	}
	want := compare.VerdictNone
	switch {
	case d.CI95[0] > 0:
		want = compare.VerdictBetter
	case d.CI95[1] < 0:
		want = compare.VerdictWorse
	}
	if d.Verdict != want || r.Verdict != want || !strings.Contains(r.Headline.ZH, compare.VerdictText(want).ZH) {
		t.Errorf("verdict %s / %s for interval %v", d.Verdict, r.Verdict, *d.CI95)
	}
	// Each side alone, through cube.Evaluate with the bounds of the run.
	for _, side := range []struct {
		set  string
		want float64
	}{{dataset.SetRAG, *d.A}, {setB, *d.B}} {
		var js []dataset.Judgement
		for j := range wb.Scores.Values() {
			switch j.Set {
			case side.set:
				j.Set = dataset.SetRAG
				js = append(js, j)
			case dataset.SetZero, dataset.SetFull:
				js = append(js, j)
			}
		}
		c := cfg
		c.BootstrapB = 0
		alone, err := cube.Evaluate(wb.Items, dataset.ScoresOf(js...), nil, c)
		if err != nil {
			t.Fatal(err)
		}
		if m := alone.Aggregate.Cube.Mean; m == nil || abs(*m-side.want) > 1e-9 {
			t.Errorf("%s: CuBE alone %v, in the comparison %v", side.set, m, side.want)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// mfssTotals is item id → MFSS total of one system: what a caller hands
// to Side.MFSS.
func mfssTotals(res *mfss.Result, system string) map[string]float64 {
	if res == nil {
		return nil
	}
	out := map[string]float64{}
	for _, it := range res.Items {
		if it.System == system {
			out[it.ItemID] = it.Factors.Total
		}
	}
	return out
}
