package report

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// Input is everything a report shows.
type Input struct {
	Summary *result.Summary
	// Workbook holds the guides, the items with every answer set (generated
	// zero and full included), every judgement (raw replies and unscorable
	// ones included) and the expert ratings.
	Workbook *dataset.Workbook
	Profile  profile.Profile
	Lang     text.Lang // text.ZH or text.EN (any other setting: English)
}

// Sheet names. The fixed ones are bilingual so a reader of either language
// finds them; the data sheets carry the canonical workbook.md names so
// core/ingest reads the report back.
const (
	SheetSummary      = "摘要 Summary"
	SheetMethod       = "方法 Method"
	SheetJudges       = "评审对比 Judges"
	SheetItems        = "逐题 Items"
	SheetCorrelations = "相关性 Correlations"
	SheetHuman        = "人工一致性 Human"
	SheetMFSS         = "MFSS"
	SheetCoFE         = "CoFE"
	SheetProblems     = "异常 Problems"
	SheetGuides       = "guides"
	SheetQA           = "qa"
	SheetScores       = "scores"
	SheetRatings      = "human"
)

// maxDataRows is how many rows below its header a sheet holds (Excel's
// 1,048,576 rows less the header).
const maxDataRows = 1<<20 - 1

// ErrNoSummary is returned when Input has no summary to report.
var ErrNoSummary = errors.New("report: no summary to write")

// Write writes the report to path (an .xlsx file), replacing it only once
// the whole file is written. progress, when set, is called with rows done
// and rows in all as the large sheets stream.
func Write(ctx context.Context, path string, in Input, progress func(done, total int)) error {
	if in.Summary == nil {
		return ErrNoSummary
	}
	if in.Workbook == nil {
		in.Workbook = &dataset.Workbook{}
	}
	in.Lang = reportLang(in.Lang)
	w, err := newWriter(ctx, in, progress)
	if err != nil {
		return err
	}
	defer w.close()
	if err := w.write(); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	tmp := filepath.Join(dir, "."+base+".partial.xlsx")
	if err := w.save(tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("report: save %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("report: %w", err)
	}
	w.tick(w.total - w.done)
	return nil
}

// save writes the package straight into the file. excelize's SaveAs builds
// the whole zip in a bytes.Buffer first (80 MB for 100k items, doubled as
// it grows); its ZipWriter hook lets the zip go to the file instead, and the
// buffer it then copies out stays empty. The same hook splices the streamed
// sheets' rows into their parts.
func (w *writer) save(path string) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	w.f.ZipWriter = func(io.Writer) excelize.ZipWriter { return newSpliceZip(bw, w.bodies) }
	if _, err := w.f.WriteTo(io.Discard); err != nil {
		out.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// writer is one report being written.
type writer struct {
	ctx      context.Context
	f        *excelize.File
	in       Input
	s        *result.Summary
	wb       *dataset.Workbook
	lang     text.Lang
	st       styles
	progress func(done, total int)
	done     int
	total    int

	judges []string // judges in summary order
	dims   []string // dimensions in summary order

	charts    int                   // native charts added so far (chartN.xml numbering)
	errBars   []errBars             // error bars to splice into charts
	truncated []clipNote            // cells cut to the cell limit
	overflow  []string              // continuation sheets of scores
	bodies    map[string]*rowWriter // streamed sheets' rows by zip part

	// Where the Summary sheet put things, for the page checks and tests.
	summaryVerdictRow, summaryHeadlineRow, summaryChartRow, summaryLastRow int
	summaryFigureRow                                                       map[string]int
	summaryAdviceLeft                                                      []PageAdvice // recommendations the page had no room for
	// blocks are the first rows of the tables of each analysis sheet: a
	// manual page break goes before a table that would cross the page end.
	blocks map[string][]int
}

// clipNote records one cut cell for the Problems sheet.
type clipNote struct {
	sheet, cell string
	chars       int
}

// close releases the file and the streamed rows' temporary files.
func (w *writer) close() {
	w.f.Close()
	for _, rw := range w.bodies {
		rw.close()
	}
}

func newWriter(ctx context.Context, in Input, progress func(int, int)) (*writer, error) {
	w := &writer{ctx: ctx, f: excelize.NewFile(), in: in, s: in.Summary, wb: in.Workbook, lang: in.Lang, progress: progress}
	if w.s.Result != nil {
		for _, j := range w.s.Judges {
			w.judges = append(w.judges, j.Judge)
		}
		w.dims = w.s.Dimensions
	}
	st, err := newStyles(w.f)
	if err != nil {
		w.f.Close()
		return nil, err
	}
	w.st = st
	// Rows streamed, plus one step per small sheet and one for saving.
	w.total = 2*len(w.wb.Items) + len(w.wb.Guides) + w.wb.Scores.Len() + len(w.wb.Human) + 12
	return w, nil
}

// judgeName is a judge as people read it: the glossary's name for the
// offline judges (词汇基线评审, not "lexical"), the user's own otherwise.
// The grey data sheets keep the ids, which evaluate reads back.
func (w *writer) judgeName(name string) string { return glossary.JudgeName(name, w.lang) }

func (w *writer) na() string { return w.say(wordNA) }

// tick advances progress by n rows and checks for cancellation.
func (w *writer) tick(n int) error {
	w.done += n
	if w.progress != nil {
		w.progress(min(w.done, w.total), w.total)
	}
	if err := w.ctx.Err(); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

func (w *writer) write() error {
	f := w.f
	order := []string{SheetSummary, SheetMethod, SheetJudges}
	judgeSheets := w.judgeSheetNames()
	order = append(order, judgeSheets...)
	order = append(order, SheetItems, SheetCorrelations)
	if w.s.Result != nil && w.s.Human != nil {
		order = append(order, SheetHuman)
	}
	if w.hasSpotCheck() {
		order = append(order, SheetSpotCheck)
	}
	if w.s.MFSS != nil {
		order = append(order, SheetMFSS)
	}
	if w.s.HasCoFERetrieval() {
		order = append(order, SheetCoFE)
	}
	order = append(order, w.comparisonSheets()...)
	order = append(order, SheetProblems, SheetGuides, SheetQA, SheetScores)
	scoreSheets := 1
	if n := w.wb.Scores.Len(); n > maxDataRows {
		scoreSheets = (n + maxDataRows - 1) / maxDataRows
		for i := 2; i <= scoreSheets; i++ {
			name := fmt.Sprintf("scores (%d)", i)
			w.overflow = append(w.overflow, name)
			order = append(order, name)
		}
	}
	order = append(order, SheetRatings)
	if err := f.SetSheetName("Sheet1", order[0]); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	for _, name := range order[1:] {
		if _, err := f.NewSheet(name); err != nil {
			return fmt.Errorf("report: sheet %q: %w", name, err)
		}
	}
	for _, name := range order {
		if err := w.pageSetup(name); err != nil {
			return err
		}
	}
	steps := []func() error{
		w.summarySheet,
		w.methodSheet,
		w.judgesSheet,
		func() error { return w.perJudgeSheets(judgeSheets) },
		w.itemsSheet,
		w.correlationsSheet,
	}
	if w.s.Result != nil && w.s.Human != nil {
		steps = append(steps, w.humanSheet)
	}
	if w.hasSpotCheck() {
		steps = append(steps, w.spotCheckSheet)
	}
	if w.s.MFSS != nil {
		steps = append(steps, w.mfssSheet)
	}
	if w.s.HasCoFERetrieval() {
		steps = append(steps, w.cofeSheet)
	}
	steps = append(steps, w.comparisonSteps()...)
	steps = append(steps, w.guidesSheet, w.qaSheet, w.scoresSheet, w.ratingsSheet,
		w.problemsSheet) // last: it lists what the others cut
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
		if err := w.tick(1); err != nil {
			return err
		}
	}
	if err := w.paginate(); err != nil {
		return err
	}
	if err := w.spliceErrBars(); err != nil {
		return err
	}
	if err := w.uprightAxisTitles(); err != nil {
		return err
	}
	// No SetActiveSheet: it parses every sheet, streamed ones included,
	// into memory; the first sheet (Summary) is the active one already.
	return nil
}

func isDataSheet(name string) bool {
	switch name {
	case SheetGuides, SheetQA, SheetScores, SheetRatings:
		return true
	}
	return strings.HasPrefix(name, SheetScores+" (")
}

// reportLang is the language a report is written in: Chinese for a
// Chinese setting, English for anything else.
func reportLang(l text.Lang) text.Lang { return text.LangOf(string(l)) }

// say is t in the report's language.
func (w *writer) say(t text.Text) string { return t.In(w.lang) }
