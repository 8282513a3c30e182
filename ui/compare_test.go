package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/text"
	"cubeworkbench/internal/cli"
	"cubeworkbench/internal/testbook"
)

// compareTabOf finds the Compare tab among the window's tabs.
func compareTabOf(t *testing.T, w *Window) *compareTab {
	t.Helper()
	for _, it := range w.tabs.Items {
		if v, ok := pageContent(it.Content).(*compareView); ok {
			return v.t
		}
	}
	t.Fatal("the window has no Compare tab")
	return nil
}

// The window's Compare view on the sample's two systems (Open sample,
// Evaluate offline, Compare rag with 系统B) shows the numbers `cubectl
// compare --json` writes: every cell of the delta table, the verdict, the
// per-question counts, the regressions worst first, and both answers of
// the worst one side by side.
func TestCompareViewMatchesCLI(t *testing.T) {
	for _, lang := range []text.Lang{"en", "zh"} {
		t.Run(string(lang), func(t *testing.T) {
			p := profile.Default()
			p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}}
			w, loop := newTestWindow(t, string(lang), &p)
			w.eval.offline.SetChecked(true)
			w.openAsync(testbook.Sample(t, t.TempDir()))
			loop.runUntil(t, time.Minute, "the workbook", func() bool { return w.sess != nil || w.loadErr != nil })
			if w.loadErr != nil {
				t.Fatal(w.loadErr)
			}
			ct := compareTabOf(t, w)
			test.Tap(ct.run)
			if ct.running || !strings.Contains(ct.status.Text, tr("compare.evaluate_first")) {
				t.Fatalf("compare before an evaluation: running %v, status %q", ct.running, ct.status.Text)
			}
			test.Tap(w.eval.start)
			loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running })
			if w.result() == nil {
				t.Fatalf("no result: %s", w.eval.status.Text)
			}
			w.tabs.Select(ct.item)
			ct.sync()
			if ct.sets.Selected != "系统B" {
				t.Fatalf("other set %q of %v", ct.sets.Selected, ct.sets.Options)
			}
			test.Tap(ct.run)
			loop.runUntil(t, 5*time.Minute, "the comparison", func() bool { return !ct.running })
			if ct.result == nil {
				t.Fatalf("no comparison: %s", ct.status.Text)
			}

			dir := t.TempDir()
			js := filepath.Join(dir, "compare.json")
			var out, errOut strings.Builder
			if code := cli.Main([]string{"compare", testbook.Sample(t, dir), "--sets", "rag,系统B", "--offline", "--lang", string(lang), "--json", js}, &out, &errOut); code != cli.ExitOK {
				t.Fatalf("cubectl compare: exit %d\n%s", code, errOut.String())
			}
			data, err := os.ReadFile(js)
			if err != nil {
				t.Fatal(err)
			}
			var r compare.Result
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatal(err)
			}
			rows := compare.Rows(&r, lang)
			if len(rows) != len(ct.cells) {
				t.Errorf("%d rows in the window, %d from the CLI", len(ct.cells), len(rows))
			}
			for _, row := range rows {
				d := row.Delta
				want := []string{compare.Fmt1(d.A), compare.Fmt1(d.B), compare.FmtSigned(d.Diff), compare.FmtCI(d.CI95), compare.Fmt1(d.Detectable), compare.VerdictText(d.Verdict).In(lang)}
				cells := ct.cells[row.Key]
				if len(cells) != len(want) {
					t.Errorf("%s: %d cells", row.Key, len(cells))
					continue
				}
				for i := range want {
					if cells[i].Text != want[i] {
						t.Errorf("%s column %d: window %q, cubectl %q", row.Key, i, cells[i].Text, want[i])
					}
				}
				// The CLI's table prints the same cells.
				if !strings.Contains(out.String(), want[3]) {
					t.Errorf("cubectl's table lacks %s %s", row.Key, want[3])
				}
			}
			if ct.verdict.Text != compare.VerdictText(r.Verdict).In(lang) || ct.headline.Text != r.Headline.In(lang) {
				t.Errorf("verdict %q headline %q; cubectl %s %q", ct.verdict.Text, ct.headline.Text, r.Verdict, r.Headline.In(lang))
			}
			for _, n := range []int{r.Better, r.Worse, r.Same} {
				if !strings.Contains(ct.counts.Text, itoa(n)) {
					t.Errorf("counts %q lack %d", ct.counts.Text, n)
				}
			}
			if len(ct.result.Regressions) != len(r.Regressions) || len(r.Regressions) == 0 || ct.result.Regressions[0].ID != r.Regressions[0].ID {
				t.Fatalf("regressions: window %d, cubectl %d", len(ct.result.Regressions), len(r.Regressions))
			}
			if len(r.Warnings) > 0 && !strings.Contains(ct.warnings.Text, r.Warnings[0].In(lang)) {
				t.Errorf("warnings %q lack %q", ct.warnings.Text, r.Warnings[0].In(lang))
			}
			w.tabs.Select(ct.item)
			loop.runUntil(t, time.Minute, "the forest plot", func() bool { return ct.forest.img.Image != nil })
			ct.regList.Select(0)
			if ct.shownA == nil || ct.shownA.Text != r.Regressions[0].AnswerA || ct.shownB.Text != r.Regressions[0].AnswerB {
				t.Errorf("the worst regression's answers are not shown side by side")
			}
			if w.sess.Comparison() == nil {
				t.Error("the comparison is not in the session's summary (the next export)")
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A comparison the session refuses (a SUMMARY.json given as the other
// side) is said in the window's language only, in the words cubectl prints
// (session.Explain): Chinese with no English sentence in the zh window,
// English with no Chinese in the en one.
func TestCompareRefusalInWindowLanguage(t *testing.T) {
	for _, lang := range []text.Lang{"zh", "en"} {
		t.Run(string(lang), func(t *testing.T) {
			p := profile.Default()
			p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}}
			w, loop := newTestWindow(t, string(lang), &p)
			w.eval.offline.SetChecked(true)
			dir := t.TempDir()
			book := testbook.Sample(t, dir)
			w.openAsync(book)
			loop.runUntil(t, time.Minute, "the workbook", func() bool { return w.sess != nil || w.loadErr != nil })
			if w.loadErr != nil {
				t.Fatal(w.loadErr)
			}
			test.Tap(w.eval.start)
			loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running })
			if w.result() == nil {
				t.Fatalf("no result: %s", w.eval.status.Text)
			}
			ct := compareTabOf(t, w)
			w.tabs.Select(ct.item)
			ct.mode.SetSelected(tr("compare.mode_workbook"))
			summary := filepath.Join(dir, "SUMMARY.json")
			ct.setWorkbook(summary)
			test.Tap(ct.run)
			loop.runUntil(t, time.Minute, "the refusal", func() bool { return !ct.running })
			got := ct.status.Text
			var out, errOut strings.Builder
			cli.Main([]string{"compare", book, summary, "--offline", "--lang", string(lang)}, &out, &errOut)
			cliLines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
			if last := cliLines[len(cliLines)-1]; !strings.Contains(got, last) {
				t.Errorf("window %q, cubectl %q", got, last)
			}
			if lang == "zh" {
				if bad := glossary.UnexpectedASCII(got, summary); len(bad) > 0 || !strings.Contains(got, "不含逐题评分") {
					t.Errorf("the Chinese window says %q (English words %v)", got, bad)
				}
			} else if regexp.MustCompile(`\p{Han}`).MatchString(got) || !strings.Contains(got, "no per-question judgements") {
				t.Errorf("the English window says %q", got)
			}
		})
	}
}
