package cofe

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"cubeworkbench/core/dataset"

	"cubeworkbench/internal/shareddata"
)

// loadCoFE reads rag_dataset_{lang}.json into items; test use only.
func loadCoFE(t *testing.T, lang string) ([]dataset.Item, []string, []string) {
	t.Helper()
	path := shareddata.Path(t, "cofe", "rag_dataset_"+lang+".json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Examples []struct {
			QueryType       string     `json:"query_type"`
			Query           string     `json:"query"`
			ReferenceAnswer string     `json:"reference_answer"`
			FileName        string     `json:"file_name"`
			Coarse          []string   `json:"coarse_keywords"`
			Fine            [][]string `json:"fine_keywords"`
		} `json:"examples"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	items := make([]dataset.Item, len(f.Examples))
	refs := make([]string, len(f.Examples))
	files := make([]string, len(f.Examples))
	for i, e := range f.Examples {
		items[i] = dataset.Item{ID: fmt.Sprintf("%s%d", lang, i), Question: e.Query, Reference: e.ReferenceAnswer,
			QueryType: e.QueryType, Coarse: e.Coarse, Fine: e.Fine}
		refs[i], files[i] = e.ReferenceAnswer, e.FileName
	}
	return items, refs, files
}

func TestCoFEDatasets(t *testing.T) {
	cases := []struct {
		lang            string
		n, files        int
		types           map[string]int // from NOTES.md
		emptyKeywordIDs []string
	}{
		{"en", 1003, 127, map[string]int{"factual": 364, "analytical": 260, "comparative": 226, "tutorial": 153}, nil},
		{"zh", 2826, 564, map[string]int{"factual": 1340, "analytical": 746, "comparative": 498, "tutorial": 242}, []string{"zh102"}},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			items, _, files := loadCoFE(t, c.lang)
			distinct := map[string]bool{}
			for _, f := range files {
				distinct[f] = true
			}
			types := map[string]int{}
			var empty []string
			for _, it := range items {
				types[dataset.CanonicalQueryType(it.QueryType)]++
				if EmptyKeywords(it.Coarse, it.Fine) {
					empty = append(empty, it.ID)
				}
			}
			if len(items) != c.n || len(distinct) != c.files || fmt.Sprint(types) != fmt.Sprint(c.types) || fmt.Sprint(empty) != fmt.Sprint(c.emptyKeywordIDs) {
				t.Errorf("%d items, %d files, types %v, empty %v", len(items), len(distinct), types, empty)
			}
		})
	}
}

// TestCoFEReferenceAnswersAsCorpus runs the whole pipeline on real queries.
// The source documents were never published, so each reference answer
// stands in as a document: a stand-in corpus, not a measure of any system.
// What must hold whatever the numbers: gold at k implies gold over the
// whole list, because S at k is a prefix of S over the list. (Recall ≤
// Coverage is not guaranteed: a keyword may span two chunks that are
// adjacent in rank order but not in corpus order.)
func TestCoFEReferenceAnswersAsCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("real-data pipeline: not in -short")
	}
	for _, lang := range []string{"en", "zh"} {
		items, refs, _ := loadCoFE(t, lang)
		docs := make([]Doc, len(refs))
		for i, r := range refs {
			docs[i] = Doc{ID: items[i].ID, Text: r}
		}
		res, err := Evaluate(context.Background(), Config{}, docs, items, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d queries, chunks %d, acc@4 %.4f recall@30 %.4f coverage %.4f hit %.4f, empty %d",
			lang, res.Queries, res.Chunks, *res.AccuracyAtK, *res.Recall, *res.Coverage, *res.MeanHitScore, res.EmptyKeywordQueries)
		for qt, m := range res.ByQueryType {
			t.Logf("  %-12s n=%4d acc@4 %.4f recall %.4f coverage %.4f hit %.4f", qt, m.Queries, *m.AccuracyAtK, *m.Recall, *m.Coverage, *m.MeanHitScore)
		}
		if !(*res.AccuracyAtK <= *res.Recall) || res.Queries != len(items) || res.EmptyKeywordQueries != map[string]int{"en": 0, "zh": 1}[lang] {
			t.Errorf("%s: inconsistent result %+v", lang, res.Metrics)
		}
		for _, q := range res.PerQuery {
			if q.GoldAtK && !q.GoldRecall {
				t.Fatalf("%s: %s gold at k but not over the whole list", lang, q.ItemID)
			}
		}
	}
}
