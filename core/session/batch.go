package session

import (
	"context"
	"io"

	"cubeworkbench/core/batch"
	"cubeworkbench/core/engine"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/store"
)

// BatchExport runs the evaluation with recorders in place of the judge and
// generator endpoints and writes what they deferred to out as batch JSONL
// (vllm run-batch, the OpenAI Batch API). It returns the requests written.
func (s *Session) BatchExport(ctx context.Context, p profile.Profile, out io.Writer, progress engine.Progress) (int, error) {
	if err := s.Check(); err != nil {
		return 0, err
	}
	st, err := store.Open(s.StorePath)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	return batch.Prepare(ctx, Clone(s.Workbook), engine.Options{
		Profile: p, Store: st, Progress: progress, Version: Version, WorkbookPath: s.Path, PartialGuides: s.Streamed > 0,
	}, out)
}

// BatchImport stores the replies of a batch result file (idempotent).
func BatchImport(ctx context.Context, storePath string, in io.Reader) (batch.Report, error) {
	st, err := store.Open(storePath)
	if err != nil {
		return batch.Report{}, err
	}
	defer st.Close()
	return batch.Import(ctx, st, in)
}
