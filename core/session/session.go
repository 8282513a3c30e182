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
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/kb"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/store"
)

// Version is the tool version written into every summary and run record:
// internal/version's, which scripts/release.sh stamps from git.
var Version = version.String()

// ErrWorkbookErrors refuses to evaluate a workbook with errors the user did
// not choose to skip.
var ErrWorkbookErrors = errors.New("session: the workbook has errors; fix them, or evaluate without those rows / 工作簿有错误：请修正，或跳过出错的行后评估")

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
	// ReadHiddenSheets reads hidden and very hidden sheets like visible
	// ones; by default each is named in a warning and left unread, so a
	// sheet nobody sees cannot decide the verdict.
	ReadHiddenSheets bool
}

var startup sync.Once

// Startup is what each front end does once when it starts, before opening
// anything: it removes the temporary files a killed earlier process left
// (ingest.CleanTemp). Later calls do nothing; the error is worth a line on
// stderr or in the log, never a refusal to start.
func Startup() error {
	var err error
	startup.Do(func() { err = ingest.CleanTemp() })
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
	Report    *ingest.Report
	SkipBad   bool
	Streamed  int // guides kept in the run store, not memory; 0 when in memory

	mu      sync.Mutex
	result  *engine.Result
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
	opt := ingest.Options{SkipBadRows: o.SkipBadRows, ReadHiddenSheets: o.ReadHiddenSheets}
	var err error
	if o.AllGuides || !o.StreamGuides && !kb.Large(path) {
		s.Workbook, s.Report, err = ingest.Open(ctx, path, opt)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	st, err := store.Open(s.StorePath)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	s.Workbook, s.Report, s.Streamed, err = kb.Open(ctx, path, st, opt)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// New makes a session of a workbook already in memory (a test's, or one a
// caller built), with its run store beside path.
func New(path string, wb *dataset.Workbook, rep *ingest.Report) *Session {
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
func (s *Session) Plan(p profile.Profile) engine.Preflight { return engine.Plan(s.Workbook, p) }

// EvalOptions are what an evaluation takes besides the profile.
type EvalOptions struct {
	Offline  bool
	Progress engine.Progress
	// NewCompleter replaces the LLM clients (tests); nil is the real thing.
	NewCompleter func(profile.Endpoint) (llm.Completer, error)
	// ReaskUnscorable makes new attempts for judgements whose every stored
	// attempt was unreadable (engine.Options.ReaskUnscorable).
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
func (s *Session) Evaluate(ctx context.Context, p profile.Profile, o EvalOptions) (*engine.Result, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if err := CheckOutputs(append([]Output{File(s.StorePath)}, o.Outputs...)...); err != nil {
		return nil, err
	}
	st, err := store.Open(s.StorePath)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	res, err := engine.Run(ctx, Clone(s.Workbook), engine.Options{
		Profile: p, Store: st, Offline: o.Offline, Progress: o.Progress, Version: Version,
		WorkbookPath: s.Path, NewCompleter: o.NewCompleter, PartialGuides: s.Streamed > 0,
		ReaskUnscorable: o.ReaskUnscorable,
	})
	if err != nil {
		return nil, err
	}
	s.complete(res.Summary, p.Language)
	explainSummary(res.Summary, res.Workbook)
	s.mu.Lock()
	s.result, s.profile = res, p
	s.mu.Unlock()
	s.spotCheckAfter(ctx, res.Summary)
	return res, nil
}

// Reask evaluates again under p, making new attempts (new seeds) for the
// judgements the last evaluation left unscorable because no attempt's reply
// could be read; every other judgement comes from the run store at no cost.
// The window's "re-ask unscorable" button calls it.
func (s *Session) Reask(ctx context.Context, p profile.Profile, o EvalOptions) (*engine.Result, error) {
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
func (s *Session) complete(sum *result.Summary, lang string) {
	if s.Report == nil {
		return
	}
	for _, p := range s.Report.Skipped {
		sum.Skipped = append(sum.Skipped, p.Message(lang))
	}
	for _, p := range s.Report.Problems {
		if p.Severity == ingest.SeverityWarning {
			sum.Warnings = append(sum.Warnings, result.Warning{Source: "ingest", Code: p.Code, Where: where(p),
				ZH: p.Message("zh"), EN: p.Message("en")})
		}
	}
}

// where names a problem's place: file, sheet, row, column.
func where(p ingest.Problem) string {
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
func (s *Session) Result() *engine.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.result
}

// last is the last result and the profile that produced it.
func (s *Session) last() (*engine.Result, profile.Profile) {
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

// Clone copies what the engine writes to: the item answers and the scores.
// Guides and human ratings are read only and shared.
func Clone(wb *dataset.Workbook) *dataset.Workbook {
	c := *wb
	c.Items = slices.Clone(wb.Items)
	for i := range c.Items {
		c.Items[i].Answers = maps.Clone(wb.Items[i].Answers)
	}
	c.Scores = slices.Clone(wb.Scores)
	c.Systems = slices.Clone(wb.Systems)
	return &c
}
