package explain_test

import (
	"testing"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/result"
)

// The glossary's verdict names are the words SUMMARY.json already carries
// (result.VerdictFor, compare.VerdictText): if one side changes, the window
// and the file would disagree, so this test fails.
func TestGlossaryVerdictsMatchTheProduct(t *testing.T) {
	c := func(v float64) *float64 { return &v }
	for _, v := range []result.Verdict{
		result.VerdictFor(c(70), 60, 40), result.VerdictFor(c(50), 60, 40),
		result.VerdictFor(c(10), 60, 40), result.VerdictFor(nil, 60, 40),
	} {
		id, ok := glossary.VerdictID(string(v.Code))
		if !ok {
			t.Errorf("verdict %s has no glossary id", v.Code)
			continue
		}
		zh, en := glossary.Term(id, "zh"), glossary.Term(id, "en")
		if v.Code == "undetermined" { // engine adds the reason after a colon
			if len(v.Text.ZH) < len(zh) || v.Text.ZH[:len(zh)] != zh || v.Text.EN[:len(en)] != en {
				t.Errorf("%s: engine %q / %q, glossary %q / %q", v.Code, v.Text.ZH, v.Text.EN, zh, en)
			}
			continue
		}
		if v.Text.ZH != zh || v.Text.EN != en {
			t.Errorf("%s: engine %q / %q, glossary %q / %q", v.Code, v.Text.ZH, v.Text.EN, zh, en)
		}
	}
	for _, code := range []string{compare.VerdictBetter, compare.VerdictNone, compare.VerdictWorse, compare.VerdictUndefined} {
		m := compare.VerdictText(code)
		id, ok := glossary.CompareID(code)
		if !ok || glossary.Term(id, "zh") != m.ZH || glossary.Term(id, "en") != m.EN {
			t.Errorf("comparison %s: compare %q / %q, glossary %q / %q", code, m.ZH, m.EN, glossary.Term(id, "zh"), glossary.Term(id, "en"))
		}
	}
}
