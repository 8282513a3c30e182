package session

import (
	"context"
	"io"

	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
)

// BatchExport runs the evaluation with recorders in place of the judge and
// generator endpoints and writes what they deferred to out as batch JSONL
// (vllm run-batch, the OpenAI Batch API). It returns the requests written.
func (s *Session) BatchExport(ctx context.Context, p profile.Profile, out io.Writer, progress result.Progress) (int, error) {
	if err := s.Check(); err != nil {
		return 0, err
	}
	return be().BatchExport(ctx, Clone(s.Workbook), RunOptions{
		Profile: p, StorePath: s.StorePath, Progress: progress, Version: Version, WorkbookPath: s.Path, PartialGuides: s.Streamed > 0,
	}, out)
}

// BatchImport stores the replies of a batch result file (idempotent).
func BatchImport(ctx context.Context, storePath string, in io.Reader) (result.BatchReport, error) {
	return be().BatchImport(ctx, storePath, in)
}
