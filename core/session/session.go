// Package session is one evaluation as both front ends run it: open a
// workbook (deciding whether its knowledge base streams into the run store),
// check it, plan and estimate, evaluate, sweep, export, and build the
// charts' inputs. The window and the CLI are thin adapters over it, so the
// same workbook and profile give the same SUMMARY.json and the same report
// from either.
package session

import (
	"context"
	"cubeworkbench/internal/version"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// Version is the tool version written into every summary and run record:
// internal/version's, which scripts/release.sh stamps from git.
var Version = version.String()

// ErrWorkbookErrors refuses to evaluate a workbook with errors the user did
// not choose to skip.
var ErrWorkbookErrors error = text.NewError(text.New("工作簿有错误：请修正，或跳过出错的行后评估", "The workbook has errors; fix them, or evaluate without those rows"), nil)

// OpenOptions say how to read a workbook.
type OpenOptions struct {
	SkipBadRows bool // evaluate without the rows that have errors (they are listed in the report)
	// StreamGuides keeps the knowledge base in the run store, not memory;
	// a workbook kb.Large calls large streams whatever this says.
	StreamGuides bool
	// AllGuides keeps every guide in memory whatever the workbook's size,
	// for commands that need the whole corpus (a sweep, a knowledge-base
	// export); it wins over StreamGuides.
	AllGuides bool
	StorePath string // the run store; "" is StorePath(path)
	// ReadHiddenSheets reads hidden and very hidden sheets, and rows hidden
	// by a filter or by hand, like visible ones; by default each is named in
	// a warning and left unread, so what nobody sees cannot decide the
	// verdict.
	ReadHiddenSheets bool
}

var startup sync.Once

// Startup is what each front end does once when it starts, before opening
// anything: it removes the temporary files a killed earlier process left
// (the backend's CleanTemp). Later calls do nothing; the error is worth a line on
// stderr or in the log, never a refusal to start.
func Startup() error {
	var err error
	startup.Do(func() { err = be().CleanTemp() })
	return err
}

// Session is one opened workbook and, once evaluated, its result. The
// fields are set by Open and read only after; the result may be read from
// any goroutine while an evaluation runs in another (the window's tables).
// A front end runs one evaluation or export at a time on a session.
type Session struct {
	Path      string
	StorePath string
	Workbook  *dataset.Workbook // as read; Evaluate works on a copy
	Report    *dataset.ReadReport
	SkipBad   bool
	Streamed  int // guides kept in the run store, not memory; 0 when in memory
	// Print fingerprints the workbook as first read (SHA-256, size,
	// modification time); every summary of the session records it.
	Print *result.FilePrint

	mu      sync.Mutex
	result  *result.Outcome
	profile profile.Profile // the profile of the last evaluation
}

// StorePath is the run store beside the workbook (cli.md: WORKBOOK.cube.db).
func StorePath(workbook string) string {
	clean := strings.TrimRight(workbook, string(os.PathSeparator))
	return strings.TrimSuffix(clean, filepath.Ext(clean)) + ".cube.db"
}

// Open reads a workbook, a CSV folder or a JSONL QA set. A knowledge base
// too large for memory (kb.Large, or o.StreamGuides) goes into the run store
// and only the guides the questions name are loaded. The problems the reader
// found are in Report; Check says whether they stop an evaluation.
func Open(ctx context.Context, path string, o OpenOptions) (*Session, error) {
	s := &Session{Path: path, StorePath: o.StorePath, SkipBad: o.SkipBadRows}
	if s.StorePath == "" {
		s.StorePath = StorePath(path)
	}
	o.StorePath = s.StorePath
	var err error
	if s.Print, err = fingerprint(path); err != nil {
		return nil, err
	}
	s.Workbook, s.Report, s.Streamed, err = be().Read(ctx, path, o)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// New makes a session of a workbook already in memory (a test's, or one a
// caller built), with its run store beside path.
func New(path string, wb *dataset.Workbook, rep *dataset.ReadReport) *Session {
	return &Session{Path: path, StorePath: StorePath(path), Workbook: wb, Report: rep}
}

// Check is nil when the workbook may be evaluated: it has no errors, or
// the rows with errors were skipped.
func (s *Session) Check() error {
	if s.Report != nil && s.Report.HasErrors() && !s.SkipBad {
		return ErrWorkbookErrors
	}
	return nil
}

// Plan estimates the endpoint calls, tokens and cost an evaluation under p
// would make at most.
func (s *Session) Plan(p profile.Profile) result.Preflight { return be().Plan(s.Workbook, p) }

// EvalOptions are what an evaluation takes besides the profile.
type EvalOptions struct {
	Offline  bool
	Progress result.Progress
	// NewCompleter replaces the LLM clients (tests); nil is the real thing.
	NewCompleter func(profile.Endpoint) (llm.Completer, error)
	// ReaskUnscorable makes new attempts for judgements whose every stored
	// attempt was unreadable (RunOptions.ReaskUnscorable).
	ReaskUnscorable bool
	// Outputs are the files and folders the caller will write when the
	// evaluation ends (report, SUMMARY.json, charts): each is checked,
	// with the run store, before the first call (CheckOutputs).
	Outputs []Output
}

// Evaluate runs the engine over a copy of the workbook with the run store
// beside it and fills everything the summary has: the engine's figures, the
// rows skipped when reading and the reader's warnings. The result is kept
// for Export and Figures.
func (s *Session) Evaluate(ctx context.Context, p profile.Profile, o EvalOptions) (*result.Outcome, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if err := CheckOutputs(File(s.StorePath)); err != nil {
		if s.StorePath == StorePath(s.Path) {
			err = storeHint(err)
		}
		return nil, err
	}
	if err := CheckOutputs(o.Outputs...); err != nil {
		return nil, err
	}
	res, err := be().Run(ctx, runCopy(s.Workbook), RunOptions{
		Profile: p, StorePath: s.StorePath, Offline: o.Offline, Progress: o.Progress, Version: Version,
		WorkbookPath: s.Path, NewCompleter: o.NewCompleter, PartialGuides: s.Streamed > 0,
		ReaskUnscorable: o.ReaskUnscorable,
	})
	if err != nil {
		return nil, err
	}
	s.complete(res.Summary, text.LangOf(p.Language))
	explainSummary(res.Summary, res.Workbook)
	s.mu.Lock()
	s.result, s.profile = res, p
	s.mu.Unlock()
	s.spotCheckAfter(ctx, res.Summary)
	return res, nil
}

// storeHint adds to an unwritable run store (a workbook in a read-only
// folder: a shared drive, a CD, a colleague's folder) where to put it.
func storeHint(err error) error {
	why := text.Of(err)
	return text.NewError(text.New(
		why.ZH+"\n运行记录库须与工作簿放在同一文件夹，而该文件夹不可写：请把工作簿复制到可写的文件夹，或用 --store 指定运行记录库的位置（如 --store D:\\评估\\run.cube.db）。",
		why.EN+"\nThe run store goes beside the workbook, and that folder cannot be written: copy the workbook to a folder you can write to, or name the run store's place with --store (e.g. --store ~/cube/run.cube.db)"), err)
}

// Reask evaluates again under p, making new attempts (new seeds) for the
// judgements the last evaluation left unscorable because no attempt's reply
// could be read; every other judgement comes from the run store at no cost.
// The window's "re-ask unscorable" button calls it.
func (s *Session) Reask(ctx context.Context, p profile.Profile, o EvalOptions) (*result.Outcome, error) {
	o.ReaskUnscorable = true
	return s.Evaluate(ctx, p, o)
}

// Unscorable is how many judgements the last evaluation left unscorable
// (0 before one finished): the window offers Reask when it is not 0.
func (s *Session) Unscorable() int {
	if r := s.Result(); r != nil {
		return r.Summary.Run.Unscorable
	}
	return 0
}

// complete adds to a summary what the session knows and the engine does
// not: what happened when the workbook was read.
func (s *Session) complete(sum *result.Summary, lang text.Lang) {
	sum.Run.WorkbookFile = s.Print
	if s.Report == nil {
		return
	}
	for _, p := range s.Report.Skipped {
		sum.Skipped = append(sum.Skipped, p.Message(lang))
	}
	for _, p := range s.Report.Problems {
		if p.Severity == dataset.SeverityWarning {
			sum.Warnings = append(sum.Warnings, result.Warning{Source: "ingest", Code: p.Code, Where: where(p),
				Text: text.New(p.Message("zh"), p.Message("en"))})
		}
	}
}

// where names a problem's place: file, sheet, row, column.
func where(p dataset.Problem) string {
	var parts []string
	if p.File != "" {
		parts = append(parts, filepath.Base(p.File))
	}
	if p.Sheet != "" {
		parts = append(parts, p.Sheet)
	}
	if p.Row > 0 {
		parts = append(parts, fmt.Sprintf("row %d", p.Row))
	}
	if p.Column != "" {
		parts = append(parts, p.Column)
	}
	return strings.Join(parts, " · ")
}

// Result is the last evaluation's outcome; nil before one finished.
func (s *Session) Result() *result.Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.result
}

// last is the last result and the profile that produced it.
func (s *Session) last() (*result.Outcome, profile.Profile) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.result, s.profile
}

// Shown is the workbook as the last evaluation left it (answers generated
// and collected, judgements made), or as read before one finished.
func (s *Session) Shown() *dataset.Workbook {
	if r := s.Result(); r != nil {
		return r.Workbook
	}
	return s.Workbook
}

// Clone copies what the engine writes to: the items and the scores.
// Guides and human ratings are read only and shared, and so are the items'
// answer maps: dataset.Item.SetAnswer, the one way answers are added, puts
// a new map in place of the old one rather than writing into it.
func Clone(wb *dataset.Workbook) *dataset.Workbook {
	c := *wb
	c.Items = slices.Clone(wb.Items)
	c.Scores = wb.Scores.Clone()
	c.Systems = slices.Clone(wb.Systems)
	return &c
}

// runCopy is what an evaluation runs on: a Clone that shares the items'
// array too (0.2 KB a question, 20 MB at 100,000), since the engine copies
// it before it first writes into an item (engine.runner.writeItems).
func runCopy(wb *dataset.Workbook) *dataset.Workbook {
	c := *wb
	c.Scores = wb.Scores.Clone()
	c.Systems = slices.Clone(wb.Systems)
	return &c
}

// Read reads a workbook, a CSV folder or a JSONL QA set into memory with
// every guide and returns it with the problems found, without a run store
// (cubectl validate): nothing is written beside it.
func Read(ctx context.Context, path string, readHiddenSheets bool) (*dataset.Workbook, *dataset.ReadReport, error) {
	wb, rep, _, err := be().Read(ctx, path, OpenOptions{AllGuides: true, ReadHiddenSheets: readHiddenSheets})
	return wb, rep, err
}

// LastProfile is the profile of the last evaluation of this workbook that
// finished, as its run store recorded it; ok is false when the store does
// not exist (it is never created here) or holds no finished run. The
// window shows that evaluation again when a workbook is reopened.
func (s *Session) LastProfile(ctx context.Context) (p profile.Profile, ok bool, err error) {
	if _, err := os.Stat(s.StorePath); err != nil {
		return p, false, nil
	}
	toml, ok, err := be().LastProfile(ctx, s.StorePath)
	if err != nil || !ok {
		return p, false, err
	}
	p, err = profile.Parse([]byte(toml))
	return p, err == nil, err
}
