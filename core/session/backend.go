package session

import (
	"context"
	"io"
	"sync"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// Backend is what a session drives: the workbook reader (core/ingest,
// core/kb), the run store (core/store) and the engine (core/engine). It
// speaks only in core/result, core/dataset and core/profile types, so the
// front ends that import this package link none of those three: the
// session is their only door. core/session/backend is the one
// implementation; cmd/cube and cmd/cubectl link it with a blank import (as
// database/sql drivers are linked), and so do the front ends' tests.
type Backend interface {
	// CleanTemp removes the temporary files a killed earlier process left.
	CleanTemp() error
	// Read reads a workbook, a CSV folder or a JSONL QA set as o says
	// (o.StorePath is set); streamed is how many guides went into the run
	// store instead of memory.
	Read(ctx context.Context, path string, o OpenOptions) (wb *dataset.Workbook, rep *dataset.ReadReport, streamed int, err error)
	// Plan estimates what Run will call for wb under p.
	Plan(wb *dataset.Workbook, p profile.Profile) result.Preflight
	// Run evaluates wb in place and returns the outcome. It never writes
	// into the array wb.Items holds, which the session shares with its own
	// workbook: it puts a copy there before it first changes an item.
	Run(ctx context.Context, wb *dataset.Workbook, o RunOptions) (*result.Outcome, error)
	// CubeConfig is the CuBE configuration the engine uses for wb under p.
	CubeConfig(p profile.Profile, wb *dataset.Workbook) (cube.Config, error)
	// LastProfile is the profile (TOML) of the last finished evaluation in
	// the run store at storePath; ok is false when there is none.
	LastProfile(ctx context.Context, storePath string) (profileTOML string, ok bool, err error)
	// BatchExport runs with recorders in place of the endpoints and
	// writes what they deferred to out as batch JSONL.
	BatchExport(ctx context.Context, wb *dataset.Workbook, o RunOptions, out io.Writer) (int, error)
	// BatchImport stores the replies of a batch result file.
	BatchImport(ctx context.Context, storePath string, in io.Reader) (result.BatchReport, error)
}

// RunOptions are what the backend needs for one engine run.
type RunOptions struct {
	Profile         profile.Profile
	StorePath       string
	Offline         bool
	Progress        result.Progress
	Version         string
	WorkbookPath    string
	NewCompleter    func(profile.Endpoint) (llm.Completer, error)
	PartialGuides   bool // Workbook.Guides holds only the guides the questions name
	ReaskUnscorable bool
	// HashedEmbedder uses the offline hashed embedder whatever the profile
	// names (a run whose retrieval figures are not wanted).
	HashedEmbedder bool
	// JudgeSets are the answer sets to judge besides the bounds zero and
	// full; nil is rag. Another system's set is judged under its own name,
	// and no metrics are computed (engine.Options.JudgeSets).
	JudgeSets []string
}

var (
	backendMu sync.RWMutex
	backend   Backend
)

// ErrNoBackend says a program opened a session without linking
// core/session/backend.
var ErrNoBackend error = text.NewError(text.New("未链接评测引擎（程序需导入 cubeworkbench/core/session/backend）",
	"no backend is linked; import _ \"cubeworkbench/core/session/backend\" in the program"), nil)

// Register makes b the backend of every session; core/session/backend
// calls it from its init. The last registration wins.
func Register(b Backend) {
	backendMu.Lock()
	defer backendMu.Unlock()
	backend = b
}

// be is the registered backend, or one that refuses every call.
func be() Backend {
	backendMu.RLock()
	defer backendMu.RUnlock()
	if backend == nil {
		return missing{}
	}
	return backend
}

// missing is the backend of a program that linked none: every call fails
// with ErrNoBackend.
type missing struct{}

func (missing) CleanTemp() error { return nil }
func (missing) Read(context.Context, string, OpenOptions) (*dataset.Workbook, *dataset.ReadReport, int, error) {
	return nil, nil, 0, ErrNoBackend
}
func (missing) Plan(*dataset.Workbook, profile.Profile) result.Preflight { return result.Preflight{} }
func (missing) Run(context.Context, *dataset.Workbook, RunOptions) (*result.Outcome, error) {
	return nil, ErrNoBackend
}
func (missing) CubeConfig(profile.Profile, *dataset.Workbook) (cube.Config, error) {
	return cube.Config{}, ErrNoBackend
}
func (missing) LastProfile(context.Context, string) (string, bool, error) {
	return "", false, ErrNoBackend
}
func (missing) BatchExport(context.Context, *dataset.Workbook, RunOptions, io.Writer) (int, error) {
	return 0, ErrNoBackend
}
func (missing) BatchImport(context.Context, string, io.Reader) (result.BatchReport, error) {
	return result.BatchReport{}, ErrNoBackend
}
