package textmetric

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// vectorsDir is a reference implementation's public test vectors, in the
// repository (testdata/vectors, with their licences): they never skip.
func vectorsDir(t *testing.T, sub string) string {
	t.Helper()
	dir := filepath.Join("testdata", "vectors", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("reference vectors missing from the repository: %v", err)
	}
	return dir
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

type prfJSON struct{ P, R, F float64 }

func checkPRF(t *testing.T, label string, got PRF, want prfJSON, tol float64) {
	t.Helper()
	if !near(got.P, want.P, tol) || !near(got.R, want.R, tol) || !near(got.F, want.F, tol) {
		t.Errorf("%s: got P=%.6f R=%.6f F=%.6f, want P=%.6f R=%.6f F=%.6f (tol %g)",
			label, got.P, got.R, got.F, want.P, want.R, want.F, tol)
	}
}

func pick(s RougeScores, typ string) PRF {
	switch typ {
	case "rouge1":
		return s.Rouge1
	case "rouge2":
		return s.Rouge2
	case "rougeL":
		return s.RougeL
	case "rougeLsum":
		return s.RougeLsum
	}
	panic("unknown rouge type " + typ)
}

type rougeExpected struct {
	Inline []struct {
		Types      []string
		Target     string
		Prediction string
		P, R, F    float64
		Places     int
	} `json:"inline_cases"`
	Invalid []string `json:"invalid_rouge_types"`
	Valid   []string `json:"valid_rouge_types"`
	LCS     struct {
		Table struct {
			Ref, Can []int
			LCSLen   int   `json:"lcs_len"`
			Indices  []int `json:"backtrack_ref_indices"`
			Values   []int
		} `json:"lcs_table"`
		TableNone struct {
			Ref, Can []int
			LCSLen   int `json:"lcs_len"`
		} `json:"lcs_table_none"`
		FindUnion struct {
			In  [][]int
			Out []int
		} `json:"find_union"`
		UnionLCS struct {
			Ref  []int
			Cans [][]int
			Out  []int
		} `json:"union_lcs"`
		Summary struct {
			Refs, Cans [][]int
			P, R, F    float64
		} `json:"summary_level_lcs"`
	} `json:"lcs_helpers"`
	Files []map[string]json.RawMessage `json:"file_cases_places5"`
}

func loadRouge(t *testing.T) (rougeExpected, string) {
	dir := vectorsDir(t, "rouge")
	raw, err := os.ReadFile(filepath.Join(dir, "rouge_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var e rougeExpected
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	return e, dir
}

func TestRougeInlineVectors(t *testing.T) {
	e, _ := loadRouge(t)
	if len(e.Inline) < 10 {
		t.Fatalf("only %d inline cases read", len(e.Inline))
	}
	for i, c := range e.Inline {
		s := Rouge(c.Target, c.Prediction, RougeOptions{})
		for _, typ := range c.Types {
			checkPRF(t, typ+" case "+string(rune('0'+i)), pick(s, typ), prfJSON{c.P, c.R, c.F}, 5e-5)
		}
	}
}

func TestRougeTypeNames(t *testing.T) {
	e, _ := loadRouge(t)
	for _, n := range e.Valid {
		if _, _, ok := ParseRougeType(n); !ok {
			t.Errorf("%q rejected", n)
		}
	}
	for _, n := range e.Invalid {
		if _, _, ok := ParseRougeType(n); ok {
			t.Errorf("%q accepted", n)
		}
	}
}

func TestRougeLCSHelpers(t *testing.T) {
	e, _ := loadRouge(t)
	h := e.LCS
	if got := lcsTable(h.Table.Ref, h.Table.Can); got[len(h.Table.Ref)][len(h.Table.Can)] != h.Table.LCSLen {
		t.Errorf("lcs_table length %d, want %d", got[len(h.Table.Ref)][len(h.Table.Can)], h.Table.LCSLen)
	}
	idx := lcsIndices(h.Table.Ref, h.Table.Can)
	if !reflect.DeepEqual(idx, h.Table.Indices) {
		t.Errorf("backtrack %v, want %v", idx, h.Table.Indices)
	}
	var vals []int
	for _, i := range idx {
		vals = append(vals, h.Table.Ref[i])
	}
	if !reflect.DeepEqual(vals, h.Table.Values) {
		t.Errorf("values %v, want %v", vals, h.Table.Values)
	}
	if got := lcsTable(h.TableNone.Ref, h.TableNone.Can); got[len(h.TableNone.Ref)][len(h.TableNone.Can)] != h.TableNone.LCSLen {
		t.Errorf("lcs_table_none wrong")
	}
	// find_union is exercised through unionLCS on index lists: a reference of
	// indices 0..k, candidates equal to the index sets.
	maxIdx := 0
	for _, s := range h.FindUnion.In {
		for _, v := range s {
			maxIdx = max(maxIdx, v)
		}
	}
	ref := make([]int, maxIdx+1)
	for i := range ref {
		ref[i] = i
	}
	if got := unionLCS(ref, h.FindUnion.In); !reflect.DeepEqual(got, h.FindUnion.Out) {
		t.Errorf("find_union %v, want %v", got, h.FindUnion.Out)
	}
	if got := unionLCS(h.UnionLCS.Ref, h.UnionLCS.Cans); !reflect.DeepEqual(got, h.UnionLCS.Out) {
		t.Errorf("union_lcs %v, want %v", got, h.UnionLCS.Out)
	}
	toStr := func(xs [][]int) [][]string {
		out := make([][]string, len(xs))
		for i, s := range xs {
			for _, v := range s {
				out[i] = append(out[i], string(rune('a'+v)))
			}
		}
		return out
	}
	checkPRF(t, "summary_level_lcs", RougeLsum(toStr(h.Summary.Refs), toStr(h.Summary.Cans)),
		prfJSON{h.Summary.P, h.Summary.R, h.Summary.F}, 5e-5)
}

func readLines(t *testing.T, path string) []string {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n") // lines keep their trailing \n
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func TestRougeFileVectors(t *testing.T) {
	e, dir := loadRouge(t)
	td := filepath.Join(dir, "testdata")
	targets, preds := readLines(t, filepath.Join(td, "target.txt")), readLines(t, filepath.Join(td, "prediction.txt"))
	multiT, err := os.ReadFile(filepath.Join(td, "pyrouge_files", "target_multi.0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	multiP, err := os.ReadFile(filepath.Join(td, "pyrouge_files", "prediction_multi.0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Files) != 5 {
		t.Fatalf("expected 5 file cases, read %d", len(e.Files))
	}
	for i, c := range e.Files {
		var stem bool
		if err := json.Unmarshal(c["stem"], &stem); err != nil {
			t.Fatal(err)
		}
		var s RougeScores
		switch i {
		case 0, 2:
			s = Rouge(targets[0], preds[0], RougeOptions{Stem: stem})
		case 1, 3:
			s = Rouge(targets[1], preds[1], RougeOptions{Stem: stem})
		case 4:
			s = Rouge(string(multiT), string(multiP), RougeOptions{Stem: stem})
		}
		checked := 0
		for _, typ := range []string{"rouge1", "rouge2", "rougeL", "rougeLsum"} {
			raw, ok := c[typ]
			if !ok {
				continue
			}
			var want prfJSON
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			checkPRF(t, string(c["files"])+" "+typ, pick(s, typ), want, 1e-5)
			checked++
		}
		if checked == 0 {
			t.Errorf("file case %d has no scores", i)
		}
	}
}

func TestPorterStem(t *testing.T) {
	// Expected stems worked by hand through NLTK's rules (NLTK_EXTENSIONS).
	cases := map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "tie", "cats": "cat",
		"feed": "feed", "agreed": "agre", "plastered": "plaster", "bled": "bled",
		"motoring": "motor", "sing": "sing", "conflated": "conflat", "troubled": "troubl",
		"sized": "size", "hopping": "hop", "falling": "fall", "filing": "file",
		"happy": "happi", "enjoy": "enjoy", "relational": "relat", "conditional": "condit",
		"generalization": "gener", "electrical": "electr", "hopefulness": "hope",
		"adjustment": "adjust", "adoption": "adopt", "controlling": "control",
		"dying": "die", "skies": "sky", "spied": "spi", "died": "die",
		"radically": "radic", "geology": "geolog", "running": "run", "as": "as",
	}
	for in, want := range cases {
		if got := PorterStem(in); got != want {
			t.Errorf("PorterStem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRougeChinese(t *testing.T) {
	// 办理护照 vs 办理签证: unigrams 办 理 shared (2 of 4 each side);
	// bigrams 办理 shared (1 of 3); LCS 办理 = 2.
	s := Rouge("办理护照", "办理签证", RougeOptions{})
	checkPRF(t, "zh rouge1", s.Rouge1, prfJSON{0.5, 0.5, 0.5}, 1e-12)
	checkPRF(t, "zh rouge2", s.Rouge2, prfJSON{1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-12)
	checkPRF(t, "zh rougeL", s.RougeL, prfJSON{0.5, 0.5, 0.5}, 1e-12)
}
