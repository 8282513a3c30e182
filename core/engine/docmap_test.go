package engine

import (
	"context"
	"cubeworkbench/internal/fakeragflow"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/assets/sample"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
)

func openSampleBook(t *testing.T) *dataset.Workbook {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cube-sample.xlsx")
	if err := os.WriteFile(path, sample.Workbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	wb, rep, err := ingest.Open(context.Background(), path, ingest.Options{})
	if err != nil || rep.HasErrors() {
		t.Fatalf("sample: %v %+v", err, rep)
	}
	return wb
}

// The engine matches the target's documents to guides and puts the mapping
// report in the summary: hand-named files resolve and give the workbook's
// own Recall@8; quote off makes Recall@8 and CuBE null (never 0) with a
// warning naming the setting; unmatchable names warn loudly; a streamed
// knowledge base matches against every stored guide, not only the ones the
// questions name.
func TestTargetDocumentsMatched(t *testing.T) {
	own := openSampleBook(t)
	ownProfile := testProfile(profile.Endpoint{Name: LexicalJudge, Lexical: true})
	want, err := Run(context.Background(), cloneWorkbook(own), Options{Profile: ownProfile, Store: openStore(t, "")})
	if err != nil || want.Summary.RecallAtK == nil {
		t.Fatalf("the sample's own Recall@8: %v", err)
	}
	cases := []struct {
		name     string
		naming   fakeragflow.Naming
		streamed bool
		check    func(t *testing.T, s *result.Summary)
	}{
		{"named by hand", fakeragflow.ByHand, false, func(t *testing.T, s *result.Summary) {
			m := s.DocMapping
			if s.RecallAtK == nil || *s.RecallAtK != *want.Summary.RecallAtK {
				t.Errorf("Recall@8 %v, want %v", s.RecallAtK, *want.Summary.RecallAtK)
			}
			if m.Resolved != m.Retrieved || len(m.Unmatched) != 0 || m.Loud() || hasWarning(s, "docmatch") {
				t.Errorf("mapping %+v, warnings %+v", m, s.Warnings)
			}
		}},
		{"quote off", fakeragflow.QuoteOff, false, func(t *testing.T, s *result.Summary) {
			if s.RecallAtK != nil || s.Aggregate.Cube.Mean != nil || s.Verdict.Code != "undetermined" {
				t.Errorf("Recall@8 %v, CuBE %v, verdict %s: want null and undetermined", s.RecallAtK, s.Aggregate.Cube.Mean, s.Verdict.Code)
			}
			for _, j := range s.Judges {
				if j.Cube != nil {
					t.Errorf("judge %s CuBE %v, want null", j.Judge, *j.Cube)
				}
			}
			w := warning(s, "recall_missing")
			if w == nil || !strings.Contains(w.ZH, "显示引文") || !strings.Contains(w.EN, "quote") || !s.DocMapping.RecallMissing() {
				t.Errorf("warning %+v, mapping %+v", w, s.DocMapping)
			}
			if strings.Contains(s.HeadlineText.EN, "0.00 %") {
				t.Errorf("headline says 0: %s", s.HeadlineText.EN)
			}
		}},
		{"opaque names", fakeragflow.Opaquely, false, func(t *testing.T, s *result.Summary) {
			w := warning(s, "unmatched_documents")
			if w == nil || !s.DocMapping.Loud() || !strings.Contains(w.EN, "target_doc") || !strings.Contains(w.ZH, "scan_") {
				t.Errorf("warning %+v, mapping %+v", w, s.DocMapping)
			}
		}},
		{"streamed knowledge base", fakeragflow.ByHand, true, func(t *testing.T, s *result.Summary) {
			m := s.DocMapping
			if m.Resolved != m.Retrieved || len(m.Unmatched) != 0 || s.RecallAtK == nil {
				t.Errorf("Recall@8 %v; mapping %+v", s.RecallAtK, m)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wb := openSampleBook(t)
			srv := fakeragflow.New(t, openSampleBook(t), c.naming)
			fakeragflow.Unasked(wb)
			st := openStore(t, "")
			if c.streamed { // every guide in the store, only the questions' gold guides in memory
				gw, err := st.NewGuideWriter(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				for _, g := range wb.Guides {
					if err := gw.Add(g); err != nil {
						t.Fatal(err)
					}
				}
				if err := gw.Close(); err != nil {
					t.Fatal(err)
				}
				wb.Items = wb.Items[:20]
				named := map[string]bool{}
				for _, it := range wb.Items {
					named[it.DocID] = true
				}
				var kept []dataset.Guide
				for _, g := range wb.Guides {
					if named[g.ID] {
						kept = append(kept, g)
					}
				}
				others := 0 // retrieved guides that are no question's gold guide
				for _, it := range openSampleBook(t).Items[:20] {
					for _, ref := range it.Retrieved {
						if !named[ref] {
							others++
						}
					}
				}
				if others == 0 {
					t.Fatal("every retrieved guide is a gold guide: the case tests nothing")
				}
				wb.Guides = kept
			}
			p := testProfile(profile.Endpoint{Name: LexicalJudge, Lexical: true})
			p.Target = &profile.Target{Kind: "ragflow", BaseURL: srv.URL, ChatID: "chat9", Concurrency: 2}
			res, err := Run(context.Background(), wb, Options{Profile: p, Store: st, PartialGuides: c.streamed})
			if err != nil {
				t.Fatal(err)
			}
			if res.Summary.DocMapping == nil || res.Summary.DocMapping.Answers != len(wb.Items) {
				t.Fatalf("mapping report %+v", res.Summary.DocMapping)
			}
			c.check(t, res.Summary)
		})
	}
}

func warning(s *result.Summary, code string) *result.Warning {
	for i := range s.Warnings {
		if s.Warnings[i].Code == code {
			return &s.Warnings[i]
		}
	}
	return nil
}

func hasWarning(s *result.Summary, source string) bool {
	for _, w := range s.Warnings {
		if w.Source == source {
			return true
		}
	}
	return false
}
