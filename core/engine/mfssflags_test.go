package engine

import (
	"context"
	"fmt"
	"testing"

	"cubeworkbench/core/embed"
	"cubeworkbench/core/profile"
)

// zeroEmbedder knows no word: every vector is zero.
type zeroEmbedder struct{}

func (zeroEmbedder) Name() string { return "zero" }
func (zeroEmbedder) Dim() int     { return 4 }
func (zeroEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = make([]float32, 4)
	}
	return out, nil
}

// MFSS's doubts reach the summary's warnings: the sample's uninformative
// coherence and conciseness, and an embedder's zero vectors.
func TestMFSSFlagsAreWarnings(t *testing.T) {
	withRefs := buildWorkbook(6)
	for i := range withRefs.Items {
		withRefs.Items[i].Reference = fmt.Sprintf("办理第%d号业务需要身份证。", i+1)
	}
	cases := []struct {
		name  string
		emb   embed.Embedder
		codes map[string]bool // code/where wanted
	}{
		{"the sample", nil, map[string]bool{"uninformative_factor/coherence": true, "uninformative_factor/conciseness": true}},
		{"zero vectors", zeroEmbedder{}, map[string]bool{"zero_vectors/": true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wb := openSampleBook(t)
			if c.emb != nil {
				wb = cloneWorkbook(withRefs)
			}
			p := testProfile(profile.Endpoint{Name: LexicalJudge, Lexical: true})
			res, err := Run(context.Background(), wb, Options{Profile: p, Store: openStore(t, ""), Embedder: c.emb})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, w := range res.Summary.Warnings {
				if w.Source == "mfss" {
					got[w.Code+"/"+w.Where] = true
					if w.ZH == "" || w.EN == "" {
						t.Errorf("warning without text: %+v", w)
					}
				}
			}
			for k := range c.codes {
				if !got[k] {
					t.Errorf("no %s warning; mfss warnings %v", k, got)
				}
			}
		})
	}
}
