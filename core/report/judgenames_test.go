package report

import (
	"regexp"
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

// TestOfflineJudgesNamedByGlossaryInReport: the pages a director reads
// call the offline judges by their glossary names (词汇基线评审 / lexical
// baseline), never by the id "lexical" that the profile and the grey data
// sheets use (issue 26). The data sheets keep the id: evaluate reads it
// back, and the problems/unscorable logs name the judge as stored.
func TestOfflineJudgesNamedByGlossaryInReport(t *testing.T) {
	bareID := regexp.MustCompile(`(^|[^A-Za-z])lexical([^A-Za-z ]|$)|(^|[^A-Za-z])lexical$`)
	for _, tc := range []struct{ lang, want string }{{"zh", "词汇基线评审"}, {"en", "lexical baseline"}} {
		_, f, _ := writeFixture(t, text.Lang(tc.lang), nil)
		seen := false
		for _, sheet := range f.GetSheetList() {
			if isDataSheet(sheet) || readsStoredIDs(sheet) {
				continue
			}
			rows, err := f.GetRows(sheet)
			if err != nil {
				t.Fatal(err)
			}
			for r, row := range rows {
				for c, cell := range row {
					if strings.Contains(cell, tc.want) {
						seen = true
					}
					if tc.lang == "zh" && strings.Contains(cell, "lexical") || tc.lang == "en" && bareID.MatchString(cell) {
						t.Errorf("%s: sheet %q row %d col %d shows the judge id: %q", tc.lang, sheet, r+1, c+1, cell)
					}
				}
			}
		}
		if !seen {
			t.Errorf("%s: no sheet names the judge %q", tc.lang, tc.want)
		}
	}
}

// readsStoredIDs are the logs that list stored rows as they are (problems,
// unscorable judgements): their judge column is the stored id.
func readsStoredIDs(sheet string) bool {
	for _, s := range []string{"Problems", "问题", "Unscorable", "无法评分"} {
		if strings.Contains(sheet, s) {
			return true
		}
	}
	return false
}
