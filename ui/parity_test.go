package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/profile"
	"cubeworkbench/internal/cli"
	"cubeworkbench/internal/testbook"
)

// skippedBook is a small workbook whose qa sheet has two rows with errors
// (a repeated id, a question without text): evaluated without them, they
// are listed as skipped rows.
func skippedBook(t testing.TB, dir string) string {
	b := testbook.New()
	guides := b.Sheet("guides", "doc_id", "title", "text")
	qa := b.Sheet("qa", "id", "question", "doc_id", "retrieved", "answer", "answer_zero", "answer_full")
	for i := 1; i <= 8; i++ {
		gold := fmt.Sprintf("G%d", i)
		guides.Row(gold, fmt.Sprintf("事项%d", i), fmt.Sprintf("事项%d：持身份证和申请表办理，%d个工作日办结。", i, i+2))
		retrieved := gold + "|G" + fmt.Sprint(i%8+1)
		if i%3 == 0 {
			retrieved = fmt.Sprintf("G%d", i%8+1)
		}
		qa.Row(fmt.Sprintf("q%d", i), fmt.Sprintf("事项%d怎么办理？", i), gold, retrieved,
			fmt.Sprintf("持身份证办理，%d个工作日。", i+2), "请咨询有关部门。", fmt.Sprintf("持身份证和申请表办理，%d个工作日办结。", i+2))
	}
	qa.Row("q2", "重复的编号？", "G2", "G2", "重复。", "重复。", "重复。")
	qa.Row("q10", "", "G1", "G1", "没有问题的行。", "无。", "无。")
	return b.WriteXLSX(t, filepath.Join(dir, "skipped.xlsx"))
}

// The window and the CLI are adapters over one session: the same workbook
// and profile exported from the window's code path (the Evaluate and Export
// buttons) and by `cubectl evaluate` give the same SUMMARY.json, run times
// aside, and reports holding the same cells — for the bundled sample and
// for a workbook evaluated without its bad rows (which the window's report
// once listed as "None").
func TestWindowAndCLIExportTheSame(t *testing.T) {
	cases := []struct {
		name    string
		book    func(testing.TB, string) string
		skipBad bool
	}{
		{"sample", testbook.Sample, false},
		{"skipped rows", skippedBook, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := profile.Default()
			p.Judges = []profile.Endpoint{{Name: "lexical", Lexical: true}}
			w, loop := newTestWindow(t, "en", &p)
			dir := t.TempDir()
			path := c.book(t, dir)
			w.eval.offline.SetChecked(true)
			w.open.skipBad.SetChecked(c.skipBad)
			w.openAsync(path)
			loop.runUntil(t, time.Minute, "the workbook", func() bool { return w.sess != nil || w.loadErr != nil })
			if w.loadErr != nil {
				t.Fatal(w.loadErr)
			}
			if skipped := len(w.report().Skipped); (skipped > 0) != c.skipBad {
				t.Fatalf("%d rows skipped", skipped)
			}
			test.Tap(w.eval.start)
			loop.runUntil(t, 5*time.Minute, "the evaluation", func() bool { return !w.eval.running })
			if w.result() == nil {
				t.Fatalf("no result: %s", w.eval.status.Text)
			}
			winDir := filepath.Join(dir, "window")
			w.export.dir.SetText(winDir)
			test.Tap(w.export.all)
			loop.runUntil(t, 5*time.Minute, "the export", func() bool { return !w.export.busy })
			if _, err := os.Stat(filepath.Join(winDir, "SUMMARY.json")); err != nil {
				t.Fatalf("export: %s (%v)", w.export.status.Text, err)
			}

			// The CLI on the same file with the window's profile, from a fresh
			// run store (so that both runs make the same calls and cache hits).
			if err := os.Remove(w.sess.StorePath); err != nil {
				t.Fatal(err)
			}
			text, err := w.prof.Encode()
			if err != nil {
				t.Fatal(err)
			}
			prof := filepath.Join(dir, "profile.toml")
			if err := os.WriteFile(prof, text, 0o644); err != nil {
				t.Fatal(err)
			}
			cliDir := t.TempDir()
			args := []string{"evaluate", path, "--profile", prof, "--offline", "--yes",
				"--json", filepath.Join(cliDir, "SUMMARY.json"), "--out", filepath.Join(cliDir, "report.xlsx")}
			if c.skipBad {
				args = append(args, "--skip-bad-rows")
			}
			var out, errOut strings.Builder
			if code := cli.Main(args, &out, &errOut); code != cli.ExitOK {
				t.Fatalf("cubectl evaluate: exit %d\n%s", code, errOut.String())
			}

			win, cl := summaryWithoutTimes(t, filepath.Join(winDir, "SUMMARY.json")), summaryWithoutTimes(t, filepath.Join(cliDir, "SUMMARY.json"))
			if win != cl {
				t.Fatalf("SUMMARY.json differs:\nwindow %s\ncli    %s", win, cl)
			}
			if c.skipBad && !strings.Contains(win, `"skipped_rows"`) {
				t.Fatalf("SUMMARY.json lists no skipped rows: %s", win)
			}
			wc, cc := reportCells(t, filepath.Join(winDir, "report.xlsx")), reportCells(t, filepath.Join(cliDir, "report.xlsx"))
			if !slices.Equal(wc, cc) {
				for i := range min(len(wc), len(cc)) {
					if wc[i] != cc[i] {
						t.Fatalf("reports differ (%d vs %d cells); first at\nwindow %s\ncli    %s", len(wc), len(cc), wc[i], cc[i])
					}
				}
				t.Fatalf("reports differ: %d vs %d cells", len(wc), len(cc))
			}
			// Every skipped row is named in the report (its Problems sheet).
			var sum struct {
				Skipped []string `json:"skipped_rows"`
			}
			if err := json.Unmarshal([]byte(win), &sum); err != nil {
				t.Fatal(err)
			}
			for _, row := range sum.Skipped {
				if !slices.ContainsFunc(wc, func(cell string) bool { return strings.HasSuffix(cell, "="+row) }) {
					t.Errorf("the report does not list the skipped row %q", row)
				}
			}
		})
	}
}

// summaryWithoutTimes is SUMMARY.json with the run's start and finish
// times blanked, re-encoded with sorted keys.
func summaryWithoutTimes(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	run := v["run"].(map[string]any)
	delete(run, "started")
	delete(run, "finished")
	out, _ := json.Marshal(v)
	return string(out)
}

var clockTime = regexp.MustCompile(`\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?( [A-Z]+)?`)

// reportCells lists every non-empty cell of every sheet as
// "sheet!A1=value", times of day blanked.
func reportCells(t *testing.T, path string) []string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			for c, v := range row {
				if v == "" {
					continue
				}
				cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
				out = append(out, sheet+"!"+cell+"="+clockTime.ReplaceAllString(v, "<time>"))
			}
		}
	}
	return out
}
