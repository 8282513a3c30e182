package compare

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
)

// allDeltas lists every Delta of a result, for checks that hold for all.
func allDeltas(r *Result) []Delta {
	out := []Delta{r.Aggregate.Cube, r.Aggregate.Weighted, r.Recall}
	for _, d := range r.Aggregate.Normalized {
		out = append(out, d)
	}
	for _, jd := range r.Judges {
		out = append(out, jd.Cube, jd.Weighted)
		for _, d := range jd.Normalized {
			out = append(out, d)
		}
		if jd.CoFEPass != nil {
			out = append(out, *jd.CoFEPass)
		}
	}
	if r.MFSS != nil {
		out = append(out, *r.MFSS)
	}
	if r.Aggregate.CoFEPass != nil {
		out = append(out, *r.Aggregate.CoFEPass)
	}
	return out
}

// A run compared with itself: every Δ is exactly 0, every interval [0, 0],
// every verdict "no detectable difference", nothing changed — both for two
// answer sets that are the same and for two runs that are equal copies.
func TestSelfComparison(t *testing.T) {
	wb := book(60, []string{"j1", "j2"}, 1, 0, none)
	copyOf := func(wb *dataset.Workbook) *dataset.Workbook {
		c := *wb
		c.Items = slices.Clone(wb.Items)
		c.Scores = wb.Scores.Clone()
		return &c
	}
	other := copyOf(wb)
	for _, tc := range []struct {
		name string
		a, b Side
	}{
		{"same answer set", Side{Name: "rag", Items: wb.Items, Judgements: wb.Scores}, Side{Name: "rag again", Items: wb.Items, Judgements: wb.Scores}},
		{"two equal runs", Side{Name: "run 1", Items: wb.Items, Judgements: wb.Scores, Guides: wb.Guides},
			Side{Name: "run 2", Items: other.Items, Judgements: other.Scores, Guides: other.Guides}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Compare(tc.a, tc.b, Options{Config: config(200)})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range allDeltas(r) {
				if d.Diff == nil || *d.Diff != 0 || d.CI95 == nil || *d.CI95 != [2]float64{0, 0} || d.Verdict != VerdictNone {
					t.Errorf("%s %s: Δ %v CI %v verdict %s, want 0, [0 0], none", d.Judge, d.Metric, d.Diff, d.CI95, d.Verdict)
				}
			}
			if r.Verdict != VerdictNone || r.Better != 0 || r.Worse != 0 || len(r.Regressions) != 0 || r.JudgesDisagree {
				t.Errorf("verdict %s better %d worse %d regressions %d disagree %v", r.Verdict, r.Better, r.Worse, len(r.Regressions), r.JudgesDisagree)
			}
			if r.Same != 60 || !r.SharedBounds || r.Paired != 60 {
				t.Errorf("same %d shared %v paired %d", r.Same, r.SharedBounds, r.Paired)
			}
			if !strings.Contains(r.Headline.ZH, "没有可检测的差异") || !strings.Contains(r.Headline.EN, "No detectable difference") {
				t.Errorf("headline %q / %q", r.Headline.ZH, r.Headline.EN)
			}
			if !hasWarning(r, CodeSameRetrieval) {
				t.Error("no warning that ΔRecall@k is 0 by construction")
			}
		})
	}
}

// Version B is better (or worse) by construction on known questions: the
// sign is right, the interval excludes 0, and exactly those questions are
// listed as improved (or regressed), worst first.
func TestKnownDifference(t *testing.T) {
	for _, tc := range []struct {
		name    string
		shift   float64
		verdict string
	}{
		{"better", +2.5, VerdictBetter},
		{"worse", -2.5, VerdictWorse},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Every fourth retrieved question moves; the move grows with i
			// so that the order of the list is known.
			moved := map[string]bool{}
			shift := func(_ string, i int) float64 {
				if i%4 == 0 && i%7 != 6 {
					return tc.shift * (1 + float64(i)/200)
				}
				return 0
			}
			wb := book(80, []string{"j1", "j2"}, 2, 0, shift)
			for i, it := range wb.Items {
				if shift("", i) != 0 {
					moved[it.ID] = true
				}
			}
			a, b := FromWorkbook(wb, "rag", "v2")
			r, err := Compare(a, b, Options{Config: config(500)})
			if err != nil {
				t.Fatal(err)
			}
			d := r.Aggregate.Cube
			if d.Verdict != tc.verdict || d.Diff == nil || math.Signbit(*d.Diff) != (tc.shift < 0) || d.CI95 == nil ||
				(d.CI95[0] <= 0 && d.CI95[1] >= 0) {
				t.Fatalf("ΔCuBE %v CI %v verdict %s, want %s excluding 0", *d.Diff, d.CI95, d.Verdict, tc.verdict)
			}
			for _, jd := range r.Judges {
				if jd.Cube.Verdict != tc.verdict {
					t.Errorf("judge %s: %s", jd.Judge, jd.Cube.Verdict)
				}
			}
			list, other := r.Improvements, r.Regressions
			if tc.shift < 0 {
				list, other = r.Regressions, r.Improvements
			}
			if len(other) != 0 {
				t.Errorf("%d questions moved the other way: %v", len(other), other[0].ID)
			}
			if len(list) != len(moved) {
				t.Errorf("%d questions listed, %d moved", len(list), len(moved))
			}
			for x, ch := range list {
				if !moved[ch.ID] {
					t.Errorf("%s listed but not moved", ch.ID)
				}
				if x > 0 && math.Abs(ch.Diff) > math.Abs(list[x-1].Diff) {
					t.Errorf("list not ordered by size: %s %v after %s %v", ch.ID, ch.Diff, list[x-1].ID, list[x-1].Diff)
				}
				if ch.AnswerA != "答A"+ch.ID || ch.AnswerB != "答B"+ch.ID || ch.SetB != "v2" || ch.RowA == 0 {
					t.Errorf("%s: side by side %q | %q set %s row %d", ch.ID, ch.AnswerA, ch.AnswerB, ch.SetB, ch.RowA)
				}
			}
			if r.Verdict != tc.verdict || !strings.Contains(r.Headline.ZH, VerdictText(tc.verdict).ZH) {
				t.Errorf("headline %q", r.Headline.ZH)
			}
			if r.Recall.Diff == nil || *r.Recall.Diff != 0 {
				t.Errorf("ΔRecall %v, want 0 (same retrieval)", r.Recall.Diff)
			}
		})
	}
}

// On correlated data (B = A's scores plus a little noise per question),
// resampling the same questions for both sides cancels the questions'
// own variation: the paired interval is much narrower than the unpaired.
func TestPairedNarrowerThanUnpaired(t *testing.T) {
	wb := book(120, []string{"j1"}, 3, 0.3, func(string, int) float64 { return 0.3 })
	a, b := FromWorkbook(wb, "rag", "v2")
	r, err := Compare(a, b, Options{Config: config(400), Unpaired: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []Delta{r.Aggregate.Cube, r.Aggregate.Weighted, r.Aggregate.Normalized["relevance"]} {
		if d.CI95 == nil || d.UnpairedCI95 == nil {
			t.Fatalf("%s: intervals %v %v", d.Metric, d.CI95, d.UnpairedCI95)
		}
		p, u := width(d.CI95), width(d.UnpairedCI95)
		t.Logf("%s: paired width %.2f, unpaired %.2f", d.Metric, p, u)
		if !(p < 0.6*u) {
			t.Errorf("%s: paired width %.2f not clearly narrower than unpaired %.2f", d.Metric, p, u)
		}
	}
}

// A hand-checkable case: four retrieved questions, one judge, one
// dimension, no trimming, zero 0 and full 10. A scores 5 everywhere, B
// scores 9 on q4: N_A = 50, N_B = 60, ΔCuBE = +10, q4 moves +40. A
// resample holds q4 k times, k ~ Binomial(4, ¼), and Δ = 10·k: P(k = 0) =
// 0.32 > 2.5 %, so the interval starts at 0, and P(k ≤ 2) = 0.949 <
// 97.5 % ≤ P(k ≤ 3) = 0.996, so it ends at 30: [0, 30], "no detectable
// difference" — four questions cannot prove it.
func TestHandChecked(t *testing.T) {
	var items []dataset.Item
	var js []dataset.Judgement
	for i, id := range []string{"q1", "q2", "q3", "q4"} {
		items = append(items, dataset.Item{ID: id, Question: id, DocID: "d" + id, Retrieved: []string{"d" + id}})
		bScore := 5.0
		if i == 3 {
			bScore = 9
		}
		for set, s := range map[string]float64{"zero": 0, "full": 10, "rag": 5, "v2": bScore} {
			js = append(js, dataset.Judgement{ItemID: id, Set: set, Judge: "j", Dimension: "d", Repeat: 1, Score: s, Status: dataset.StatusOK})
		}
	}
	cfg := config(1000)
	cfg.Trim, cfg.Dimensions, cfg.Weights = 0, []string{"d"}, "equal"
	wb := &dataset.Workbook{Items: items, Scores: dataset.ScoresOf(js...)}
	a, b := FromWorkbook(wb, "rag", "v2")
	r, err := Compare(a, b, Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	d := r.Aggregate.Cube
	if *d.A != 50 || *d.B != 60 || *d.Diff != 10 || *d.CI95 != [2]float64{0, 30} || d.Verdict != VerdictNone {
		t.Errorf("A %v B %v Δ %v CI %v verdict %s; want 50, 60, +10, [0 30], none", *d.A, *d.B, *d.Diff, d.CI95, d.Verdict)
	}
	// Detectable = (1.96 + 0.84)·(hi − lo)/(2·1.96).
	if want := (zAlpha + zBeta) * width(d.CI95) / (2 * zAlpha); math.Abs(*d.Detectable-want) > 1e-9 {
		t.Errorf("detectable %v, want %v", *d.Detectable, want)
	}
	if r.Better != 1 || r.Same != 3 || len(r.Improvements) != 1 || r.Improvements[0].ID != "q4" || r.Improvements[0].Diff != 40 {
		t.Errorf("better %d same %d improvements %+v", r.Better, r.Same, r.Improvements)
	}
}

// Question ids on one side only are counted, named in a warning and left
// out; the rest is still compared.
func TestUnmatchedIDs(t *testing.T) {
	wb := book(30, []string{"j1"}, 4, 0, none)
	a := Side{Name: "old", Items: wb.Items[:25], Judgements: wb.Scores}
	bItems := slices.Clone(wb.Items[3:])
	extra := bItems[0]
	extra.ID = "new-1"
	bItems = append(bItems, extra)
	b := Side{Name: "new", Items: bItems, Judgements: wb.Scores}
	r, err := Compare(a, b, Options{Config: config(100)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.UnmatchedA, []string{"q001", "q002", "q003"}) || !slices.Equal(r.UnmatchedB, []string{"q026", "q027", "q028", "q029", "q030", "new-1"}) {
		t.Errorf("unmatched A %v B %v", r.UnmatchedA, r.UnmatchedB)
	}
	if r.Paired != 22 || r.ItemsA != 25 || r.ItemsB != 28 {
		t.Errorf("paired %d items %d %d", r.Paired, r.ItemsA, r.ItemsB)
	}
	var named int
	for _, w := range r.Warnings {
		if w.Code == CodeUnmatched && (strings.Contains(w.ZH, "q001") || strings.Contains(w.EN, "new-1")) {
			named++
		}
	}
	if named != 2 {
		t.Errorf("warnings %+v", r.Warnings)
	}
	// No shared id at all is an error, not an empty comparison.
	_, err = Compare(Side{Items: wb.Items[:5], Judgements: wb.Scores}, Side{Items: wb.Items[5:10], Judgements: wb.Scores}, Options{Config: config(10)})
	if e, ok := err.(*Error); !ok || e.Code != CodeNoPairs || e.ZH == "" {
		t.Errorf("no shared id: %v", err)
	}
}

// Judges that see opposite directions are flagged, with a sentence that
// names them, and the headline carries the caution.
func TestJudgesDisagree(t *testing.T) {
	shift := func(judge string, i int) float64 {
		if judge == "j1" {
			return 3
		}
		return -3
	}
	wb := book(60, []string{"j1", "j2"}, 5, 0, shift)
	a, b := FromWorkbook(wb, "rag", "v2")
	r, err := Compare(a, b, Options{Config: config(200)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Judges[0].Cube.Verdict != VerdictBetter || r.Judges[1].Cube.Verdict != VerdictWorse {
		t.Fatalf("per judge %s %s", r.Judges[0].Cube.Verdict, r.Judges[1].Cube.Verdict)
	}
	if !r.JudgesDisagree || !hasWarning(r, CodeJudgesDisagree) || !strings.Contains(r.Headline.ZH, "意见不一") || !strings.Contains(r.Headline.EN, "disagree") {
		t.Errorf("disagree %v warnings %+v headline %q", r.JudgesDisagree, r.Warnings, r.Headline.ZH)
	}
	// Agreeing judges are not flagged; nor are opposite signs of
	// differences that no judge can tell from 0 (one question moved).
	for _, tc := range []struct {
		name  string
		shift func(string, int) float64
	}{
		{"agree", func(string, int) float64 { return 3 }},
		{"noise", func(judge string, i int) float64 {
			switch {
			case judge == "j1" && i == 0:
				return 2
			case judge == "j2" && i == 1:
				return -2
			}
			return 0
		}},
	} {
		wb = book(60, []string{"j1", "j2"}, 5, 0, tc.shift)
		a, b = FromWorkbook(wb, "rag", "v2")
		if r, err = Compare(a, b, Options{Config: config(200)}); err != nil || r.JudgesDisagree {
			t.Errorf("%s: flagged: %v %v", tc.name, err, r.Warnings)
		}
		if tc.name == "noise" && (r.Judges[0].Cube.Verdict != VerdictNone || r.Judges[1].Cube.Verdict != VerdictNone ||
			!(*r.Judges[0].Cube.Diff > 0) || !(*r.Judges[1].Cube.Diff < 0)) {
			t.Errorf("noise case is not what it should test: %s %v, %s %v", r.Judges[0].Cube.Verdict, *r.Judges[0].Cube.Diff, r.Judges[1].Cube.Verdict, *r.Judges[1].Cube.Diff)
		}
	}
}

// Bounds are shared when questions and guides are the same — side B's own
// zero and full judgements are then not read — and each side's own when
// they differ, with the differing ids named.
func TestBounds(t *testing.T) {
	wb := book(40, []string{"j1"}, 6, 0, none)
	// Run B: the same rag judgements, but its own (different) bound scores.
	var bScores []dataset.Judgement
	for j := range wb.Scores.Values() {
		if j.Set == "zero" || j.Set == "full" {
			j.Score = math.Max(0, j.Score-1)
		}
		bScores = append(bScores, j)
	}
	guidesB := slices.Clone(wb.Guides)
	for _, tc := range []struct {
		name   string
		change func(items []dataset.Item, guides []dataset.Guide)
		shared bool
		differ []string
	}{
		{"same questions and guides", func([]dataset.Item, []dataset.Guide) {}, true, nil},
		{"question text differs", func(items []dataset.Item, _ []dataset.Guide) { items[4].Question += "（修订）" }, false, []string{"q005"}},
		{"gold guide text differs", func(_ []dataset.Item, guides []dataset.Guide) { guides[9].Text += "新增材料" }, false, []string{"q010"}},
		{"gold guide differs", func(items []dataset.Item, _ []dataset.Guide) { items[2].DocID = "g001" }, false, []string{"q003"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := slices.Clone(wb.Items)
			guides := slices.Clone(guidesB)
			tc.change(items, guides)
			a := Side{Name: "A", Items: wb.Items, Judgements: wb.Scores, Guides: wb.Guides}
			b := Side{Name: "B", Items: items, Judgements: dataset.ScoresOf(bScores...), Guides: guides}
			r, err := Compare(a, b, Options{Config: config(100)})
			if err != nil {
				t.Fatal(err)
			}
			if r.SharedBounds != tc.shared || !slices.Equal(r.BoundsDiffer, append([]string{}, tc.differ...)) || hasWarning(r, CodeBoundsDiffer) == tc.shared {
				t.Fatalf("shared %v differ %v warnings %+v", r.SharedBounds, r.BoundsDiffer, r.Warnings)
			}
			// Shared: B's bound scores are not read, so Δ is exactly 0. Own:
			// B's lower bounds raise its normalised score.
			d := *r.Aggregate.Weighted.Diff
			if tc.shared && d != 0 || !tc.shared && !(d > 0) {
				t.Errorf("Δ weighted %v", d)
			}
		})
	}
}

// Undefined figures are null: bounds that collapse on side B (zero = full)
// leave ΔCuBE undefined with the verdict "cannot tell", and the result
// marshals without NaN.
func TestUndefinedIsNull(t *testing.T) {
	wb := book(30, []string{"j1"}, 7, 0, none)
	var bScores []dataset.Judgement
	for j := range wb.Scores.Values() {
		if j.Set == "full" {
			j.Set = "zero-copy"
		}
		bScores = append(bScores, j)
	}
	for j := range wb.Scores.Values() {
		if j.Set == "zero" {
			j.Set = "full" // full = zero: every denominator is 0
			bScores = append(bScores, j)
		}
	}
	b := Side{Name: "B", Items: slices.Clone(wb.Items), Judgements: dataset.ScoresOf(bScores...)}
	b.Items[0].Question += "?" // own bounds
	r, err := Compare(Side{Name: "A", Items: wb.Items, Judgements: wb.Scores}, b, Options{Config: config(50)})
	if err != nil {
		t.Fatal(err)
	}
	if j := r.Judges[0].Cube; j.A == nil || j.B != nil || j.Diff != nil || j.Verdict != VerdictUndefined {
		t.Errorf("judge ΔCuBE %+v", j)
	}
	// Across judges: no judge has the figure on both sides, so nothing is averaged.
	d := r.Aggregate.Cube
	if d.Judges != 0 || d.B != nil || d.Diff != nil || d.CI95 != nil || d.Detectable != nil || d.Verdict != VerdictUndefined || r.Verdict != VerdictUndefined {
		t.Errorf("ΔCuBE %+v", d)
	}
	if !strings.Contains(r.Headline.ZH, "无法判断") {
		t.Errorf("headline %q", r.Headline.ZH)
	}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"diff":null`) || strings.Contains(string(raw), "NaN") {
		t.Errorf("json: %.300s", raw)
	}
	if r.NotComparable != 30 || !hasWarning(r, CodeNoItemScore) {
		t.Errorf("not comparable %d", r.NotComparable)
	}
}

// MFSS totals and CoFE correctness judgements, when both sides have them,
// are compared the same way: ΔMFSS in points of 100, Δ pass rate in
// percentage points.
func TestMFSSAndCoFE(t *testing.T) {
	wb := book(50, []string{"j1"}, 8, 0, none)
	mA, mB := map[string]float64{}, map[string]float64{}
	for i, it := range wb.Items {
		mA[it.ID] = 0.5 + 0.004*float64(i)
		mB[it.ID] = mA[it.ID] + 0.1
		pass := func(set string, ok bool) {
			s := 2.0
			if ok {
				s = 5
			}
			wb.Scores.Add(dataset.Judgement{ItemID: it.ID, Set: set, Judge: "j1", Dimension: "correctness", Repeat: 1, Score: s, Status: dataset.StatusOK})
		}
		pass("rag", i%2 == 0) // 50 %
		pass("v2", i%10 != 9) // 90 %
	}
	a, b := FromWorkbook(wb, "rag", "v2")
	a.MFSS, b.MFSS = mA, mB
	cfg := config(300)
	cfg.Dimensions = nil // CuBE must still leave the CoFE dimension alone
	r, err := Compare(a, b, Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if m := r.MFSS; m == nil || math.Abs(*m.Diff-10) > 1e-9 || m.Verdict != VerdictBetter {
		t.Errorf("ΔMFSS %+v", m)
	}
	if c := r.Aggregate.CoFEPass; c == nil || math.Abs(*c.Diff-40) > 1e-9 || *c.A != 50 || c.Verdict != VerdictBetter {
		t.Errorf("ΔCoFE %+v", c)
	}
	if slices.Contains(r.Dimensions, "correctness") {
		t.Errorf("CuBE dimensions %v", r.Dimensions)
	}
	// MFSS on one side only: not compared, and said.
	b.MFSS = nil
	if r, err = Compare(a, b, Options{Config: cfg}); err != nil || r.MFSS != nil || !hasWarning(r, CodeMFSSOneSide) {
		t.Errorf("one-sided MFSS: %v %+v", err, r.MFSS)
	}
}

func TestNumberFormat(t *testing.T) {
	for _, tc := range []struct {
		v              float64
		signed, plain_ string
	}{
		{-4.24, "−4.2", "−4.2"}, {4.25, "+4.2", "4.2"}, {-0.04, "0.0", "0.0"}, {0, "0.0", "0.0"}, {0.06, "+0.1", "0.1"},
	} {
		if s, p := signed(tc.v), plain(tc.v); s != tc.signed || p != tc.plain_ {
			t.Errorf("%v: %q %q, want %q %q", tc.v, s, p, tc.signed, tc.plain_)
		}
	}
}

// Two runs with different retrieval: B finds the gold guide of the ten
// questions A missed (one in seven of 70), so ΔRecall@k is +10/70 =
// +14.29 points, and every resample without any of them is rare enough
// ((6/7)^70 ≈ 2e-5) that the interval excludes 0.
func TestRecallDelta(t *testing.T) {
	wb := book(70, []string{"j1"}, 12, 0, none)
	items := slices.Clone(wb.Items)
	for i := range items {
		if i%7 == 6 {
			items[i].Retrieved = []string{items[i].DocID, "x2", "x3"}
		}
	}
	a := Side{Name: "A", Items: wb.Items, Judgements: wb.Scores, Guides: wb.Guides}
	b := Side{Name: "B", Items: items, Judgements: wb.Scores, Guides: wb.Guides}
	r, err := Compare(a, b, Options{Config: config(500)})
	if err != nil {
		t.Fatal(err)
	}
	d := r.Recall
	if math.Abs(*d.A-600.0/7) > 1e-9 || *d.B != 100 || math.Abs(*d.Diff-1000.0/70) > 1e-9 || d.Verdict != VerdictBetter || !(d.CI95[0] > 0) {
		t.Errorf("ΔRecall %+v", d)
	}
	if hasWarning(r, CodeSameRetrieval) || !r.SharedBounds {
		t.Errorf("warnings %+v shared %v", r.Warnings, r.SharedBounds)
	}
	if r.CubeA == nil || r.CubeB == nil || *r.CubeB.RecallAtK != 1 {
		t.Errorf("sides' CuBE results %v %v", r.CubeA, r.CubeB)
	}
}

// A judge that does not qualify on a side is left out of the across-judges
// figures, as it is left out of that side's verdict (issue 22): its bounds
// are defined (full one point above zero on one question) but separate
// nothing, and its rag and v2 scores are noise.
func TestAcrossJudgesCountsOnlyQualified(t *testing.T) {
	wb := book(80, []string{"j1", "j2"}, 3, 0, func(string, int) float64 { return 0.5 })
	rng := rand.New(rand.NewPCG(9, 9))
	for i, it := range wb.Items {
		for _, dim := range dims {
			full := 5.0
			if i == 0 {
				full = 6
			}
			for set, v := range map[string]float64{"zero": 5, "full": full, "rag": float64(rng.IntN(11)), "v2": float64(rng.IntN(11))} {
				wb.Scores.Add(dataset.Judgement{ItemID: it.ID, Set: set, Judge: "blind", Dimension: dim, Score: v, Repeat: 1, Status: dataset.StatusOK})
			}
		}
	}
	a, b := FromWorkbook(wb, "rag", "v2")
	cfg := config(200)
	cfg.Trim = 0
	r, err := Compare(a, b, Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range r.CubeA.Judges {
		if j.Judge == "blind" && (j.Counted() || j.Cube == nil) {
			t.Fatalf("blind judge: counted %v, CuBE %v", j.Counted(), j.Cube)
		}
	}
	if d := r.Aggregate.Cube; d.Judges != 2 || d.A == nil || math.Abs(*d.A-*r.CubeA.Aggregate.Cube.Mean) > 1e-9 {
		t.Errorf("across judges: %d judges, A %v, side A's verdict mean %v", d.Judges, d.A, r.CubeA.Aggregate.Cube.Mean)
	}
}
