package report

import (
	"archive/zip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/profile"
	"cubeworkbench/core/text"
)

// writeFixture writes the fixture report in lang and opens it.
func writeFixture(t *testing.T, lang text.Lang, edit func(*Input)) (string, *excelize.File, Input) {
	t.Helper()
	in := fixture(t)
	in.Lang = lang
	if edit != nil {
		edit(&in)
	}
	path := filepath.Join(t.TempDir(), "report.xlsx")
	var last, total int
	if err := Write(context.Background(), path, in, func(d, n int) { last, total = d, n }); err != nil {
		t.Fatal(err)
	}
	if last != total || total == 0 {
		t.Errorf("progress ended at %d of %d", last, total)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return path, f, in
}

func num(t *testing.T, f *excelize.File, sheet, cell string) float64 {
	t.Helper()
	v, err := f.GetCellValue(sheet, cell, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatalf("%s!%s = %q, not a number", sheet, cell, v)
	}
	return x
}

func near(a, b float64) bool {
	d := a - b
	return d < 1e-9*max(1, abs(b)) && -d < 1e-9*max(1, abs(b))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestSheetsAndHeadline(t *testing.T) {
	for _, lang := range []text.Lang{"zh", "en"} {
		t.Run(string(lang), func(t *testing.T) {
			_, f, in := writeFixture(t, lang, nil)
			s := in.Summary
			got := f.GetSheetList()
			want := []string{SheetSummary, SheetMethod, SheetJudges}
			for _, j := range s.Judges { // in the summary's order
				want = append(want, map[text.Lang]string{"zh": "评审 ", "en": "Judge "}[lang]+j.Judge)
			}
			want = append(want, SheetItems, SheetCorrelations, SheetHuman, SheetMFSS, SheetCoFE, SheetProblems, SheetGuides, SheetQA, SheetScores, SheetRatings)
			if !slices.Equal(got, want) {
				t.Fatalf("sheets\n got %q\nwant %q", got, want)
			}
			for _, name := range got {
				if n := len(utf16.Encode([]rune(name))); n > 31 {
					t.Errorf("sheet %q has %d characters", name, n)
				}
			}
			// The headline equals SUMMARY.json.
			agg := s.Aggregate
			if agg.Cube.Mean == nil || agg.Cube.SD == nil || agg.CubeCI95 == nil || s.RecallAtK == nil {
				t.Fatal("fixture has undefined headline values")
			}
			// The figures table: found by the rows the writer recorded.
			rowOf := func(label string) (int, int) {
				t.Helper()
				cells, err := f.SearchSheet(SheetSummary, "^"+regexp.QuoteMeta(label)+"$", true)
				if err != nil || len(cells) == 0 {
					t.Fatalf("%q not on Summary (%v)", label, err)
				}
				c, r, _ := excelize.CellNameToCoordinates(cells[0])
				return c, r
			}
			tr := func(en, zh string) string {
				if lang == "zh" {
					return zh
				}
				return en
			}
			interval := tr("95 % interval (200 resamples)", "95 % 置信区间（重抽样 200 次）")
			for _, c := range []struct {
				label string
				col   int
				want  float64
			}{
				{tr("CuBE score", "CuBE 得分"), colFigValue, *agg.Cube.Mean},
				{tr("Spread (SD)", "评审间标准差"), colFigValue, *agg.Cube.SD},
				{interval, colFigValue, agg.CubeCI95[0]},
				{interval, colFigHi, agg.CubeCI95[1]},
				{tr("Guide recall@", "指南召回率@") + strconv.Itoa(s.TopN), colFigValue, *s.RecallAtK},
				{tr("Effectiveness", "回答有效性"), colFigValue, *agg.Normalized["weighted"].Mean},
				{tr("Questions", "问题数"), colFigValue, float64(s.Items)},
			} {
				col, row := rowOf(c.label) // a header: the value is under it
				cell, _ := excelize.CoordinatesToCellName(col+c.col, row+1)
				if got := num(t, f, SheetSummary, cell); !near(got, c.want) {
					t.Errorf("%s (%s) = %v, want %v", cell, c.label, got, c.want)
				}
			}
			wantVerdict := s.Verdict.Text.EN
			if lang == "zh" {
				wantVerdict = s.Verdict.Text.ZH
			}
			findCell(t, f, SheetSummary, tr("Verdict: ", "结论：")+wantVerdict)
			// The Judges sheet's CuBE column holds each C_J.
			rows, _ := f.GetRows(SheetJudges, excelize.Options{RawCellValue: true})
			cubeCol := slices.Index(rows[2], tr("CuBE score", "CuBE 得分"))
			if cubeCol < 0 {
				t.Fatalf("no CuBE column in %q", rows[2])
			}
			for k, j := range s.Judges {
				if j.Cube == nil {
					continue
				}
				v, err := strconv.ParseFloat(rows[3+k][cubeCol], 64)
				if err != nil || !near(v, *j.Cube) {
					t.Errorf("judge %s CuBE cell %q, want %v", j.Judge, rows[3+k][cubeCol], *j.Cube)
				}
			}
		})
	}
}

// zipParts reads every part of an xlsx file.
func zipParts(t *testing.T, path string) map[string]string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = string(b)
	}
	return out
}

func TestChartsExist(t *testing.T) {
	path, f, _ := writeFixture(t, "zh", nil)
	parts := zipParts(t, path)
	var charts []string
	for name := range parts {
		if strings.HasPrefix(name, "xl/charts/chart") {
			charts = append(charts, name)
		}
	}
	// CuBE per judge on Judges, one per judge, the MFSS radar, the CoFE
	// bars; the Summary's two are pictures drawn by core/chart.
	if want := 1 + len(fixtureJudges) + 2; len(charts) != want {
		t.Errorf("%d native charts, want %d: %v", len(charts), want, charts)
	}
	c1 := parts["xl/charts/chart1.xml"]
	if !strings.Contains(c1, "<errBars>") || !strings.Contains(c1, "<errValType val=\"cust\">") {
		t.Errorf("chart1 (CuBE per judge) has no custom error bars")
	}
	if i, j := strings.Index(c1, "<errBars>"), strings.Index(c1, "<cat>"); i < 0 || j < i {
		t.Errorf("error bars must precede the categories in the series")
	}
	// Every native chart: dark 9 pt tick labels on each axis (excelize's
	// default is light grey), and a value-axis title rotated in its text
	// properties, so LibreOffice does not lay it flat and wrap it.
	for _, c := range charts {
		if n := strings.Count(parts[c], `sz="900"`); n < 2 || !strings.Contains(parts[c], `val="262626"`) {
			t.Errorf("%s: %d 9 pt texts, dark ticks %v", c, n, strings.Contains(parts[c], `val="262626"`))
		}
		if m := regexp.MustCompile(`<valAx>.*?<title>(.*?)</title>`).FindStringSubmatch(parts[c]); m != nil {
			if tx := regexp.MustCompile(`<txPr><a:bodyPr[^>]*>`).FindString(m[1]); !strings.Contains(tx, `rot="-5400000"`) {
				t.Errorf("%s: the value-axis title's text properties %q leave it flat", c, tx)
			}
		}
	}
	radar := false
	for _, c := range charts {
		radar = radar || strings.Contains(parts[c], "<radarChart>")
	}
	if !radar {
		t.Error("no native radar chart")
	}
	if !strings.Contains(strings.Join(slices.Collect(func(yield func(string) bool) {
		for _, c := range charts {
			if !yield(parts[c]) {
				return
			}
		}
	}), ""), "各评审模型的 CuBE 得分") {
		t.Error("chart titles are not in Chinese")
	}
	for _, sheet := range []string{SheetSummary, SheetJudges, SheetCorrelations} {
		cells, err := f.GetPictureCells(sheet)
		if err != nil {
			t.Fatal(err)
		}
		if len(cells) == 0 {
			t.Errorf("no picture on %s", sheet)
		}
		for _, c := range cells {
			pics, err := f.GetPictures(sheet, c)
			if err != nil || len(pics) == 0 || !strings.HasPrefix(string(pics[0].File), "\x89PNG") {
				t.Errorf("%s!%s: no PNG (%v)", sheet, c, err)
			}
		}
	}
}

// findCell returns the first cell of a sheet whose value is v.
func findCell(t *testing.T, f *excelize.File, sheet, v string) string {
	t.Helper()
	cells, err := f.SearchSheet(sheet, regexp.QuoteMeta(v), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) == 0 {
		t.Fatalf("%q not found on %s", v, sheet)
	}
	return cells[0]
}

func TestFormulaLikeTextStaysText(t *testing.T) {
	path, f, _ := writeFixture(t, "zh", nil)
	xml := zipParts(t, path)["xl/styles.xml"]
	xml = xml[strings.Index(xml, "<cellXfs"):]
	styles := append([]string{""}, regexp.MustCompile(`<xf [^>]*>`).FindAllString(xml, -1)...) // styles[id+1]
	for _, sheet := range []string{SheetItems, SheetQA} {
		for _, v := range []string{formulaAnswer, plusAnswer, atAnswer} {
			cell := findCell(t, f, sheet, v)
			typ, err := f.GetCellType(sheet, cell)
			if err != nil {
				t.Fatal(err)
			}
			if typ != excelize.CellTypeInlineString {
				t.Errorf("%s!%s type %v, want an inline string", sheet, cell, typ)
			}
			if fx, _ := f.GetCellFormula(sheet, cell); fx != "" {
				t.Errorf("%s!%s has a formula %q", sheet, cell, fx)
			}
			got, _ := f.GetCellValue(sheet, cell)
			if got != v {
				t.Errorf("%s!%s = %q, want %q", sheet, cell, got, v)
			}
			id, _ := f.GetCellStyle(sheet, cell)
			if id+1 >= len(styles) || !regexp.MustCompile(`quotePrefix="(1|true)"`).MatchString(styles[id+1]) {
				t.Errorf("%s!%s style %d lacks the quote prefix", sheet, cell, id)
			}
		}
	}
	// An ordinary answer does not get the prefix.
	cell := findCell(t, f, SheetQA, "您好，建议您咨询当地政务服务中心，具体材料以窗口要求为准。")
	if id, _ := f.GetCellStyle(SheetQA, cell); id+1 < len(styles) && strings.Contains(styles[id+1], "quotePrefix") {
		t.Errorf("plain text got the quote prefix")
	}
	// A formula-like unscorable reply on the Problems sheet, too.
	cell = findCell(t, f, SheetProblems, "-- 评分失败 --")
	if typ, _ := f.GetCellType(SheetProblems, cell); typ != excelize.CellTypeInlineString {
		t.Errorf("Problems!%s type %v", cell, typ)
	}
}

func TestLongTextCut(t *testing.T) {
	_, f, _ := writeFixture(t, "zh", nil)
	for _, sheet := range []string{SheetItems, SheetQA} {
		cell := findCell(t, f, sheet, longItem)
		col, row, _ := excelize.CellNameToCoordinates(cell)
		_ = col
		header, _ := f.GetRows(sheet)
		ansCol := slices.Index(header[0], map[string]string{SheetItems: "被测系统回答", SheetQA: "answer"}[sheet])
		if ansCol < 0 {
			t.Fatalf("no answer column on %s", sheet)
		}
		name, _ := excelize.CoordinatesToCellName(ansCol+1, row)
		v, _ := f.GetCellValue(sheet, name)
		if n := len(utf16.Encode([]rune(v))); n > cellLimit || n < cellLimit-200 {
			t.Errorf("%s!%s holds %d characters", sheet, name, n)
		}
		if !strings.HasSuffix(v, "…[截断 truncated: 40000 chars; 全文见运行记录 full text in the run store]") || !strings.HasPrefix(v, "办办办") {
			t.Errorf("%s!%s does not end with the marker: …%q", sheet, name, v[len(v)-120:])
		}
	}
	findCell(t, f, SheetProblems, "40000")
}

func TestClip(t *testing.T) {
	emoji := "😀" // two UTF-16 units
	cases := []struct {
		name  string
		in    string
		cut   bool
		units int // of the result, when cut: at most cellLimit
	}{
		{"empty", "", false, 0},
		{"short", "办理", false, 2},
		{"at the limit", strings.Repeat("a", cellLimit), false, cellLimit},
		{"Han at the limit", strings.Repeat("办", cellLimit), false, cellLimit},
		{"one over", strings.Repeat("a", cellLimit+1), true, -1},
		{"astral over", strings.Repeat(emoji, cellLimit/2+1), true, -1},
		{"astral within", strings.Repeat(emoji, cellLimit/2), false, cellLimit - 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := clip(c.in)
			n := len(utf16.Encode([]rune(got)))
			if ok == c.cut {
				t.Fatalf("ok = %v", ok)
			}
			if !c.cut {
				if got != c.in || n != c.units {
					t.Errorf("changed: %d units", n)
				}
				return
			}
			if n > cellLimit {
				t.Errorf("%d units over the limit", n)
			}
			if !strings.Contains(got, "truncated: "+strconv.Itoa(len([]rune(c.in)))+" chars") {
				t.Errorf("marker missing: %q", got[len(got)-100:])
			}
			if !strings.HasPrefix(c.in, strings.SplitN(got, "…[截断", 2)[0]) {
				t.Error("the kept part is not a prefix")
			}
		})
	}
}

func TestNoSecrets(t *testing.T) {
	const key = "sk-test-7f3a9c1e5b2d4f60"
	t.Setenv("CUBE_REPORT_TEST_KEY", key)
	path, _, _ := writeFixture(t, "en", func(in *Input) {
		in.Profile.Judges[0].APIKeyEnv = "CUBE_REPORT_TEST_KEY"
		in.Profile.Judges[0].BaseURL = "https://officer:" + key + "@api.example.cn/v1?api_key=" + key
		in.Profile.Generator = &profile.Endpoint{Name: "gen", BaseURL: "https://api.example.cn/v1/" + key, Model: "qwen", APIKeyEnv: "CUBE_REPORT_TEST_KEY"}
		in.Summary.Run.Judges = nil // fall back to the profile's endpoints
	})
	for name, body := range zipParts(t, path) {
		for _, secret := range []string{key, "CUBE_REPORT_TEST_KEY", "DASHSCOPE_API_KEY", "officer"} {
			if strings.Contains(body, secret) {
				t.Errorf("%s contains %q", name, secret)
			}
		}
	}
}

func TestHost(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://api.example.cn/v1", "api.example.cn"},
		{"http://user:sk-x@10.0.0.8:8000/v1?key=sk-y", "10.0.0.8:8000"},
		{"localhost:11434", "localhost:11434"},
		{"dashscope.example.cn", "dashscope.example.cn"},
		{"", ""},
	}
	for _, c := range cases {
		if got := host(c.in, nil); got != c.want {
			t.Errorf("host(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := host("http://a:1/v1", []string{"http://b:1/v1", "http://a:1/x"}); got != "a:1, b:1" {
		t.Errorf("replicas: %q", got)
	}
}

func TestSheetNames(t *testing.T) {
	w := &writer{lang: "zh", judges: []string{"a/b:c", strings.Repeat("长", 40), "Judges", "A/B:C", "x'y"}}
	got := w.judgeSheetNames()
	want := []string{"评审 a_b_c", "评审 " + strings.Repeat("长", 28), "评审 Judges", "评审 A_B_C (2)", "评审 x_y"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestCancelledWriteLeavesNoFile(t *testing.T) {
	in := fixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := filepath.Join(t.TempDir(), "report.xlsx")
	err := Write(ctx, path, in, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a file was left at %s", path)
	}
}

func TestNoSummary(t *testing.T) {
	if err := Write(context.Background(), filepath.Join(t.TempDir(), "r.xlsx"), Input{}, nil); !errors.Is(err, ErrNoSummary) {
		t.Errorf("err = %v", err)
	}
}
