package report

import (
	"slices"
	"strings"
	"testing"

	"cubeworkbench/core/brief"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// The report's Summary page and the brief of one export say the same
// verdict words: the verdict itself and the threshold sentence name the
// verdicts as the glossary does, in both languages and for every verdict.
// (The brief once said 暂不具备部署条件 where the report said 尚不具备部署条件.)
func TestReportAndBriefSayTheSameVerdict(t *testing.T) {
	// Every wording of a verdict either ever used, to catch a drifted copy.
	words := func(lang text.Lang) []string {
		w := []string{"暂不具备部署条件", "Not ready"}
		for _, c := range glossary.VerdictCodes() {
			w = append(w, c.Words(lang))
		}
		return w
	}
	found := func(s string, lang text.Lang) []string {
		var out []string
		for _, w := range words(lang) {
			if strings.Contains(s, w) && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
		slices.Sort(out)
		return out
	}
	thresholds := map[result.VerdictCode][2]float64{
		result.Deployable: {60, 40}, result.NeedsWork: {90, 40}, result.NotReady: {90, 80}, result.Undetermined: {60, 40},
	}
	for _, lang := range []text.Lang{"zh", "en"} {
		for code, th := range thresholds {
			t.Run(string(lang)+"/"+string(code), func(t *testing.T) {
				in := fixture(t)
				cube := in.Summary.Verdict.Cube
				if code == result.Undetermined {
					cube = nil
				}
				in.Summary.Verdict = result.VerdictFor(cube, th[0], th[1])
				if in.Summary.Verdict.Code != code {
					t.Fatalf("fixture gives %s, want %s", in.Summary.Verdict.Code, code)
				}
				pg := NewPage(in.Summary, in.Profile, lang)
				lay, err := brief.Layout(BriefContent(in.Summary, in.Profile, lang))
				if err != nil {
					t.Fatal(err)
				}
				var verdictLine, rule string
				for _, b := range lay.Blocks {
					s := strings.Join(b.Lines, "")
					switch {
					case b.Kind == "banner":
						verdictLine = s
					case strings.Contains(s, "判定标准"):
						rule = s
					}
				}
				own := code.Words(text.Lang(lang))
				if !strings.Contains(pg.Verdict, own) || !strings.Contains(verdictLine, own) {
					t.Errorf("verdict words %q: report %q, brief %q", own, pg.Verdict, verdictLine)
				}
				if a, b := found(pg.Verdict, lang), found(verdictLine, lang); !slices.Equal(a, b) {
					t.Errorf("verdict: report says %q, brief %q", a, b)
				}
				if lang == "zh" {
					if a, b := found(pg.VerdictRule, lang), found(rule, lang); !slices.Equal(a, b) || len(a) != 3 {
						t.Errorf("thresholds: report names %q (%s), brief %q (%s)", a, pg.VerdictRule, b, rule)
					}
				}
			})
		}
	}
}
