// Package backend is the session's engine side: the workbook reader
// (core/ingest, core/kb), the run store (core/store), the engine
// (core/engine) and batch files (core/batch), behind session.Backend. It
// registers itself when linked:
//
//	import _ "cubeworkbench/core/session/backend"
//
// cmd/cube and cmd/cubectl link it, and so do the tests of the front ends;
// the front ends themselves (ui, internal/cli) import only core/session, so
// they cannot go around it (the architecture test checks this).
package backend

import (
	"context"
	"io"

	"cubeworkbench/core/batch"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/kb"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/session"
	"cubeworkbench/core/store"
)

func init() { session.Register(Backend{}) }

// Backend implements session.Backend over core/engine, core/ingest and
// core/store.
type Backend struct{}

// CleanTemp removes what a killed earlier process left (ingest.CleanTemp).
func (Backend) CleanTemp() error { return ingest.CleanTemp() }

// Read reads path: into memory, or, for a knowledge base too large for it
// (kb.Large, or o.StreamGuides without o.AllGuides), into the run store
// with only the guides the questions name loaded.
func (Backend) Read(ctx context.Context, path string, o session.OpenOptions) (*dataset.Workbook, *dataset.ReadReport, int, error) {
	opt := ingest.Options{SkipBadRows: o.SkipBadRows, ReadHiddenSheets: o.ReadHiddenSheets}
	if o.AllGuides || !o.StreamGuides && !kb.Large(path) {
		wb, rep, err := ingest.Open(ctx, path, opt)
		return wb, rep, 0, err
	}
	st, err := store.Open(o.StorePath)
	if err != nil {
		return nil, nil, 0, err
	}
	defer st.Close()
	return kb.Open(ctx, path, st, opt)
}

// Plan is engine.Plan.
func (Backend) Plan(wb *dataset.Workbook, p profile.Profile) result.Preflight {
	return engine.Plan(wb, p)
}

// options are the engine's options for o over an open store.
func options(st *store.Store, o session.RunOptions) engine.Options {
	opt := engine.Options{
		Profile: o.Profile, Store: st, Offline: o.Offline, Progress: o.Progress, Version: o.Version,
		WorkbookPath: o.WorkbookPath, NewCompleter: o.NewCompleter, PartialGuides: o.PartialGuides,
		ReaskUnscorable: o.ReaskUnscorable, JudgeSets: o.JudgeSets,
	}
	if o.HashedEmbedder {
		opt.Embedder = embed.NewHashed()
	}
	return opt
}

// Run runs the engine over wb with the run store at o.StorePath.
func (Backend) Run(ctx context.Context, wb *dataset.Workbook, o session.RunOptions) (*result.Outcome, error) {
	st, err := store.Open(o.StorePath)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return engine.Run(ctx, wb, options(st, o))
}

// CubeConfig is engine.CubeConfig.
func (Backend) CubeConfig(p profile.Profile, wb *dataset.Workbook) (cube.Config, error) {
	return engine.CubeConfig(p, wb)
}

// LastProfile reads the run store's runs and returns the profile of the
// last one that finished.
func (Backend) LastProfile(ctx context.Context, storePath string) (string, bool, error) {
	st, err := store.Open(storePath)
	if err != nil {
		return "", false, err
	}
	runs, err := st.Runs(ctx)
	st.Close()
	if err != nil {
		return "", false, err
	}
	for i := len(runs) - 1; i >= 0; i-- {
		if runs[i].Status == store.RunDone {
			return runs[i].Profile, true, nil
		}
	}
	return "", false, nil
}

// BatchExport is batch.Prepare over the run store at o.StorePath.
func (Backend) BatchExport(ctx context.Context, wb *dataset.Workbook, o session.RunOptions, out io.Writer) (int, error) {
	st, err := store.Open(o.StorePath)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	return batch.Prepare(ctx, wb, options(st, o), out)
}

// BatchImport is batch.Import into the run store at storePath.
func (Backend) BatchImport(ctx context.Context, storePath string, in io.Reader) (result.BatchReport, error) {
	st, err := store.Open(storePath)
	if err != nil {
		return result.BatchReport{}, err
	}
	defer st.Close()
	return batch.Import(ctx, st, in)
}
