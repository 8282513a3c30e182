package result

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/explain"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

func item(id, gold string, retrieved ...string) dataset.Item {
	return dataset.Item{ID: id, DocID: gold, Retrieved: retrieved}
}

// triple adds the zero, rag and full judgements of one item.
func triple(js []dataset.Judgement, itemID, judge, dim string, zero, rag, full float64) []dataset.Judgement {
	ok := func(set string, score float64) dataset.Judgement {
		return dataset.Judgement{ItemID: itemID, Set: set, Judge: judge, Dimension: dim, Score: score, Repeat: 1, Status: dataset.StatusOK}
	}
	return append(js, ok("zero", zero), ok("rag", rag), ok("full", full))
}

// cubeCase has a bit of everything that must come out as null: an item
// without gold, a judge whose "spec" bounds collapse, a single-valued
// retrieved correlation, expert ratings.
func cubeCase(t *testing.T) *cube.Result {
	items := []dataset.Item{
		item("q1", "g1", "g1"), item("q2", "g2", "x", "g2"), item("q3", "g3", "x", "y", "g3"),
		item("q4", "g4", "x"), item("q5", ""), item("q6", "g6", "g6", "x"),
	}
	var js []dataset.Judgement
	rag := map[string]float64{"q1": 9, "q2": 8, "q3": 7, "q4": 5, "q5": 6, "q6": 8}
	for _, id := range []string{"q1", "q2", "q3", "q4", "q5", "q6"} {
		js = triple(js, id, "alpha", "rel", 4, rag[id], 9)
		js = triple(js, id, "alpha", "spec", 5, rag[id]-1, 8)
		js = triple(js, id, "beta", "rel", 3, rag[id]-1, 9)
		js = triple(js, id, "beta", "spec", 7, 7, 7) // collapse
	}
	js = append(js, dataset.Judgement{ItemID: "q2", Set: "rag", Judge: "beta", Dimension: "rel", Repeat: 1,
		Status: dataset.StatusUnscorable, Raw: "?", Reason: "no number"})
	human := []dataset.HumanRating{
		{ItemID: "q1", Dimension: "rel", Score: 9, Rater: "e1"},
		{ItemID: "q2", Dimension: "rel", Score: 7, Rater: "e1"},
		{ItemID: "q3", Dimension: "rel", Score: 6, Rater: "e1"},
		{ItemID: "q1", Dimension: "rel", Score: 8, Rater: "e2"},
	}
	cfg := cube.DefaultConfig()
	cfg.Dimensions = []string{"rel", "spec"}
	cfg.BootstrapB = 50
	res, err := cube.Evaluate(items, dataset.ScoresOf(js...), human, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The CuBE part of SUMMARY.json is the same bytes as before its types
// moved here from core/cube's tags (testdata/cube.golden.json was
// core/cube/testdata/summary.golden.json), and holds what the contract
// (spec/cli.md) names, null where a value is undefined.
func TestCubeGolden(t *testing.T) {
	got, err := json.MarshalIndent((&Summary{Result: cubeCase(t)}).JSON().CubeJSON, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "cube.golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("CuBE part differs from %s (go test -update to accept):\n%s", path, got)
	}
	if bytes.Contains(got, []byte("NaN")) || bytes.Contains(got, []byte("Inf")) {
		t.Fatal("NaN or Inf in the summary")
	}

	var m map[string]any
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"items", "retrieved", "recall_at_k", "top_n", "subset", "trim", "dimensions", "judges", "aggregate"} {
		if _, ok := m[k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	judges := m["judges"].([]any)
	beta := judges[1].(map[string]any)
	for _, k := range []string{"judge", "weights", "weight_source", "correlation_all", "correlation_retrieved",
		"trimmed_means", "normalized", "cube", "cube_ci95", "unscorable", "flags"} {
		if _, ok := beta[k]; !ok {
			t.Errorf("judge lacks %q", k)
		}
	}
	if beta["judge"] != "beta" || beta["unscorable"] != 1.0 {
		t.Errorf("beta %v unscorable %v", beta["judge"], beta["unscorable"])
	}
	tm := beta["trimmed_means"].(map[string]any)
	for _, set := range []string{"zero", "rag", "full"} {
		if _, ok := tm[set].(map[string]any)["weighted"]; !ok {
			t.Errorf("trimmed_means.%s lacks weighted", set)
		}
	}
	norm := beta["normalized"].(map[string]any)
	if v, present := norm["spec"]; !present || v != nil {
		t.Errorf("collapsed spec is %v (present %v), want null", v, present)
	}
	if v, present := beta["correlation_all"].(map[string]any)["spec"]; !present || v != nil {
		t.Errorf("constant spec correlation is %v, want null", v)
	}
	agg := m["aggregate"].(map[string]any)
	if _, ok := agg["normalized"].(map[string]any)["weighted"].(map[string]any)["sd"]; !ok {
		t.Error("aggregate.normalized.weighted.sd missing")
	}
	if spec := agg["normalized"].(map[string]any)["spec"].(map[string]any); spec["sd"] != nil {
		t.Errorf("spec across judges has one value, sd %v should be null", spec["sd"])
	}
	if c := agg["cube"].(map[string]any); c["mean"] == nil || c["sd"] == nil {
		t.Errorf("aggregate cube %v", c)
	}
	if !strings.Contains(string(got), `"flags": [`) {
		t.Error("flags not an array")
	}
}

// A summary without CuBE (MFSS or CoFE only) writes none of CuBE's keys,
// and texts are {"en", "zh"} in that order wherever they are.
func TestSummaryJSONShape(t *testing.T) {
	b, err := json.Marshal(Summary{ToolVersion: "v"})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"items"`, `"judges"`, `"recommendations"`, `"headline"`} {
		if bytes.Contains(b, []byte(k)) {
			t.Errorf("no CuBE ran, yet %s is written: %s", k, b)
		}
	}
	b, err = json.Marshal(&Summary{Result: cubeCase(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"headline":{"en":"CuBE `)) {
		t.Errorf("headline is not {en, zh}: %.300s", b[bytes.Index(b, []byte(`"headline"`)):])
	}
}

// SUMMARY.json has one list of recommendations: the top-level list is the
// explanation's (CuBE's findings with their side, and explain's own), and
// "explanation.recommendations" is the same list, kept for one version.
func TestOneRecommendationsList(t *testing.T) {
	res := cubeCase(t)
	v := VerdictFor(res.Aggregate.Cube.Mean, 99, 98) // not ready: explain adds advice for the system
	ex := explain.Explain(explain.Input{Result: res, Verdict: explain.Verdict{Code: v.Code, Cube: v.Cube,
		DeployableAt: v.Deployable, NeedsWorkAt: v.NeedsWork}})
	for _, s := range []Summary{{Result: res, Verdict: v, Explanation: &ex}, {Result: res, Verdict: v}} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Version         int              `json:"summary_version"`
			Recommendations []map[string]any `json:"recommendations"`
			Explanation     struct {
				Recommendations []map[string]any `json:"recommendations"`
			} `json:"explanation"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Version != SummaryVersion || SummaryVersion != 2 {
			t.Errorf("summary_version %d", m.Version)
		}
		var codes []string
		for _, r := range m.Recommendations {
			codes = append(codes, r["code"].(string))
			if r["side"] != explain.SideSystem && r["side"] != explain.SideEvaluation {
				t.Errorf("%v has no side", r)
			}
		}
		// cubeCase fires CuBE's bounds rule (an evaluation matter); the
		// verdict below deployable adds explain's advice for the system,
		// which comes first.
		if len(codes) < 2 || codes[len(codes)-1] != string(cube.RuleBounds) || m.Recommendations[0]["side"] != explain.SideSystem {
			t.Errorf("recommendations %v", codes)
		}
		if s.Explanation != nil && !reflect.DeepEqual(m.Recommendations, m.Explanation.Recommendations) {
			t.Errorf("two lists that differ:\n%v\n%v", m.Recommendations, m.Explanation.Recommendations)
		}
		if got := s.Recommendations(); len(got) != len(codes) {
			t.Errorf("Summary.Recommendations has %d, SUMMARY.json %d", len(got), len(codes))
		}
	}
}
